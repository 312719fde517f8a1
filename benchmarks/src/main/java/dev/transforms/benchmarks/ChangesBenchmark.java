package dev.transforms.benchmarks;

import dev.transforms.api.Incremental;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.singlenode.Changelog;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import dev.transforms.singlenode.edits.ApplyChanges;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.spark.SparkChanges;
import dev.transforms.spark.SparkSessions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.spark.sql.SparkSession;

/**
 * Changes of an edited input (issue 34): a merge-on-read table of 1,000,000 customers (format v2,
 * identifier {@code id}, 4 data files), 10,000 of them upserted per round (position deletes and one new
 * file). Each round, side by side: the single-node {@code Changelog} of the upsert, the Spark
 * {@code SparkChanges} of it ({@code create_changelog_view} refuses merge-on-read snapshots), an
 * incremental SCD type 1 build ({@code @Incremental(changes = true)}) over it and the same build forced
 * full, each for a dimension written copy-on-write (the default) and one set to merge-on-read.
 *
 * <pre>{@code java $OPENS -Xmx8g -cp "$CP" dev.transforms.benchmarks.ChangesBenchmark 1000000 10000 5}</pre>
 */
public final class ChangesBenchmark {

  static final String CUSTOMERS = "/bench/cdc/customers";
  static final String LATEST = "/bench/cdc/latest";
  static final String LATEST_MOR = "/bench/cdc/latest-mor";

