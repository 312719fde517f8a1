package dev.transforms.runtime.internal.load;

import dev.transforms.runtime.OutputWrites;
import dev.transforms.runtime.ResolvedTable;

/**
 * What a load did to one table.
 *
 * @param request what was asked
 * @param resolved the catalog table the path resolves to
 * @param writes what the publication wrote: rows added and deleted, the new snapshot, whether the table
 *     was created
 */
public record LoadedTable(LoadRequest request, ResolvedTable resolved, OutputWrites writes) {}
