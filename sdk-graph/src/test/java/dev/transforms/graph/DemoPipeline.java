package dev.transforms.graph;

import dev.transforms.cli.report.TimedResult;
import dev.transforms.runtime.Advisory;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.OutputWrites;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The shape of the examples module's demo pipeline ({@code ./transforms demo}) for the browser test,
 * which cannot load the examples (they need Spark): the same transform names, engines and dataset
 * paths, and the node lines that {@code transforms graph} shows after a demo build. If the demo gains
 * transforms, add them here so that the pages are checked at the size users see.
 */
final class DemoPipeline {

  private DemoPipeline() {}

  private static final String ICEBERG = "/Examples/iceberg/";
  private static final String CDC = "/Examples/cdc/";
  private static final String OPENHOUSE = "/Examples/openhouse/";
  private static final String UPDATES = ICEBERG + "row-updates";
  private static final String APPENDS = ICEBERG + "append-source";
  private static final String CUSTOMERS = CDC + "customers";
  private static final String DELIVERIES = OPENHOUSE + "log-deliveries";

  /** The demo's transforms, in the order a build runs them. */
  static final List<TransformSpec> PLAN = List.of(
      transform("PartitionByDay.partitionByDay", "spark", List.of(ICEBERG + "date-input-dataset"),
          List.of(ICEBERG + "date-partitioned-table")),
      transform("SparkRowEdits.editRowsSpark", "spark", List.of(UPDATES), List.of(ICEBERG + "edited-spark")),
      transform("ValidatedUpdates.validateUpdates", "spark", List.of(UPDATES), List.of(ICEBERG + "validated-updates")),
      transform("ChangelogAndMetadata.changelogAndMetadata", "spark", List.of(UPDATES),
          List.of(ICEBERG + "row-updates-changelog", ICEBERG + "row-updates-snapshots")),
      transform("SingleNodeRowEdits.editRowsSingleNode", "single-node", List.of(UPDATES),
          List.of(ICEBERG + "edited-single-node")),
      transform("SingleNodeChangelog.changesSinceLastBuild", "single-node", List.of(UPDATES),
          List.of(ICEBERG + "row-updates-changes-single-node")),
      transform("StatusCounts.statusCounts", "single-node", List.of(UPDATES), List.of(ICEBERG + "status-counts")),
      transform("SingleNodeSql.statusSummary", "single-node", List.of(UPDATES, APPENDS),
          List.of(ICEBERG + "status-summary-sql")),
      transform("SnapshotComparison.compareSnapshotIdentifiers", "single-node", List.of(APPENDS),
          List.of(ICEBERG + "new-identifiers")),
      transform("MaintainedHistory.appendHistory", "single-node", List.of(APPENDS), List.of(ICEBERG + "append-history")),
      transform("CustomerDimensions.latest", "single-node", List.of(CUSTOMERS), List.of(CDC + "customers-latest")),
      transform("CustomerDimensions.history", "single-node", List.of(CUSTOMERS), List.of(CDC + "customers-history")),
      transform("SparkCustomerDimensions.latestSpark", "spark", List.of(CUSTOMERS),
          List.of(CDC + "customers-latest-spark")),
      transform("SparkCustomerDimensions.historySpark", "spark", List.of(CUSTOMERS),
          List.of(CDC + "customers-history-spark")),
      transform("OpenHouseWrites.logsByDay", "spark", List.of(DELIVERIES), List.of(OPENHOUSE + "logs-by-day")),
      transform("OpenHouseWrites.logsByLevel", "spark", List.of(DELIVERIES), List.of(OPENHOUSE + "logs-by-level")),
      transform("OpenHouseWrites.deliveryLog", "spark", List.of(DELIVERIES), List.of(OPENHOUSE + "delivery-log")),
      transform("OpenHouseWrites.firstDelivery", "spark", List.of(DELIVERIES), List.of(OPENHOUSE + "first-delivery")));

  private static TransformSpec transform(String name, String engine, List<String> inputs, List<String> outputs) {
    return SyntheticPipeline.transform(name, inputs, outputs, engine);
  }

  /** How long each transform of a demo build took, in milliseconds, in plan order. */
  private static final long[] MILLIS = {6400, 2100, 1900, 3300, 240, 180, 150, 420, 160, 130, 90, 110, 1500, 1700,
      2600, 1200, 800, 600};

