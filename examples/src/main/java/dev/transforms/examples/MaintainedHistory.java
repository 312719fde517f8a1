package dev.transforms.examples;

import dev.transforms.api.Incremental;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.maintenance.MaintenanceEngine;
import dev.transforms.runtime.maintenance.MaintenanceOptions;
import dev.transforms.runtime.maintenance.MaintenanceReport;
import dev.transforms.runtime.maintenance.TableMaintenance;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A pipeline that looks after its output: an incremental transform appends the new rows of an
 * append-only input at every build, which leaves the output one more small file and one more snapshot
 * each time; {@link #main} builds it, then compacts the output and expires its old snapshots with the
 * maintenance API, under the defaults of the review guide (see {@code docs/maintenance.md}).
 *
 * <p>The same care from the command line, after {@code ./transforms build}:
 * {@code ./transforms maintain /Examples/iceberg/append-history --compact --expire --older-than 7d
 * --retain-last 10 --keep-incremental-state}.
 */
public class MaintainedHistory {

  /** The input: the append-only table of the snapshot comparison example. */
  public static final String SOURCE = SnapshotComparison.SOURCE;
  /** The output: every row the input ever had, appended build by build. */
  public static final String HISTORY = "/Examples/iceberg/append-history";
  /** The outputs this pipeline maintains. */
  public static final List<String> OUTPUTS = List.of(HISTORY);

  /**
   * Appends the rows added to the input since the last build (every row on the first build).
   *
   * @param ctx the context
   * @param source the append-only input
   * @param history the output, one append per build
   */
  @Transform(description = "appends the input's new rows at every build (single node); maintained by its main")
  @Incremental(semanticVersion = 1)
  public void appendHistory(SingleNodeTransformContext ctx,
      @TableInput(SOURCE) IcebergInput source,
      @TableOutput(HISTORY) IcebergOutput history) {
    history.writeTable(source.addedRows());
  }

  /**
   * The guide's safe defaults for a scheduled run: compact, expire snapshots older than a week but
   * keep the last ten, and keep every snapshot a downstream incremental transform still reads from.
   * Orphan files are left alone (the guide wants a dry run first: {@code transforms maintain
   * --remove-orphans} lists them).
   *
   * @return the options
   */
  public static MaintenanceOptions safeDefaults() {
    return MaintenanceOptions.none()
        .withCompact(true)
        .withExpiry(Duration.ofDays(7), 10)
        .withKeepIncrementalState(true);
  }

  /**
   * Compacts and expires every output of the pipeline with the single-node engine.
   *
   * @param config the configuration the pipeline builds with
   * @param options what to do, such as {@link #safeDefaults()}
   * @param log receives a line per step
   * @return a report per output, in the order of {@link #OUTPUTS}
   */
  public static List<MaintenanceReport> maintainOutputs(
      TransformsConfig config, MaintenanceOptions options, Consumer<String> log) {
    List<MaintenanceReport> reports = new ArrayList<>();
    try (MaintenanceEngine engine = TableMaintenance.findEngine(
            MaintainedHistory.class.getClassLoader(), Optional.of(MaintenanceEngine.SINGLE_NODE));
        TableMaintenance maintenance = TableMaintenance.open(config, engine)) {
      engine.start(config);
      for (String output : OUTPUTS) {
        reports.add(maintenance.maintain(DatasetPath.of(output), options, log));
      }
    }
    return reports;
  }

  /**
   * Builds the pipeline, then maintains its outputs with the safe defaults.
   *
   * @param args the warehouse folder of the embedded catalog (default {@code warehouse}); its input
   *     must exist (./transforms demo seeds it)
   */
  public static void main(String[] args) {
    TransformsConfig config = TransformsConfig.embedded(Path.of(args.length > 0 ? args[0] : "warehouse"));
    try (Transforms transforms = Transforms.open(config)) {
      BuildReport report = transforms.build(MaintainedHistory.class);
      if (!report.succeeded()) {
        throw new IllegalStateException("The build failed; nothing was maintained: " + report);
      }
    }
    maintainOutputs(config, safeDefaults(), System.out::println);
  }
}
