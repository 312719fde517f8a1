package dev.transforms.benchmarks;

import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.arrow.ArrowTableWriter;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.singlenode.edits.UpsertResult;
import dev.transforms.spark.SparkSessions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.unsafe.UnsafeAllocationManager;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The single-node SDK's row edits, Arrow reads and Arrow writes on a 1M-row table, against their
 * targets and, for the 10k-row upsert, against Spark's {@code MERGE INTO} on the same table data in
 * the same run.
 *
 * <p>The table: 1,000,000 rows in one Parquet file, columns {@code id long} (required, 0..999,999),
 * {@code a double} and {@code s string} (a hash of the id in base 36, 2 to 14 characters, about one
 * distinct value per row). It is written once with {@link ArrowTableWriter} into a seed table; every
 * table measured ({@code cow_v2}, {@code mor_v2}, {@code mor_v3}: format version and
 * {@code write.merge.mode}/{@code write.delete.mode}) gets the same data file by a fast append. All
 * tables live in the embedded JDBC catalog on SQLite ({@link TransformsConfig#embedded}) in a temporary
 * folder, deleted at the end.
 *
 * <p>Cases (each run starts from the same table state: before every run the table is refreshed and
 * rolled back to its base snapshot with {@code manageSnapshots().rollbackTo(base)}, and the JVM is
 * asked for a GC; neither is timed, nor is the check of the result after the run):
 * <ol>
 *   <li>{@code upsert 10k into 1M}: {@link RowEdits#upsert(VectorSchemaRoot, List)} of an Arrow root of
 *       10,000 rows: 5,000 existing ids spread over the table (every 200th id) with changed values and
 *       5,000 new ids. Copy-on-write v2, merge-on-read v2 (position deletes) and v3 (deletion vectors);
 *       the time includes the Arrow-to-record conversion, planning, reading, writing and the commit.
 *   <li>The same upsert as Spark {@code MERGE INTO t USING src ON t.id = src.id WHEN MATCHED THEN UPDATE
 *       SET * WHEN NOT MATCHED THEN INSERT *}, session {@code local[2]} with 2 shuffle partitions, the
 *       source a temporary view over the same 10,000 rows, on the same three tables. The six upsert
 *       cases alternate run by run, so that they see the same machine; the ratios of medians are
 *       printed under the table.
 *   <li>{@code upsert 1M into 1M}: every id matches, every row changes; copy-on-write and
 *       merge-on-read, v2.
 *   <li>{@code delete 1%}: {@link RowEdits#delete(String)} with the filter {@value #DELETE_FILTER}, a
 *       contiguous id range of 10,000 rows (Iceberg has no modulo, so a spread-out selection would need
 *       an IN list); copy-on-write v2, merge-on-read v2 (position deletes) and v3 (deletion vector).
 *   <li>{@code arrow() of 1M rows}: {@link ArrowTableReader#readAll} of the whole table, without delete
 *       files, and with the delete file of a merge-on-read delete of 1% (v2 position deletes, v3
 *       deletion vector; 990,000 rows read). Closing the root is not timed.
 *   <li>{@code writeTable of 1M rows}: {@link ArrowTableWriter#writeDataFiles} of an Arrow root prepared
 *       beforehand, plus one fast-append commit, into a new empty table (created and dropped untimed).
 * </ol>
 * Every Arrow allocator is closed at the end, which fails the run if any buffer leaked.
 *
 * <p>Run (from the repository root; arguments: runs of the fast cases, default 9, and of the 1M-row
 * upserts, default 3; each case also gets 2 untimed warm-up runs, the 1M-row upserts 1; about 2
 * minutes in all on 2 cores):
 * <pre>
 * mvn -B -q -o -pl benchmarks -am package -DskipTests
 * java $(grep -o '&lt;java17.opens&gt;[^&lt;]*' pom.xml | sed 's/&lt;java17.opens&gt;//') -Xmx8g \
 *     -cp "benchmarks/target/classes:$(cat benchmarks/target/cp.txt)" dev.transforms.benchmarks.SingleNodeBenchmark
 * </pre>
 * ({@code benchmarks/target/cp.txt} comes from {@code mvn -B -q -o -pl benchmarks -am package -DskipTests
 * org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.outputFile=target/cp.txt}.)
 */
public final class SingleNodeBenchmark {

  static final int ROWS = 1_000_000;
  static final int UPSERT_ROWS = 10_000;
  static final String DELETE_FILTER = "id >= 495000 and id < 505000";
  static final long DELETED_ROWS = 10_000;

  static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "a", Types.DoubleType.get()),
      Types.NestedField.optional(3, "s", Types.StringType.get()));

  /** One measured case: untimed preparation, the timed action, an untimed check of its result. */
  private record Case(String name, String target, Runnable before, Callable<?> action, Runnable after) {}

  /** One printed row. */
  private record Result(String name, double[] sorted, String target, Double targetMillis) {}

  private SingleNodeBenchmark() {}

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 9;
    int slowRuns = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    long started = System.nanoTime();
    Path dir = Files.createTempDirectory("transforms-single-node-bench");
    TransformsConfig config = TransformsConfig.embedded(dir.resolve("warehouse"));
    List<Result> results = new ArrayList<>();
    Map<String, Double> medians = new LinkedHashMap<>();
    BufferAllocator root = newAllocator();
    SparkSession parent = null;
    Throwable failed = null;
    try (Catalogs catalogs = new Catalogs(config)) {
      Catalog catalog = catalogs.catalog(TransformsConfig.DEFAULT_CATALOG);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench"));

      // The table data, written once; every measured table appends the same data file.
      BufferAllocator baseMemory = root.newChildAllocator("base rows", 0, Long.MAX_VALUE);
      VectorSchemaRoot baseRows = rows(baseMemory, range(0, ROWS, 1), 0);
      Table seed = create(catalog, "seed", 2, "copy-on-write");
      List<DataFile> files = ArrowTableWriter.writeDataFiles(seed, baseRows);
      Harness.appendFiles(seed, files);
      Table cowV2 = copy(catalog, "cow_v2", 2, "copy-on-write", files);
      Table morV2 = copy(catalog, "mor_v2", 2, "merge-on-read", files);
      Table morV3 = copy(catalog, "mor_v3", 3, "merge-on-read", files);
      long cowV2Base = cowV2.currentSnapshot().snapshotId();
      long morV2Base = morV2.currentSnapshot().snapshotId();
      long morV3Base = morV3.currentSnapshot().snapshotId();
      System.err.printf("table written: %d rows in %d file(s), %.1f MB%n", ROWS, files.size(),
          files.stream().mapToLong(DataFile::fileSizeInBytes).sum() / 1e6);

      parent = SparkSessions.builder(config).master("local[2]")
          .config("spark.sql.shuffle.partitions", "2").getOrCreate();
      parent.sparkContext().setLogLevel("WARN");
      SparkSession spark = SparkSessions.forBuild(parent, config);

      // 1 and 2: upsert 10k into 1M, RowEdits and Spark MERGE, alternating.
      long[] upsertIds = new long[UPSERT_ROWS];
      for (int i = 0; i < UPSERT_ROWS / 2; i++) {
        upsertIds[i] = i * 200L;
        upsertIds[UPSERT_ROWS / 2 + i] = ROWS + i;
      }
      BufferAllocator upsertMemory = root.newChildAllocator("upsert sources", 0, Long.MAX_VALUE);
      VectorSchemaRoot upsert10k = rows(upsertMemory, upsertIds, 1);
      List<Row> sparkRows = new ArrayList<>(UPSERT_ROWS);
      for (long id : upsertIds) {
        sparkRows.add(RowFactory.create(id, a(id, 1), s(id, 1)));
      }
      StructType sparkSchema = new StructType()
          .add("id", DataTypes.LongType, false)
          .add("a", DataTypes.DoubleType, true)
          .add("s", DataTypes.StringType, true);
      spark.createDataFrame(sparkRows, sparkSchema).createOrReplaceTempView("upsert_10k");
      long live10k = ROWS + UPSERT_ROWS / 2;
      List<Case> upserts = new ArrayList<>();
      upserts.add(rowEditsUpsert("upsert 10k into 1M, RowEdits, copy-on-write v2", cowV2, cowV2Base,
          upsert10k, UPSERT_ROWS / 2, live10k));
      upserts.add(rowEditsUpsert("upsert 10k into 1M, RowEdits, merge-on-read v2", morV2, morV2Base,
          upsert10k, UPSERT_ROWS / 2, live10k));
      upserts.add(rowEditsUpsert("upsert 10k into 1M, RowEdits, merge-on-read v3", morV3, morV3Base,
          upsert10k, UPSERT_ROWS / 2, live10k));
      upserts.add(sparkMerge("upsert 10k into 1M, Spark MERGE, copy-on-write v2", spark, cowV2, cowV2Base, live10k));
      upserts.add(sparkMerge("upsert 10k into 1M, Spark MERGE, merge-on-read v2", spark, morV2, morV2Base, live10k));
      upserts.add(sparkMerge("upsert 10k into 1M, Spark MERGE, merge-on-read v3", spark, morV3, morV3Base, live10k));
      measure(2, runs, upserts, results, medians);

      // 3: upsert 1M into 1M, every row changed.
      try (VectorSchemaRoot upsert1m = rows(upsertMemory, range(0, ROWS, 1), 1)) {
        List<Case> big = new ArrayList<>();
        big.add(rowEditsUpsert("upsert 1M into 1M, RowEdits, copy-on-write v2", cowV2, cowV2Base,
            upsert1m, ROWS, ROWS));
        big.add(rowEditsUpsert("upsert 1M into 1M, RowEdits, merge-on-read v2", morV2, morV2Base,
            upsert1m, ROWS, ROWS));
        measure(1, slowRuns, big, results, medians);
      }
      upsert10k.close();
      upsertMemory.close();

      // 4: delete 1% (a contiguous id range).
      List<Case> deletes = new ArrayList<>();
      deletes.add(delete("delete 1%, RowEdits, copy-on-write v2", "1000", cowV2, cowV2Base));
      deletes.add(delete("delete 1%, RowEdits, merge-on-read v2 (pos. deletes)", "400", morV2, morV2Base));
      deletes.add(delete("delete 1%, RowEdits, merge-on-read v3 (deletion vec)", "400", morV3, morV3Base));
      measure(2, runs, deletes, results, medians);

      // 5: arrow() of 1M rows; the merge-on-read tables keep one delete of 1% from here on.
      for (Table table : List.of(morV2, morV3)) {
        reset(table, table == morV2 ? morV2Base : morV3Base);
        check(RowEdits.on(table).delete(DELETE_FILTER) == DELETED_ROWS, "delete before the reads");
      }
      BufferAllocator readMemory = root.newChildAllocator("reads", 0, Long.MAX_VALUE);
      List<Case> reads = new ArrayList<>();
      reads.add(read("arrow() of 1M rows, no delete files", cowV2, cowV2Base, readMemory, ROWS));
      reads.add(read("arrow() of 1M rows, v2 position deletes of 1%", morV2, null, readMemory,
          ROWS - DELETED_ROWS));
      reads.add(read("arrow() of 1M rows, v3 deletion vector of 1%", morV3, null, readMemory,
          ROWS - DELETED_ROWS));
      measure(2, runs, reads, results, medians);
      check(readMemory.getAllocatedMemory() == 0, "every read root closed");
      readMemory.close();

      // 6: writeTable of 1M rows from a prepared Arrow root.
      int[] tableNumber = {0};
      Table[] target = new Table[1];
      Case write = new Case("writeTable of 1M rows (write files + append)", "1000",
          () -> target[0] = create(catalog, "write_" + tableNumber[0]++, 2, "copy-on-write"),
          () -> {
            List<DataFile> written = ArrowTableWriter.writeDataFiles(target[0], baseRows);
            Harness.appendFiles(target[0], written);
            return written;
          },
          () -> {
            check(target[0].currentSnapshot() != null
                && "1000000".equals(target[0].currentSnapshot().summary().get("total-records")), "rows written");
            catalog.dropTable(TableIdentifier.of("bench", target[0].name().replaceAll(".*\\.", "")), true);
          });
      measure(2, runs, List.of(write), results, medians);
      baseRows.close();
      baseMemory.close();

      print(results, medians);
    } catch (Throwable failure) {
      // A failed case leaves buffers open; report the failure, not the leak it causes.
      failed = failure;
      throw failure;
    } finally {
      if (parent != null) {
        parent.stop();
      }
      Harness.deleteRecursively(dir);
      long outstanding = root.getAllocatedMemory();
      if (failed == null) {
        root.close(); // throws, naming the leaking allocator, if any buffer is still open
        System.out.printf("Arrow memory outstanding at the end: %d bytes; every allocator closed%n", outstanding);
      }
    }
    System.out.printf("whole harness: %.0f s%n", (System.nanoTime() - started) / 1e9);
  }

  // ---------------------------------------------------------------------------------------------
  // Cases

  private static Case rowEditsUpsert(String name, Table table, long base, VectorSchemaRoot source,
      long updated, long liveAfter) {
    long inserted = source.getRowCount() - updated;
    String target = source.getRowCount() == ROWS ? "10000" : "500";
    return new Case(name, target, () -> reset(table, base),
        () -> {
          UpsertResult result = RowEdits.on(table).upsert(source, List.of("id"));
          check(result.rowsUpdated() == updated && result.rowsInserted() == inserted, "upsert counts: " + result);
          return result;
        },
        () -> checkLiveRows(table, liveAfter));
  }

  private static Case sparkMerge(String name, SparkSession spark, Table table, long base, long liveAfter) {
    String identifier = "`local`.`bench`.`" + table.name().replaceAll(".*\\.", "") + "`";
    String merge = "MERGE INTO " + identifier + " t USING upsert_10k src ON t.id = src.id"
        + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *";
    return new Case(name, "(baseline)", () -> reset(table, base), () -> spark.sql(merge),
        () -> checkLiveRows(table, liveAfter));
  }

  private static Case delete(String name, String target, Table table, long base) {
    return new Case(name, target, () -> reset(table, base),
        () -> {
          long deleted = RowEdits.on(table).delete(DELETE_FILTER);
          check(deleted == DELETED_ROWS, "rows deleted: " + deleted);
          return deleted;
        },
        () -> checkLiveRows(table, ROWS - DELETED_ROWS));
  }

  private static Case read(String name, Table table, Long base, BufferAllocator allocator, long rows) {
    VectorSchemaRoot[] read = new VectorSchemaRoot[1];
    return new Case(name, "400",
        () -> {
          if (base != null) {
            reset(table, base);
          } else {
            table.refresh();
            System.gc();
          }
        },
        () -> read[0] = ArrowTableReader.of(table).readAll(allocator),
        () -> {
          try (VectorSchemaRoot result = read[0]) {
            check(result.getRowCount() == rows, "rows read: " + result.getRowCount());
          }
        });
  }

  // ---------------------------------------------------------------------------------------------
  // Measuring and printing

  /**
   * Runs the cases in turn, run by run, so that each run of every case sees the same machine; only
   * the action is timed, with {@link Harness#measure}.
   */
  private static void measure(int warmup, int runs, List<Case> cases, List<Result> results,
      Map<String, Double> medians) throws Exception {
    double[][] millis = new double[cases.size()][runs];
    for (int run = -warmup; run < runs; run++) {
      for (int c = 0; c < cases.size(); c++) {
        Case current = cases.get(c);
        current.before().run();
        double elapsed = Harness.measure(0, 1, current.action())[0];
        current.after().run();
        if (run >= 0) {
          millis[c][run] = elapsed;
        }
      }
    }
    for (int c = 0; c < cases.size(); c++) {
      Case current = cases.get(c);
      double[] sorted = millis[c];
      Arrays.sort(sorted);
      Double targetMillis = current.target().startsWith("(") ? null : Double.valueOf(current.target());
      results.add(new Result(current.name(), sorted, current.target(), targetMillis));
      medians.put(current.name(), Harness.median(sorted));
      System.err.printf("done: %-52s median %10.2f ms%n", current.name(), Harness.median(sorted));
    }
  }

  private static void print(List<Result> results, Map<String, Double> medians) {
    System.out.println();
    System.out.printf("%s %10s  %s%n", captured(Harness::header), "target ms", "median vs target");
    for (Result result : results) {
      String verdict = result.targetMillis() == null ? ""
          : Harness.median(result.sorted()) <= result.targetMillis() ? "met" : "MISSED";
      System.out.printf("%s %10s  %s%n", captured(() -> Harness.row(result.name(), result.sorted())),
          result.target(), verdict);
    }
    System.out.println();
    for (String mode : List.of("copy-on-write v2", "merge-on-read v2", "merge-on-read v3")) {
      double rowEdits = medians.get("upsert 10k into 1M, RowEdits, " + mode);
      double spark = medians.get("upsert 10k into 1M, Spark MERGE, " + mode);
      double ratio = spark / rowEdits;
      System.out.printf("upsert 10k, %s: Spark MERGE / RowEdits = %.1fx (target >= 10x: %s)%n",
          mode, ratio, ratio >= 10 ? "met" : "MISSED");
    }
  }

  /** What a {@link Harness} method prints, without the line break, so that target columns can follow. */
  private static String captured(Runnable print) {
    PrintStream out = System.out;
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
    try {
      print.run();
    } finally {
      System.setOut(out);
    }
    return buffer.toString(StandardCharsets.UTF_8).stripTrailing();
  }

  // ---------------------------------------------------------------------------------------------
  // Tables and data

  private static Table create(Catalog catalog, String name, int formatVersion, String mode) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(TableProperties.FORMAT_VERSION, Integer.toString(formatVersion));
    properties.put(TableProperties.MERGE_MODE, mode);
    properties.put(TableProperties.UPDATE_MODE, mode);
    properties.put(TableProperties.DELETE_MODE, mode);
    return catalog.buildTable(TableIdentifier.of("bench", name), SCHEMA).withProperties(properties).create();
  }

  private static Table copy(Catalog catalog, String name, int formatVersion, String mode, List<DataFile> files) {
    Table table = create(catalog, name, formatVersion, mode);
    Harness.appendFiles(table, files);
    return table;
  }

  /** Brings a table back to its base snapshot and collects garbage; not timed. */
  private static void reset(Table table, long base) {
    Harness.rollBack(table, base);
    System.gc();
  }

  /** Live rows from the snapshot summary: records minus position deletes (deletion vectors count there). */
  private static void checkLiveRows(Table table, long expected) {
    table.refresh();
    Snapshot current = table.currentSnapshot();
    Map<String, String> summary = current.summary();
    long live = Long.parseLong(summary.getOrDefault("total-records", "0"))
        - Long.parseLong(summary.getOrDefault("total-position-deletes", "0"))
        - Long.parseLong(summary.getOrDefault("total-equality-deletes", "0"));
    check(live == expected, "live rows of " + table.name() + ": " + live + ", expected " + expected
        + " (summary " + summary + ")");
  }

  private static long[] range(long from, long to, long step) {
    long[] ids = new long[(int) ((to - from + step - 1) / step)];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = from + i * step;
    }
    return ids;
  }

  /** Rows with the given ids; version 0 is the table's data, version 1 changes every value. */
  private static VectorSchemaRoot rows(BufferAllocator allocator, long[] ids, int version) {
    VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(SCHEMA), allocator);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    Float8Vector a = (Float8Vector) root.getVector("a");
    VarCharVector s = (VarCharVector) root.getVector("s");
    for (int i = 0; i < ids.length; i++) {
      id.setSafe(i, ids[i]);
      a.setSafe(i, a(ids[i], version));
      s.setSafe(i, s(ids[i], version).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(ids.length);
    return root;
  }

  static double a(long id, int version) {
    return id * 0.25 + version * 1.5;
  }

  /** A string of 2 to 14 characters, about one distinct value per id; another for each version. */
  static String s(long id, int version) {
    long h = mix(id * 31 + version);
    String text = Long.toString(h >>> 1, 36);
    return text.substring(0, Math.min(text.length(), 2 + (int) ((h >>> 58) % 13)));
  }

  private static long mix(long x) {
    x = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
    x = (x ^ (x >>> 27)) * 0x94d049bb133111ebL;
    return x ^ (x >>> 31);
  }

  /** A root allocator on Arrow's Unsafe manager, as the single-node engine makes them (see ArrowMemory). */
  private static BufferAllocator newAllocator() {
    String property = "arrow.allocation.manager.type";
    String previous = System.getProperty(property);
    if (previous == null) {
      System.setProperty(property, "Unsafe");
    }
    try {
      return new RootAllocator(RootAllocator.configBuilder()
          .allocationManagerFactory(UnsafeAllocationManager.FACTORY).build());
    } finally {
      if (previous == null) {
        System.clearProperty(property);
      }
    }
  }

  private static void check(boolean condition, String what) {
    if (!condition) {
      throw new IllegalStateException("Check failed: " + what);
    }
  }
}