  /**
   * The graph as {@code transforms graph} draws it after a demo build: each transform with its last
   * build, each dataset with its catalog table and rows.
   *
   * @return the graph
   */
  static PipelineGraph graph() {
    Map<String, Integer> index = new LinkedHashMap<>();
    for (int i = 0; i < PLAN.size(); i++) {
      index.put(PLAN.get(i).name(), i);
    }
    return PipelineGraph.of(PLAN, new NodeFacts() {
      @Override
      public GraphNode transform(TransformSpec spec) {
        GraphNode plan = NodeFacts.planOnly().transform(spec);
        int i = index.get(spec.name());
        List<String> lines = new ArrayList<>(plan.lines());
        lines.add(String.format(java.util.Locale.ROOT, "succeeded %.2fs, %d rows", MILLIS[i] / 1000.0, 40 + 37 * i));
        return new GraphNode(plan.id(), plan.kind(), plan.name(), lines, plan.details(), "SUCCEEDED", false);
      }

      @Override
      public GraphNode dataset(ParameterSpec declared, TransformSpec producer) {
        GraphNode plan = NodeFacts.planOnly().dataset(declared, producer);
        String path = declared.requirePath().toString();
        List<String> lines = List.of("local" + path.replace('/', '.'), (path.length() * 13) + " rows, 2 minutes ago");
        return new GraphNode(plan.id(), plan.kind(), plan.name(), lines, plan.details(), "TABLE", false);
      }
    });
  }

  /**
   * A demo build as {@code transforms build --report} records it: two threads, so short single-node
   * transforms run beside the Spark ones; one advisory, one recovery and one failure with a long cause.
   *
   * @return the results with their start and end
   */
  static List<TimedResult> build() {
    Instant t0 = Instant.parse("2026-01-01T09:00:00Z");
    Instant[] laneFree = {t0, t0};
    List<TimedResult> timed = new ArrayList<>();
    for (int i = 0; i < PLAN.size(); i++) {
      TransformSpec spec = PLAN.get(i);
      int lane = laneFree[0].isAfter(laneFree[1]) ? 1 : 0;
      Instant start = laneFree[lane].plusMillis(15);
      Instant end = start.plusMillis(MILLIS[i]);
      laneFree[lane] = end;
      List<OutputWrites> outputs = new ArrayList<>();
      for (ParameterSpec out : spec.outputs()) {
        String path = out.requirePath().toString();
        outputs.add(new OutputWrites(DatasetPath.of(path), "local" + path.replace('/', '.'), 40 + 37L * i, i % 3,
            1 + i % 4, 1, OptionalLong.of(4_000_000_000_000_000L + i), i == 0, i == 6
                ? List.of("added column last_seen (timestamptz), after the column status_updated_at")
                : List.of()));
      }
      List<Advisory> advisories = i != 3 ? List.of() : List.of(new Advisory(spec.name(), "inferred-schema",
          "Inferring a schema reads the files once more before the real read, and the types follow whatever the"
              + " files (or the sample) happened to hold.",
          "Pass the schema to the reader: spark.read().schema(structType) or a DDL string.",
          "spark.read().option(\"inferSchema\", \"true\").csv(\"/tmp/warehouse/Examples/iceberg/row-updates-export\")",
          Optional.of(DatasetPath.of(UPDATES))));
      List<String> recovery = i != 1 ? List.of() : List.of("dropped the uncommitted branch"
          + " transforms_build_0f3c9a77e5d14b2a8c61d0e4f7a9b3c2_SparkRowEdits.editRowsSpark left by build"
          + " 0f3c9a77-e5d1-4b2a-8c61-d0e4f7a9b3c2, which stopped before publishing");
      Optional<Throwable> error = i != PLAN.size() - 1 ? Optional.empty() : Optional.of(new IllegalStateException(
          "OpenHouseWrites.firstDelivery: time travel to snapshot 4000000000000000017 of"
              + " local.Examples.openhouse.log-deliveries failed",
          new IllegalArgumentException("Cannot find snapshot with ID 4000000000000000017 in table"
              + " local.Examples.openhouse.log-deliveries (metadata file /tmp/transforms-demo/warehouse/Examples/"
              + "openhouse/log-deliveries/metadata/00007-6c1f4e2a-9b3d-4c5e-8f7a-1d2e3f4a5b6c.metadata.json)")));
      TransformResult.Status status = error.isPresent() ? TransformResult.Status.FAILED
          : TransformResult.Status.SUCCEEDED;
      timed.add(new TimedResult(new TransformResult(spec.name(), spec.engine(), status, i == 0,
          i == 0 ? "inputs changed only by appends" : "first build", error.isPresent() ? List.of() : outputs,
          Duration.ofMillis(MILLIS[i]), error, recovery, List.of(), advisories), start, end));
    }
    return timed;
  }
}