  static final Schema SCHEMA = new Schema(List.of(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()),
      Types.NestedField.optional(3, "tier", Types.StringType.get()),
      Types.NestedField.optional(4, "updated_at", Types.LongType.get())), Set.of(1));

  /** The SCD type 1 dimension of the customers. */
  public static class Latest {
    /**
     * Applies the customers' changes.
     *
     * @param ctx the context
     * @param customers the input
     * @param latest the dimension
     */
    @Transform
    @Incremental(changes = true)
    public void latest(SingleNodeTransformContext ctx, @TableInput(CUSTOMERS) IcebergInput customers,
        @TableOutput(LATEST) IcebergOutput latest) {
      ApplyChanges.scd1("id").applyTo(ctx, latest, customers.changes());
    }
  }

  /**
   * The same dimension kept merge-on-read: a full build sets the output's write modes, so that an
   * incremental build's upsert writes position deletes instead of rewriting the files it touches.
   */
  public static class LatestMergeOnRead {
    /**
     * Applies the customers' changes.
     *
     * @param ctx the context
     * @param customers the input
     * @param latest the dimension
     */
    @Transform
    @Incremental(changes = true)
    public void latest(SingleNodeTransformContext ctx, @TableInput(CUSTOMERS) IcebergInput customers,
        @TableOutput(LATEST_MOR) IcebergOutput latest) {
      ApplyChanges.scd1("id").applyTo(ctx, latest, customers.changes());
      latest.table().filter(table -> !"merge-on-read".equals(table.properties().get("write.update.mode")))
          .ifPresent(table -> table.updateProperties().set("write.delete.mode", "merge-on-read")
              .set("write.update.mode", "merge-on-read").set("write.merge.mode", "merge-on-read").commit());
    }
  }

  private ChangesBenchmark() {}

  /**
   * Runs the benchmark.
   *
   * @param args rows (1000000), upserted rows per round (10000), rounds (5)
   * @throws Exception if a build fails
   */
  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int upserted = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    Path warehouse = Files.createTempDirectory("transforms-bench");
    Harness.deleteOnExit(warehouse);
    TransformsConfig config = TransformsConfig.embedded(warehouse);
    SparkSession spark = SparkSessions.forBuild(SparkSessions.builder(config).getOrCreate(), config);
    try (Transforms transforms = Transforms.open(config)) {
      Catalog catalog = transforms.catalog(TransformsConfig.DEFAULT_CATALOG);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench"));
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench", "cdc"));
      TableIdentifier id = TableIdentifier.of(Namespace.of("bench", "cdc"), "customers");
      Table table = catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "2",
          "write.delete.mode", "merge-on-read", "write.update.mode", "merge-on-read",
          "write.merge.mode", "merge-on-read"));
      for (int part = 0; part < 4; part++) {
        List<Record> batch = new ArrayList<>();
        for (long i = (long) part * rows / 4; i < (long) (part + 1) * rows / 4; i++) {
          batch.add(customer(i, "name" + i, "tier" + (i % 5), 0));
        }
        RowEdits.on(table).append(batch);
      }
      Transforms.Selection scd1 = Transforms.Selection.of(List.of(Latest.class));
      Transforms.Selection scd1Mor = Transforms.Selection.of(List.of(LatestMergeOnRead.class));
      expect(transforms.build(scd1), false);
      expect(transforms.build(scd1Mor), false);
      String identifier = "local.bench.cdc.customers";
      Random random = new Random(42);
      double[] single = new double[rounds];
      double[] sparkChanges = new double[rounds];
      double[] incremental = new double[rounds];
      double[] full = new double[rounds];
      double[] incrementalMor = new double[rounds];
      double[] fullMor = new double[rounds];
      for (int round = -1; round < rounds; round++) {
        table.refresh();
        long before = table.currentSnapshot().snapshotId();
        List<Record> upserts = new ArrayList<>();
        for (int i = 0; i < upserted; i++) {
          long key = random.nextInt(rows);
          upserts.add(customer(key, "renamed" + round + "-" + key, "tier" + (key % 5), round + 2));
        }
        RowEdits.on(table).upsert(dedupe(upserts), List.of("id"));
        table.refresh();
        long after = table.currentSnapshot().snapshotId();
        int[] counted = new int[2];
        double s = Harness.time(() -> counted[0] = Changelog.of(table).between(OptionalLong.of(before), after)
            .identifiedBy("id").changes().size());
        double k = Harness.time(() -> counted[1] = (int) SparkChanges.between(spark, identifier, table,
            OptionalLong.of(before), after, List.of("id")).count());
        if (counted[0] != counted[1]) {
          throw new IllegalStateException("single node found " + counted[0] + " changes, Spark " + counted[1]);
        }
        double inc = Harness.time(() -> expect(transforms.build(scd1), true));
        double incMor = Harness.time(() -> expect(transforms.build(scd1Mor), true));
        double whole = Harness.time(() -> expect(transforms.build(scd1.full()), false));
        double wholeMor = Harness.time(() -> expect(transforms.build(scd1Mor.full()), false));
        if (round == -1 && !"merge-on-read".equals(catalog.loadTable(TableIdentifier.of(Namespace.of("bench", "cdc"),
            "latest-mor")).properties().get("write.update.mode"))) {
          throw new IllegalStateException("the merge-on-read dimension is not merge-on-read after a full build");
        }
        if (round >= 0) {
          single[round] = s;
          sparkChanges[round] = k;
          incremental[round] = inc;
          full[round] = whole;
          incrementalMor[round] = incMor;
          fullMor[round] = wholeMor;
        }
      }
      for (double[] each : List.of(single, sparkChanges, incremental, full, incrementalMor, fullMor)) {
        Arrays.sort(each);
      }
      Harness.header();
      Harness.row("single-node Changelog of the upsert", single);
      Harness.row("Spark SparkChanges of the upsert (count)", sparkChanges);
      Harness.row("SCD1 build, incremental, copy-on-write output", incremental);
      Harness.row("SCD1 build, forced full, copy-on-write output", full);
      Harness.row("SCD1 build, incremental, merge-on-read output", incrementalMor);
      Harness.row("SCD1 build, forced full, merge-on-read output", fullMor);
      System.out.printf("Spark / single node (medians): %.1fx; full / incremental: %.1fx (copy-on-write output), "
          + "%.1fx (merge-on-read output); %d rows, %d upserted%n",
          Harness.median(sparkChanges) / Harness.median(single), Harness.median(full) / Harness.median(incremental),
          Harness.median(fullMor) / Harness.median(incrementalMor), rows, upserted);
    } finally {
      spark.stop();
    }
  }

  private static List<Record> dedupe(List<Record> rows) {
    Map<Object, Record> byKey = new java.util.LinkedHashMap<>();
    rows.forEach(r -> byKey.put(r.get(0), r));
    return new ArrayList<>(byKey.values());
  }

  private static Record customer(long id, String name, String tier, long updatedAt) {
    Record r = GenericRecord.create(SCHEMA);
    r.set(0, id);
    r.set(1, name);
    r.set(2, tier);
    r.set(3, updatedAt);
    return r;
  }

  private static BuildReport expect(BuildReport report, boolean incremental) {
    TransformResult result = report.results().get(0);
    if (result.status() != TransformResult.Status.SUCCEEDED || result.incremental() != incremental) {
      throw new IllegalStateException("expected an " + (incremental ? "incremental" : "full") + " build:\n"
          + report.format());
    }
    return report;
  }
}
