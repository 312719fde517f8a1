package dev.transforms.runtime.internal.build;

import dev.transforms.api.DatasetNotFoundException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.incremental.IncrementalDecider;
import dev.transforms.runtime.internal.publish.BranchView;
import dev.transforms.runtime.internal.publish.BuildBranch;
import dev.transforms.runtime.internal.publish.OutputPublisher;
import dev.transforms.runtime.spi.BoundInput;
import dev.transforms.runtime.spi.BoundOutput;
import dev.transforms.runtime.spi.DatasetKind;
import dev.transforms.runtime.spi.IncrementalDecision;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * A transform's datasets as a build finds them: each path resolved to its table, each input loaded and
 * pinned at its current snapshot (or, for a path that names no table, the files under it), each output
 * loaded if it exists (its namespace created if not), and the inputs bound once the incremental decision
 * is made.
 */
final class TransformTables {

  private final TransformsConfig config;
  private final Catalogs catalogs;
  private final TableResolver resolver;

  TransformTables(TransformsConfig config, Catalogs catalogs, TableResolver resolver) {
    this.config = config;
    this.catalogs = catalogs;
    this.resolver = resolver;
  }

  /**
   * Resolves and loads every input, pinning each table's current snapshot (on a branch build, the head
   * of the branch it is read at, and the table as {@link BranchView#input} shows it there).
   */
  List<LoadedInput> inputs(TransformSpec spec, BuildBranch branch) {
    List<LoadedInput> loaded = new ArrayList<>();
    for (ParameterSpec parameter : spec.inputs()) {
      ResolvedTable resolved = resolver.resolve(parameter.requirePath());
      Optional<Table> catalogTable = loadInput(spec, parameter, resolved, catalogs.catalog(resolved.catalog()));
      String ref = catalogTable.map(t -> branch.inputRef(t, parameter.requirePath().toString()))
          .orElse(SnapshotRef.MAIN_BRANCH);
      Optional<Table> table = catalogTable.map(t -> BranchView.input(t, ref));
      Optional<Path> files = table.isPresent() ? Optional.empty() : Optional.of(fileLocation(spec, parameter));
      OptionalLong snapshot = table.map(TransformTables::currentSnapshot).orElse(OptionalLong.empty());
      loaded.add(new LoadedInput(parameter, resolved, table, files, snapshot, ref));
    }
    return loaded;
  }

  /** Resolves every output and loads the tables that exist; creates the namespaces of those that do not. */
  List<BoundOutput> outputs(TransformSpec spec) {
    List<BoundOutput> outputs = new ArrayList<>();
    for (ParameterSpec parameter : spec.outputs()) {
      ResolvedTable resolved = resolver.resolve(parameter.requirePath());
      if (parameter.kind().orElseThrow() == DatasetKind.FILES) {
        outputs.add(new BoundOutput(parameter, resolved, Optional.empty(),
            Optional.of(config.filesRoot().resolve(relative(parameter.requirePath())))));
        continue;
      }
      Catalog catalog = catalogs.catalog(resolved.catalog());
      Table existing = loadIfExists(catalog, resolved);
      if (existing == null) {
        Catalogs.createNamespaceIfMissing(catalog, resolved.identifier().namespace());
      }
      outputs.add(new BoundOutput(parameter, resolved, Optional.ofNullable(existing), Optional.empty()));
    }
    return outputs;
  }

  /** Completes the inputs with what the last build consumed and whether they read added rows only. */
  static List<BoundInput> bind(TransformSpec spec, List<LoadedInput> loaded,
      IncrementalDecider.StoredState stored, IncrementalDecision decision) {
    List<BoundInput> inputs = new ArrayList<>();
    for (LoadedInput input : loaded) {
      DatasetPath path = input.parameter().requirePath();
      OptionalLong stamped = stored.previousSnapshot(path);
      // The snapshot the last build consumed is "previous" only while it still exists.
      boolean exists = stamped.isPresent()
          && input.table().map(t -> t.snapshot(stamped.getAsLong()) != null).orElse(false);
      boolean snapshotInput = spec.incremental().map(o -> o.snapshotInputs().contains(path)).orElse(false);
      inputs.add(new BoundInput(input.parameter(), input.resolved(), input.table(), input.files(), input.snapshot(),
          exists ? stamped : OptionalLong.empty(), decision.incremental() && !snapshotInput, input.branch()));
    }
    return inputs;
  }

  /** The outputs that are tables, as the publish protocol stages them. */
  List<OutputPublisher.Output> staged(List<BoundOutput> outputs) {
    List<OutputPublisher.Output> staged = new ArrayList<>();
    for (BoundOutput output : outputs) {
      if (output.fileLocation().isEmpty()) {
        staged.add(new OutputPublisher.Output(output.parameter().requirePath(), output.resolved(),
            catalogs.catalog(output.resolved().catalog()), output.existing().orElse(null)));
      }
    }
    return staged;
  }

  private Optional<Table> loadInput(TransformSpec spec, ParameterSpec parameter, ResolvedTable resolved,
      Catalog catalog) {
    try {
      return Optional.of(catalog.loadTable(resolved.identifier()));
    } catch (NoSuchTableException e) {
      if (parameter.kind().orElseThrow() == DatasetKind.FILES) {
        return Optional.empty();
      }
      throw new DatasetNotFoundException("Input " + parameter.requirePath() + " of transform " + spec.name()
          + " does not exist: no table " + resolved.sparkIdentifier() + " in catalog '" + resolved.catalog()
          + "'. Build the transform that produces it, or load it from files (transforms load "
          + parameter.requirePath() + " FILE...), or check the mounts in " + TransformsConfig.FILE_NAME);
    }
  }

  private static Table loadIfExists(Catalog catalog, ResolvedTable resolved) {
    try {
      return catalog.loadTable(resolved.identifier());
    } catch (NoSuchTableException e) {
      return null;
    }
  }

  private Path fileLocation(TransformSpec spec, ParameterSpec parameter) {
    Path location = config.filesRoot().resolve(relative(parameter.requirePath()));
    if (!Files.exists(location)) {
      throw new DatasetNotFoundException("Input " + parameter.requirePath() + " of transform " + spec.name()
          + " does not exist: it is neither a table (" + resolver.resolve(parameter.requirePath()).sparkIdentifier()
          + ") nor files under " + location);
    }
    return location;
  }

  private static String relative(DatasetPath path) {
    return String.join("/", path.segments());
  }

  static OptionalLong currentSnapshot(Table table) {
    Snapshot snapshot = table.currentSnapshot();
    return snapshot == null ? OptionalLong.empty() : OptionalLong.of(snapshot.snapshotId());
  }

  /** An input resolved and loaded, before the incremental decision completes its binding; read at {@code branch}. */
  record LoadedInput(ParameterSpec parameter, ResolvedTable resolved, Optional<Table> table,
      Optional<Path> files, OptionalLong snapshot, String branch) {}
}
