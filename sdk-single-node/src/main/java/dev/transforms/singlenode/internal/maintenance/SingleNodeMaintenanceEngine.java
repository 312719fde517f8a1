package dev.transforms.singlenode.internal.maintenance;

import dev.transforms.runtime.maintenance.CompactionResult;
import dev.transforms.runtime.maintenance.MaintenanceEngine;
import dev.transforms.singlenode.edits.Compaction;
import org.apache.iceberg.Table;

/**
 * Maintenance on a single node: compaction reads with the engine's own reader and writes with its
 * writer ({@link Compaction}); manifests are rewritten with Iceberg core.
 */
public final class SingleNodeMaintenanceEngine implements MaintenanceEngine {

  /** Creates the engine; found with {@link java.util.ServiceLoader}. */
  public SingleNodeMaintenanceEngine() {}

  @Override
  public String name() {
    return SINGLE_NODE;
  }

  @Override
  public CompactionResult compact(Table table) {
    return Compaction.plan(table).run();
  }
}
