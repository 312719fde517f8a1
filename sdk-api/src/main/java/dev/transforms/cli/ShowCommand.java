package dev.transforms.cli;

import dev.transforms.api.TransformsException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.build.BuildOptions;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import dev.transforms.runtime.internal.publish.BranchView;
import dev.transforms.runtime.internal.publish.BuildBranch;
import dev.transforms.runtime.internal.publish.BuildLease;
import dev.transforms.runtime.internal.publish.StagingMarks;
import dev.transforms.runtime.maintenance.TableMaintenance;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code transforms show PATH}: a table's schema, partition spec, properties and snapshots. */
@Command(name = "show", description = "Shows a table's schema, partition spec, properties, snapshots, branches, "
    + "build state and checks.",
    footer = {"", "Examples:",
        "  transforms show /Shop/raw/orders",
        "  transforms show /Shop/clean/orders --config team.properties",
        "  transforms show /Shop/clean/orders --branch new-totals"})
final class ShowCommand implements Callable<Integer> {
  @ParentCommand TransformsCli parent;

  @Parameters(paramLabel = "PATH", description = "A dataset path, such as /Examples/iceberg/row-updates.")
  String path;

  @Option(names = "--branch", paramLabel = "NAME", description = "Show the table as branch NAME holds it: its "
      + "head as the current snapshot, the build state and checks its builds stored.")
  String branch;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (branch != null) {
      BranchCommand.checkName(spec, branch);
    }
    TransformsConfig config = parent.loadConfig();
    DatasetPath datasetPath = DatasetPath.of(path);
    ResolvedTable resolved = new TableResolver(config).resolve(datasetPath);
    PrintWriter out = parent.out();
    try (TableMaintenance maintenance = TableMaintenance.open(config, null)) {
      Table loaded;
      try {
        // As health reads it: from an existing catalog only (showing must not create a warehouse or a catalog
        // database), and a missing table or catalog worded the same way.
        loaded = maintenance.load(datasetPath);
      } catch (TransformsException noTableOrCatalog) {
        throw noTableOrCatalog;
      } catch (RuntimeException e) {
        throw new TransformsException("Cannot read table " + datasetPath + " (" + resolved.sparkIdentifier()
            + ") of catalog '" + resolved.catalog() + "'", e);
      }
      out.printf("%s -> %s%n", datasetPath, resolved.sparkIdentifier());
      if (branch != null) {
        out.printf("on branch %s: %s%n", branch, loaded.refs().containsKey(branch)
            ? "the current snapshot, build state and checks below are the branch's"
            : "not cut on this table yet; below is main, where a build of the branch starts from");
      }
      BuildBranch on = BuildOptions.NONE.withBranch(branch, config.values()).branch();
      Table table = BranchView.output(loaded, on);
      out.printf("location: %s%n", table.location());
      // One column a line: Schema.toString() wraps them in "table { ... }", whose closing brace reads as stray.
      out.println("schema:");
      table.schema().columns().forEach(column -> out.printf("  %s%n", column));
      PartitionSpec partitionSpec = table.spec();
      out.printf("partition spec: %s%n", partitionSpec.isUnpartitioned() ? "unpartitioned" : partitionSpec.fields());
      out.printf("sort order: %s%n", table.sortOrder().isUnsorted() ? "unsorted" : table.sortOrder());
      out.println("properties:");
      config.masker().maskAll(new TreeMap<>(table.properties())).forEach((k, v) -> out.printf("  %s = %s%n", k, v));
      out.printf("health: %s%n", dev.transforms.runtime.maintenance.TableHealth.of(datasetPath.toString(), table)
          .summary());
      out.println("snapshots:");
      for (Snapshot snapshot : table.snapshots()) {
        Map<String, String> shown = new TreeMap<>(snapshot.summary() == null ? Map.of() : snapshot.summary());
        shown.keySet().removeIf(k -> !k.startsWith("transforms.")
            && !List.of("added-records", "deleted-records", "total-records").contains(k));
        out.printf("  %d  %s  %-9s parent=%s  %s%n", snapshot.snapshotId(),
            Instant.ofEpochMilli(snapshot.timestampMillis()), snapshot.operation(), snapshot.parentId(), shown);
        Snapshot parent = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
        if (parent != null && parent.schemaId() != null && snapshot.schemaId() != null
            && !parent.schemaId().equals(snapshot.schemaId())) {
          dev.transforms.runtime.internal.schema.SchemaDiff.between(table.schemas().get(parent.schemaId()),
              table.schemas().get(snapshot.schemaId())).describe()
              .forEach(change -> out.printf("      schema: %s%n", change));
        }
      }
      out.printf("current snapshot: %s%n",
          table.currentSnapshot() == null ? "none" : table.currentSnapshot().snapshotId());
      out.println("branches and tags:");
      new TreeMap<>(table.refs()).forEach((name, ref) -> out.printf("  %-8s %s -> %d%s%n",
          ref.isBranch() ? "branch" : "tag", name, ref.snapshotId(), describeStaging(table, name)));
      out.printf("build state: %s%n", IncrementalState.fromProperties(table.properties())
          .map(state -> "transform " + state.transform() + ", build " + state.buildId() + ", semantic version "
              + state.semanticVersion() + ", inputs: " + describeInputs(state))
          .orElse("none (no build has published this table)"));
      out.println("checks of the published version:");
      Map<String, String> checks = new TreeMap<>();
      table.properties().forEach((key, value) -> {
        if (key.startsWith(dev.transforms.runtime.internal.publish.OutputPublisher.CHECKS_PREFIX)) {
          checks.put(key.substring(dev.transforms.runtime.internal.publish.OutputPublisher.CHECKS_PREFIX.length()), value);
        }
      });
      if (checks.isEmpty()) {
        out.println("  none declared");
      }
      checks.forEach((check, outcome) -> out.printf("  %s: %s%n", check, outcome));
    }
    return ExitCodes.OK;
  }

  /** The inputs a build consumed, as {@code /path at snapshot N}, in path order. */
  private static String describeInputs(IncrementalState state) {
    if (state.inputSnapshots().isEmpty()) {
      return "none";
    }
    List<String> inputs = new ArrayList<>();
    new TreeMap<>(state.inputSnapshots()).forEach((path, snapshot) -> inputs.add(path
        + (snapshot.isPresent() ? " at snapshot " + snapshot.getAsLong() : " (no snapshot yet)")));
    return String.join(", ", inputs);
  }

  /** Says whose staging branch a branch is, and whether that build still runs. */
  private static String describeStaging(Table table, String branch) {
    return StagingMarks.buildOfBranch(branch).map(build -> {
      Optional<BuildLease> lease = StagingMarks.lease(table, build);
      return "  (staging branch of build " + build + ", " + lease.map(l -> l.alive()
          ? "running: " + l : "dead: " + l + "; the next build of this output removes it")
          .orElse("no lease: the next build of this output removes it") + ")";
    }).orElse("");
  }
}
