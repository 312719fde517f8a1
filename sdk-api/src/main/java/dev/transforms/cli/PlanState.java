package dev.transforms.cli;

import dev.transforms.api.DatasetNotFoundException;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.api.TableOutput;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.config.BuildSettings;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.incremental.Freshness;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.publish.BranchView;
import dev.transforms.runtime.internal.publish.BuildBranch;
import dev.transforms.runtime.internal.schema.SchemaDiff;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * What {@code transforms plan} tells of each transform beside the plan: whether a build would run it or
 * find it up to date ({@link Freshness}, the decision builds make), and per output the schema-change
 * policy of its incremental builds and the schema change its last build published. Reads catalogs that
 * exist and nothing else: the embedded catalog only once its database exists.
 *
 * <p>For a branch ({@code plan --branch NAME}) each table is seen as a build of that branch sees it: an
 * output at the branch's head with the state its builds stored (at {@code main} while the branch is not
 * cut on it), an input at the branch or the fallback it would be read at.
 */
final class PlanState implements AutoCloseable {

  private final TransformsConfig config;
  private final BuildBranch branch;
  private final Catalogs catalogs;
  private final TableResolver resolver;
  private final Map<DatasetPath, Optional<Table>> tables = new HashMap<>();
  private final Map<String, String> unreadable = new HashMap<>();

  PlanState(TransformsConfig config, BuildBranch branch) {
    this.config = config;
    this.branch = branch;
    this.catalogs = new Catalogs(config);
    this.resolver = new TableResolver(config);
  }

  /**
   * What a build of the plan would do with each transform, in plan order: run it (and why), or skip
   * it as up to date. A transform whose upstream would run may have to run after it: it says so.
   *
   * @param plan the plan
   * @return one line per transform, by name
   */
  Map<String, String> decisions(BuildPlan plan) {
    Map<String, String> lines = new LinkedHashMap<>();
    Map<String, Boolean> runs = new HashMap<>();
    for (TransformSpec spec : plan.transforms()) {
      List<String> runningUpstream = plan.upstreamOf(spec.name()).stream().filter(u -> runs.getOrDefault(u, true))
          .sorted().toList();
      String problem = problems(spec);
      Freshness freshness;
      try {
        freshness = Freshness.evaluate(spec, config, this::output, this::input);
      } catch (DatasetNotFoundException e) {
        // An input with none of the branches a branch build reads: the build would fail the same way.
        lines.put(spec.name(), "fails: " + e.getMessage());
        runs.put(spec.name(), true);
        continue;
      }
      if (!problem.isEmpty()) {
        lines.put(spec.name(), "state unknown: " + problem);
        runs.put(spec.name(), true);
      } else if (!freshness.upToDate()) {
        lines.put(spec.name(), "runs: " + freshness.reason());
        runs.put(spec.name(), true);
      } else if (!runningUpstream.isEmpty()) {
        lines.put(spec.name(), "runs if " + String.join(", ", runningUpstream) + " publish something new; "
            + freshness.reason());
        runs.put(spec.name(), true);
      } else {
        lines.put(spec.name(), freshness.reason());
        runs.put(spec.name(), false);
      }
    }
    return lines;
  }

  /**
   * What is known of an output's shape: the policy of its incremental builds (for an incremental
   * transform), and the schema change its last build published.
   *
   * @param spec the transform
   * @param output one of its table outputs
   * @return lines to print below the output, possibly none
   */
  List<String> shape(TransformSpec spec, ParameterSpec output) {
    List<String> lines = new ArrayList<>();
    if (spec.incremental().isPresent()) {
      TableOutput declared = spec.method().getParameters()[output.index()].getAnnotation(TableOutput.class);
      SchemaChangePolicy policy = declared == null ? SchemaChangePolicy.CONFIGURED : declared.onSchemaChange();
      SchemaChangePolicy effective = policy == SchemaChangePolicy.CONFIGURED
          ? BuildSettings.of(config.values()).onSchemaChange() : policy;
      lines.add("schema changes in incremental builds: " + effective.name().toLowerCase(Locale.ROOT)
          + (policy == SchemaChangePolicy.CONFIGURED ? " (build.on-schema-change)" : ""));
    }
    output(output.requirePath()).ifPresent(table -> {
      List<String> changes = lastSchemaChange(table);
      if (!changes.isEmpty()) {
        lines.add("last build changed the schema: " + String.join(", ", changes));
      }
    });
    return lines;
  }

  /**
   * The schema change the build that stored a table's state published: between the schema of the
   * snapshot before that build's first snapshot and the schema of the snapshot it published.
   */
  private static List<String> lastSchemaChange(Table table) {
    Optional<IncrementalState> state = IncrementalState.fromProperties(table.properties());
    OptionalLong published = IncrementalState.parseSnapshot(table.properties().get(IncrementalState.SNAPSHOT_ID));
    if (state.isEmpty() || published.isEmpty() || table.snapshot(published.getAsLong()) == null) {
      return List.of();
    }
    Snapshot last = table.snapshot(published.getAsLong());
    Snapshot before = last;
    while (before != null && state.get().buildId().equals(before.summary() == null ? null
        : before.summary().get(IncrementalState.SUMMARY_BUILD_ID))) {
      before = before.parentId() == null ? null : table.snapshot(before.parentId());
    }
    if (before == null || before.schemaId() == null || last.schemaId() == null
        || before.schemaId().equals(last.schemaId())) {
      return List.of();
    }
    return SchemaDiff.between(table.schemas().get(before.schemaId()), table.schemas().get(last.schemaId())).describe();
  }

  private String problems(TransformSpec spec) {
    List<DatasetPath> paths = new ArrayList<>(spec.inputPaths());
    paths.addAll(spec.outputPaths());
    paths.forEach(this::table);
    return String.join("; ", paths.stream().map(p -> unreadable.get(resolver.resolve(p).catalog()))
        .filter(Objects::nonNull).distinct().toList());
  }

  /** An output as the build decides from it: on the branch planned. */
  private Optional<Table> output(DatasetPath path) {
    return table(path).map(t -> BranchView.output(t, branch));
  }

  /** An input as the build reads it: at the branch planned, or a fallback. */
  private Optional<Table> input(DatasetPath path) {
    return table(path).map(t -> BranchView.input(t, path.toString(), branch));
  }

  private Optional<Table> table(DatasetPath path) {
    return tables.computeIfAbsent(path, p -> {
      ResolvedTable resolved = resolver.resolve(p);
      if (unreadable.containsKey(resolved.catalog())) {
        return Optional.empty();
      }
      try {
        Optional<Catalog> catalog = catalogs.existingCatalog(resolved.catalog());
        return catalog.map(c -> c.loadTable(resolved.identifier()));
      } catch (NoSuchTableException e) {
        return Optional.empty();
      } catch (RuntimeException e) {
        unreadable.put(resolved.catalog(), "catalog '" + resolved.catalog() + "' cannot be read (" + e.getMessage()
            + ")");
        return Optional.empty();
      }
    });
  }

  @Override
  public void close() {
    catalogs.close();
  }
}
