package dev.transforms.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.arrow.ArrowTableWriter;
import dev.transforms.singlenode.edits.OverwriteResult;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.singlenode.edits.UpsertResult;
import dev.transforms.singlenode.internal.parquet.PageCopyRewrite;
import dev.transforms.singlenode.internal.parquet.PagedColumnsRead;
import dev.transforms.spark.SparkSessions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.unsafe.UnsafeAllocationManager;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
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
import org.apache.spark.sql.SparkSession;

/**
 * The single-node SDK against PyIceberg (and, for the 10k upsert, Spark {@code MERGE INTO}) on the same
 * tables, in one run: issue 15's side-by-side table. Started by {@code benchmarks/pyiceberg/run}, which
 * installs the pinned PyIceberg into a virtual environment and passes its Python.
 *
 * <p>One long-lived Python process ({@code benchmarks/pyiceberg/worker.py}) opens the same embedded SQLite
 * catalog and runs one PyIceberg call per command sent on its standard input, timing the call itself; the
 * SDK's calls are timed here the same way (table loaded and garbage collected before the clock starts, on
 * both sides). Cases of one operation alternate run by run (PyIceberg, SDK copy-on-write, SDK merge-on-read
 * v2, Spark), each run starting one case later than the one before, so that they see the same machine and
 * none always follows the same other.
 *
 * <p>Two shapes, each 1M rows in one Parquet file written once by {@link ArrowTableWriter} into a seed table
 * and fast-appended into every measured table, so that all of them start from the same file:
 * <ul>
 *   <li>3 columns: {@code id long} (required), {@code name string} (2% null), {@code amount decimal(12,2)}
 *       (5% null);
 *   <li>7 columns: those three and {@code status string} (five values, 1% null), {@code quantity int},
 *       {@code order_date date} (1% null), {@code score double} (10% null).
 * </ul>
 * Tables (format v2): {@code py_cow_N} for PyIceberg (which always writes copy-on-write), {@code sdk_cow_N}
 * and {@code sdk_mor_N} (copy-on-write and merge-on-read, {@code write.*.mode}); Spark's MERGE runs on
 * {@code sdk_mor_N}. The last column, {@code sdk_cow_native_off_N}, is a second copy-on-write table edited
 * and read with the engine's page decoder and page copy switched off
 * ({@code -Dtransforms.arrow-page-decoder=false} and {@code -Dtransforms.page-copy=false} for the timed
 * call): the engine's own reader and writer, so the run shows what the native paths give side by side.
 * Before every run the table is
 * rolled back to its base snapshot and the files the last run wrote are deleted (not timed); after it the
 * live row count is checked against the snapshot summary.
 *
 * <p>Operations (sources are Arrow data prepared beforehand; PyIceberg gets the same rows through an Arrow
 * IPC file read once): upsert 10k (5k updates spread over the table, 5k inserts), upsert 100k (50k and 50k),
 * upsert 1M into 1M (every row changed), delete 1% by the filter {@code id >= 495000 and id < 505000},
 * overwrite of the same 1% with 10k new rows by that filter, {@code arrow()} of the whole table
 * ({@code scan().to_arrow()}), {@code arrow()} after that 1% delete (copy-on-write and merge-on-read, the
 * delete untimed), and {@code writeTable} of 1M rows into a new empty table ({@code append}).
 *
 * <p>Arguments: {@code --python PATH} (required), {@code --worker PATH} (default
 * {@code benchmarks/pyiceberg/worker.py}), {@code --runs N} (default 5; each operation also gets warm-up
 * runs: 2, none for the every-row upsert, which comes last, when both sides are warm, and
 * takes PyIceberg most of a minute at 1M rows), {@code --shapes 3,7}, {@code --operations} (a comma-separated
 * subset of {@link #OPERATIONS}: {@code upsert-small, upsert-medium, delete, overwrite, arrow,
 * arrow-deleted, write, every-row}), {@code --no-spark}, {@code --quick} (100k-row tables, 2 runs after 1 warm-up: a smoke run),
 * {@code --no-jvm-warmup} (leaves out the round of every operation on 100k-row tables that otherwise runs
 * before the first measurement, see {@link #warmUp}),
 * {@code --no-every-row} (leaves out the every-row upsert, for profiling the others),
 * {@code --pyiceberg-base} (PyIceberg writes the base file, as a team moving from Python has it: no page
 * index, pyarrow's pages and row groups), {@code --rename} (column {@code name} renamed in every measured
 * table before the runs; use with {@code --operations arrow}).
 */
public final class PyIcebergBenchmark {

  /** Whether PyIceberg writes the base file ({@code --pyiceberg-base}) instead of the SDK's Java writer. */
  private static boolean pyIcebergBase;

  /**
   * Whether column {@code name} is renamed to {@code label} in every measured table before the runs
   * ({@code --rename}); only {@code arrow} is measured then, since the sources still say {@code name}.
   */
  private static boolean renamed;

  static final String PY = "PyIceberg";
  static final String COW = "SDK copy-on-write";
  static final String MOR = "SDK merge-on-read v2";
  static final String SPARK = "Spark MERGE merge-on-read v2";
  static final String COW_DUCKDB = "SDK copy-on-write, page decoder and page copy off";
  static final List<String> ENGINES = List.of(PY, COW, MOR, SPARK, COW_DUCKDB);

  /** The operations, as {@code --operations} names them, in the order they run. */
  static final List<String> OPERATIONS =
      List.of("upsert-small", "upsert-medium", "delete", "overwrite", "arrow", "arrow-deleted", "write", "every-row");

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Operations that failed, printed at the end; the run then exits with status 1. */
  private static final List<String> FAILURES = new ArrayList<>();

  /** What one timed call took, in milliseconds; PyIceberg's calls are timed in the worker. */
  @FunctionalInterface
  interface Timed {
    double run() throws Exception;
  }

  /** One measured case: untimed preparation, the timed call, an untimed check of its result. */
  record Case(String engine, Runnable before, Timed action, Runnable after) {}

  /** One column of a generated shape: its Iceberg field and its value for an id and a version. */
  record Column(Types.NestedField field, ValueOf value) {}

  /** The value of a column for a row id and a version (0: the table, 1: changed rows); null for null. */
  @FunctionalInterface
  interface ValueOf {
    Object of(long id, int version);
  }

  /** A table shape: its columns, in order. */
  record Shape(String name, List<Column> columns) {
    Schema schema() {
      return new Schema(columns.stream().map(Column::field).toList());
    }
  }

  private PyIcebergBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = options(args);
    String python = options.get("python");
    if (python == null) {
      throw new IllegalArgumentException("--python PATH is required: the virtual environment's Python with"
          + " PyIceberg (benchmarks/pyiceberg/run makes it)");
    }
    boolean quick = options.containsKey("quick");
    int rows = quick ? 100_000 : 1_000_000;
    int runs = Integer.parseInt(options.getOrDefault("runs", quick ? "2" : "5"));
    int warmup = quick ? 1 : 2;
    int slowWarmup = 0; // the every-row upsert: PyIceberg takes most of a minute per run at 1M rows
    boolean withSpark = !options.containsKey("no-spark");
    pyIcebergBase = options.containsKey("pyiceberg-base");
    renamed = options.containsKey("rename");
    boolean jvmWarmup = !quick && !options.containsKey("no-jvm-warmup");
    Set<String> operations = new LinkedHashSet<>();
    for (String operation : options.getOrDefault("operations", String.join(",", OPERATIONS)).split(",")) {
      if (!OPERATIONS.contains(operation.trim())) {
        throw new IllegalArgumentException("--operations: unknown operation '" + operation + "' (known: "
            + String.join(", ", OPERATIONS) + ")");
      }
      operations.add(operation.trim());
    }
    if (options.containsKey("no-every-row")) {
      operations.remove("every-row");
    }
    String worker = options.getOrDefault("worker", "benchmarks/pyiceberg/worker.py");
    List<Shape> shapes = new ArrayList<>();
    for (String shape : options.getOrDefault("shapes", "3,7").split(",")) {
      shapes.add(switch (shape.trim()) {
        case "3" -> threeColumns();
        case "7" -> sevenColumns();
        default -> throw new IllegalArgumentException("--shapes: unknown shape '" + shape + "' (3 or 7)");
      });
    }

    if (!Files.isRegularFile(Path.of(worker))) {
      throw new IllegalArgumentException("--worker: no such file " + worker + " (run from the repository root)");
    }
    long started = System.nanoTime();
    Path dir = Files.createTempDirectory("transforms-pyiceberg-bench");
    Runtime.getRuntime().addShutdownHook(new Thread(() -> { // also when the run is stopped
      if (Files.exists(dir)) {
        Harness.deleteRecursively(dir);
      }
    }));
    Path warehouse = dir.resolve("warehouse");
    TransformsConfig config = TransformsConfig.embedded(warehouse);
    BufferAllocator root = newAllocator();
    SparkSession parent = null;
    StringBuilder report = new StringBuilder();
    try (Catalogs catalogs = new Catalogs(config);
        LineWorker py = new LineWorker("PyIceberg", List.of(python, worker))) {
      Catalog catalog = catalogs.catalog(TransformsConfig.DEFAULT_CATALOG);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench"));
      JsonNode versions = py.call(command("open").put("warehouse", warehouse.toString())
          .put("catalog", TransformsConfig.DEFAULT_CATALOG));
      String header = String.format(Locale.ROOT, "PyIceberg %s, pyarrow %s, Python %s; Java %s;"
              + " Spark %s (Scala %s); %d rows; %d runs after %d warm-up (the 1M-row upsert: %d);"
              + " load average at the start %s",
          versions.get("pyiceberg").asText(), versions.get("pyarrow").asText(), versions.get("python").asText(),
          System.getProperty("java.version"), org.apache.spark.package$.MODULE$.SPARK_VERSION(),
          scala.util.Properties.versionNumberString(), rows, runs, warmup, slowWarmup, loadAverage());
      System.err.println(header);
      report.append(header).append('\n');
      if (withSpark) {
        parent = SparkSessions.builder(config).master("local[2]")
            .config("spark.sql.shuffle.partitions", "2").config("spark.ui.enabled", "false").getOrCreate();
        parent.sparkContext().setLogLevel("WARN");
      }
      SparkSession spark = parent == null ? null : SparkSessions.forBuild(parent, config);
      if (jvmWarmup) {
        report.append(warmUp(shapes, operations, catalog, py, spark, root, dir)).append('\n');
      }
      for (Shape shape : shapes) {
        report.append(runShape(shape, rows, runs, warmup, slowWarmup, operations, catalog, py, spark, root, dir));
      }
    } finally {
      if (parent != null) {
        parent.stop();
      }
      Harness.deleteRecursively(dir);
    }
    root.close(); // throws, naming the leaking allocator, if any buffer is still open
    System.out.println();
    System.out.print(report);
    System.out.printf(Locale.ROOT, "load average at the end: %s; whole harness: %.0f s%n", loadAverage(),
        (System.nanoTime() - started) / 1e9);
    if (!FAILURES.isEmpty()) {
      FAILURES.forEach(failure -> System.out.println("FAILED: " + failure));
      System.exit(1);
    }
  }

  /**
   * Runs the measured operations once over on small tables ({@value #WARMUP_ROWS} rows of each shape,
   * results dropped), so that the JIT compilers of the JVM that runs the SDK and Spark have compiled
   * the code every operation goes through before the first timed run: two warm-up runs per operation
   * are not enough for the operations measured first, during which the compilers were still busy
   * (about 70 ms of compiler time per 10k upsert on two cores, even after 75 upserts).
   * PyIceberg's worker runs the same operations, so neither side starts cold.
   */
  private static String warmUp(List<Shape> shapes, Set<String> operations, Catalog catalog, LineWorker py,
      SparkSession spark, BufferAllocator root, Path dir) throws Exception {
    long started = System.nanoTime();
    Set<String> warmOperations = new LinkedHashSet<>(operations);
    warmOperations.remove("every-row"); // PyIceberg's every-row upsert is minutes even on small tables
    for (Shape shape : shapes) {
      runShape(new Shape("warm" + shape.name(), shape.columns()), WARMUP_ROWS, WARMUP_RUNS, 1, 0, warmOperations,
          catalog, py, spark, root, dir);
    }
    String line = String.format(Locale.ROOT, "JVM warm-up: every operation but the every-row upsert, %d runs"
        + " after 1 on %,d-row tables of each shape, results dropped: %.0f s", WARMUP_RUNS, WARMUP_ROWS,
        (System.nanoTime() - started) / 1e9);
    System.err.println(line);
    return line;
  }

  /** Rows of the tables of the {@link #warmUp JVM warm-up}. */
  static final int WARMUP_ROWS = 100_000;

  /** Runs of each operation in the {@link #warmUp JVM warm-up}, after one. */
  static final int WARMUP_RUNS = 4;

  // ---------------------------------------------------------------------------------------------
  // One shape

  private static String runShape(Shape shape, int rows, int runs, int warmup, int slowWarmup, Set<String> operations,
      Catalog catalog, LineWorker py, SparkSession spark, BufferAllocator root, Path dir) throws Exception {
    String suffix = "_" + shape.name();
    Schema schema = shape.schema();
    BufferAllocator memory = root.newChildAllocator("shape " + shape.name(), 0, Long.MAX_VALUE);
    Map<String, Map<String, double[]>> results = new LinkedHashMap<>();
    String tableLine;
    try {
      VectorSchemaRoot base = rows(memory, shape, range(0, rows), 0);
      Table seed = create(catalog, "seed" + suffix, schema, "copy-on-write");
      List<DataFile> files;
      if (pyIcebergBase) { // the base file as a team moving from Python has it: pyarrow's, no page index
        sendSource(py, dir, "seed" + suffix, base);
        py.call(command("append").put("table", "bench." + name(seed)).put("source", "seed" + suffix));
        seed.refresh();
        files = new ArrayList<>();
        try (var tasks = seed.newScan().planFiles()) {
          tasks.forEach(task -> files.add(task.file()));
        }
      } else {
        files = writeOneFile(seed, base);
        Harness.appendFiles(seed, files);
      }
      tableLine = String.format(Locale.ROOT, "%d columns: %,d rows in %d Parquet file(s) written by %s, %.1f MB%s",
          schema.columns().size(), rows, files.size(), pyIcebergBase ? "PyIceberg" : "the SDK's Java writer",
          files.stream().mapToLong(DataFile::fileSizeInBytes).sum() / 1e6,
          renamed ? ", column name renamed to label" : "");
      System.err.println(tableLine);
      Table pyCow = copy(catalog, "py_cow" + suffix, schema, "copy-on-write", files);
      Table sdkCow = copy(catalog, "sdk_cow" + suffix, schema, "copy-on-write", files);
      Table sdkMor = copy(catalog, "sdk_mor" + suffix, schema, "merge-on-read", files);
      Table sdkCow3 = create(catalog, "sdk_cow_native_off" + suffix, schema, "copy-on-write", Map.of());
      Harness.appendFiles(sdkCow3, files);
      Map<Table, Long> bases = new LinkedHashMap<>();
      for (Table table : List.of(pyCow, sdkCow, sdkMor, sdkCow3)) {
        if (renamed) { // a schema change adds no snapshot: the base snapshot reads with the new name
          table.updateSchema().renameColumn("name", "label").commit();
        }
        bases.put(table, table.currentSnapshot().snapshotId());
      }

      // The sources, in Arrow here and, through IPC files, in the worker.
      int small = rows / 100;
      int medium = rows / 10;
      long deleteFrom = rows / 2 - rows / 200;
      long deleteTo = deleteFrom + rows / 100;
      String filter = "id >= " + deleteFrom + " and id < " + deleteTo;
      Map<String, VectorSchemaRoot> sources = new LinkedHashMap<>();
      sources.put("upsert_small", rows(memory, shape, upsertIds(rows, small), 1));
      sources.put("upsert_medium", rows(memory, shape, upsertIds(rows, medium), 1));
      sources.put("overwrite", rows(memory, shape, range(deleteFrom, deleteTo), 1));
      sources.put("base", base);
      for (Map.Entry<String, VectorSchemaRoot> source : sources.entrySet()) {
        sendSource(py, dir, source.getKey() + suffix, source.getValue());
      }

      String smallName = "upsert " + count(small) + " (" + count(small / 2) + " updates, " + count(small / 2)
          + " inserts)";
      List<Case> upsertSmall = new ArrayList<>(upsertCases(py, "upsert_small" + suffix, sources.get("upsert_small"),
          small / 2, rows, pyCow, sdkCow, sdkMor, sdkCow3, bases));
      if (spark != null && operations.contains("upsert-small")) {
        String view = "src_small" + suffix;
        Table sourceTable = create(catalog, view, schema, "copy-on-write");
        Harness.appendFiles(sourceTable, ArrowTableWriter.writeDataFiles(sourceTable, sources.get("upsert_small")));
        spark.table("`local`.`bench`.`" + view + "`").cache().createOrReplaceTempView(view);
        spark.sql("SELECT count(*) FROM " + view).collect();
        String merge = "MERGE INTO `local`.`bench`.`" + sdkMor.name().replaceAll(".*\\.", "") + "` t USING " + view
            + " src ON t.id = src.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *";
        long live = rows + small / 2;
        upsertSmall.add(new Case(SPARK, () -> reset(sdkMor, bases.get(sdkMor)),
            () -> Harness.time(() -> spark.sql(merge)), () -> checkLiveRows(sdkMor, live)));
      }
      if (operations.contains("upsert-small")) {
        measure(smallName, warmup, runs, upsertSmall, results);
      }

      if (operations.contains("upsert-medium")) {
        measure("upsert " + count(medium) + " (" + count(medium / 2) + " updates, " + count(medium / 2) + " inserts)",
            warmup, runs, upsertCases(py, "upsert_medium" + suffix, sources.get("upsert_medium"), medium / 2, rows,
                pyCow, sdkCow, sdkMor, sdkCow3, bases), results);
      }

      long deleted = deleteTo - deleteFrom;
      if (operations.contains("delete")) {
        measure("delete " + count(deleted) + " rows (1%) by filter", warmup, runs, List.of(
            new Case(PY, () -> reset(pyCow, bases.get(pyCow)),
                () -> py.timed(command("delete").put("table", "bench." + name(pyCow)).put("filter", filter)),
                () -> checkLiveRows(pyCow, rows - deleted)),
            sdkDelete(COW, sdkCow, bases.get(sdkCow), filter, deleted, rows),
            sdkDelete(MOR, sdkMor, bases.get(sdkMor), filter, deleted, rows),
            sdkDelete(COW_DUCKDB, sdkCow3, bases.get(sdkCow3), filter, deleted, rows)), results);
      }

      VectorSchemaRoot overwrite = sources.get("overwrite");
      if (operations.contains("overwrite")) {
        measure("overwrite 1% with filter (" + count(deleted) + " rows out, " + count(deleted) + " in)", warmup, runs,
            List.of(
                new Case(PY, () -> reset(pyCow, bases.get(pyCow)),
                    () -> py.timed(command("overwrite").put("table", "bench." + name(pyCow))
                        .put("source", "overwrite" + suffix).put("filter", filter)),
                    () -> checkLiveRows(pyCow, rows)),
                sdkOverwrite(COW, sdkCow, bases.get(sdkCow), overwrite, filter, deleted, rows),
                sdkOverwrite(MOR, sdkMor, bases.get(sdkMor), overwrite, filter, deleted, rows),
                sdkOverwrite(COW_DUCKDB, sdkCow3, bases.get(sdkCow3), overwrite, filter, deleted, rows)), results);
      }

      VectorSchemaRoot[] read = new VectorSchemaRoot[1];
      if (operations.contains("arrow")) {
        measure("arrow() of the whole table (scan().to_arrow())", warmup, runs, List.of(
            new Case(PY, () -> reset(pyCow, bases.get(pyCow)), () -> {
              JsonNode answer = py.call(command("scan").put("table", "bench." + name(pyCow)));
              check(answer.get("rows").asLong() == rows, "PyIceberg read " + answer.get("rows") + " rows");
              return answer.get("ms").asDouble();
            }, () -> { }),
            new Case(COW, () -> reset(sdkCow, bases.get(sdkCow)),
                () -> Harness.time(() -> read[0] = ArrowTableReader.of(sdkCow).readAll(memory)),
                () -> {
                  try (VectorSchemaRoot result = read[0]) {
                    check(result.getRowCount() == rows, "SDK read " + result.getRowCount() + " rows");
                  }
                }),
            new Case(COW_DUCKDB, () -> reset(sdkCow3, bases.get(sdkCow3)),
                () -> Harness.time(() -> read[0] = ArrowTableReader.of(sdkCow3).readAll(memory)),
                () -> {
                  try (VectorSchemaRoot result = read[0]) {
                    check(result.getRowCount() == rows, "SDK read " + result.getRowCount() + " rows");
                  }
                })), results);
      }

      if (operations.contains("arrow-deleted")) {
        List<Case> cases = new ArrayList<>();
        for (Table table : List.of(sdkCow, sdkMor)) {
          cases.add(new Case(table == sdkCow ? COW : MOR, () -> {
            reset(table, bases.get(table));
            check(RowEdits.on(table).delete(filter) == deleted, "SDK rows deleted before reading");
          }, () -> Harness.time(() -> read[0] = ArrowTableReader.of(table).readAll(memory)), () -> {
            try (VectorSchemaRoot result = read[0]) {
              check(result.getRowCount() == rows - deleted, "SDK read " + result.getRowCount() + " rows");
            }
          }));
        }
        measure("arrow() after deleting 1% by filter", warmup, runs, cases, results);
      }

      int[] number = {0};
      Table[] target = new Table[1];
      Runnable createTarget = () -> target[0] = create(catalog, "write" + suffix + "_" + number[0]++, schema,
          "copy-on-write", Map.of());
      Runnable dropTarget = () -> {
        target[0].refresh();
        check(target[0].currentSnapshot() != null
            && Long.toString(rows).equals(target[0].currentSnapshot().summary().get("total-records")),
            "rows written to " + target[0].name());
        catalog.dropTable(TableIdentifier.of("bench", name(target[0])), true);
      };
      if (operations.contains("write")) {
        measure("writeTable of " + count(rows) + " rows into a new table (append)", warmup, runs, List.of(
            new Case(PY, createTarget,
                () -> py.timed(command("append").put("table", "bench." + name(target[0]))
                    .put("source", "base" + suffix)),
                dropTarget),
            new Case(COW, createTarget, () -> Harness.time(() -> {
              List<DataFile> written = ArrowTableWriter.writeDataFiles(target[0], base);
              Harness.appendFiles(target[0], written);
            }), dropTarget)), results);
      }

      // Last and longest: every row of the table changed (left out with --no-every-row).
      if (operations.contains("every-row")) {
        try (VectorSchemaRoot all = rows(memory, shape, range(0, rows), 1)) {
          sendSource(py, dir, "upsert_all" + suffix, all);
          measure("upsert " + count(rows) + " into " + count(rows) + " (every row changed)", slowWarmup, runs,
              upsertCases(py, "upsert_all" + suffix, all, rows, rows, pyCow, sdkCow, sdkMor, sdkCow3, bases),
              results);
        }
      }
      for (VectorSchemaRoot source : sources.values()) {
        source.close();
      }
    } catch (Exception | Error failure) {
      try {
        memory.close();
      } catch (IllegalStateException leak) {
        failure.addSuppressed(leak); // the roots a failure left open; the failure is what matters
      }
      throw failure;
    }
    memory.close();
    return render(shape, tableLine, results);
  }

  private static List<Case> upsertCases(LineWorker py, String source, VectorSchemaRoot data, long updated, long rows,
      Table pyCow, Table sdkCow, Table sdkMor, Table sdkCow3, Map<Table, Long> bases) {
    long inserted = data.getRowCount() - updated;
    long live = rows + inserted;
    List<Case> cases = new ArrayList<>();
    cases.add(new Case(PY, () -> reset(pyCow, bases.get(pyCow)), () -> {
      JsonNode answer = py.call(command("upsert").put("table", "bench." + name(pyCow)).put("source", source));
      check(answer.get("updated").asLong() == updated && answer.get("inserted").asLong() == inserted,
          "PyIceberg upsert counts: " + answer);
      return answer.get("ms").asDouble();
    }, () -> checkLiveRows(pyCow, live)));
    for (Table table : List.of(sdkCow, sdkMor, sdkCow3)) {
      cases.add(new Case(table == sdkCow ? COW : table == sdkMor ? MOR : COW_DUCKDB, () -> reset(table, bases.get(table)), () -> {
        UpsertResult[] result = new UpsertResult[1];
        double ms = Harness.time(() -> result[0] = RowEdits.on(table).upsert(data, List.of("id")));
        check(result[0].rowsUpdated() == updated && result[0].rowsInserted() == inserted,
            "SDK upsert counts: " + result[0]);
        return ms;
      }, () -> checkLiveRows(table, live)));
    }
    return cases;
  }

  private static Case sdkDelete(String engine, Table table, long base, String filter, long deleted, long rows) {
    return new Case(engine, () -> reset(table, base), () -> {
      long[] count = new long[1];
      double ms = Harness.time(() -> count[0] = RowEdits.on(table).delete(filter));
      check(count[0] == deleted, "SDK rows deleted: " + count[0]);
      return ms;
    }, () -> checkLiveRows(table, rows - deleted));
  }

  private static Case sdkOverwrite(String engine, Table table, long base, VectorSchemaRoot data, String filter,
      long deleted, long rows) {
    return new Case(engine, () -> reset(table, base), () -> {
      OverwriteResult[] result = new OverwriteResult[1];
      double ms = Harness.time(() -> result[0] = RowEdits.on(table).overwrite(data, filter));
      check(result[0].rowsDeleted() == deleted && result[0].rowsAppended() == data.getRowCount(),
          "SDK overwrite counts: " + result[0]);
      return ms;
    }, () -> checkLiveRows(table, rows - deleted + data.getRowCount()));
  }

  // ---------------------------------------------------------------------------------------------
  // Measuring and printing

  /**
   * The case's timed call; for {@link #COW_DUCKDB}, with the engine's page decoder and page copy switched
   * off (the engine's own reader and writer).
   */
  private static double timed(Case current) throws Exception {
    List<String> off = switch (current.engine()) {
      case COW_DUCKDB -> List.of(PagedColumnsRead.SWITCH, PageCopyRewrite.SWITCH);
      default -> List.of();
    };
    off.forEach(property -> System.setProperty(property, "false"));
    try {
      return current.action().run();
    } finally {
      off.forEach(System::clearProperty);
    }
  }

  /**
   * Runs the cases in turn, run by run, so that each run of every case sees the same machine; each run
   * starts one case later than the run before, so that no case always follows the same one (a case
   * can leave work behind, a Python process freeing memory or a JVM compiling, that the next one pays).
   */
  private static void measure(String operation, int warmup, int runs, List<Case> cases,
      Map<String, Map<String, double[]>> results) {
    double[][] millis = new double[cases.size()][runs];
    try {
      for (int run = -warmup; run < runs; run++) {
        for (int turn = 0; turn < cases.size(); turn++) {
          int c = Math.floorMod(run + turn, cases.size());
          Case current = cases.get(c);
          current.before().run();
          double elapsed = timed(current);
          current.after().run();
          if (run >= 0) {
            millis[c][run] = elapsed;
          }
        }
      }
    } catch (Exception | AssertionError failure) {
      // one operation's failure is reported and the others still run
      System.err.println("FAILED: " + operation + ": " + failure);
      failure.printStackTrace();
      FAILURES.add(operation + ": " + failure);
      return;
    }
    Map<String, double[]> byEngine = new LinkedHashMap<>();
    StringBuilder line = new StringBuilder("done: " + operation + " (load " + loadAverage() + ")");
    for (int c = 0; c < cases.size(); c++) {
      Arrays.sort(millis[c]);
      byEngine.put(cases.get(c).engine(), millis[c]);
      line.append(String.format(Locale.ROOT, "; %s %.0f (p90 %.0f) ms", cases.get(c).engine(),
          Harness.median(millis[c]), Harness.percentile(millis[c], 0.9)));
    }
    results.put(operation, byEngine);
    System.err.println(line);
  }

  private static String render(Shape shape, String tableLine, Map<String, Map<String, double[]>> results) {
    StringBuilder out = new StringBuilder();
    out.append('\n').append(tableLine).append(" (").append(shape.schema().columns().stream()
        .map(field -> field.name() + " " + field.type()).reduce((a, b) -> a + ", " + b).orElse("")).append(")\n\n");
    out.append("| operation | ");
    ENGINES.forEach(engine -> out.append(engine).append(" median (p90) ms | "));
    out.append("PyIceberg / SDK copy-on-write | PyIceberg / SDK merge-on-read |\n|---|");
    ENGINES.forEach(engine -> out.append("---|"));
    out.append("---|---|\n");
    List<String> verdicts = new ArrayList<>();
    for (Map.Entry<String, Map<String, double[]>> operation : results.entrySet()) {
      Map<String, double[]> byEngine = operation.getValue();
      out.append("| ").append(operation.getKey()).append(" | ");
      for (String engine : ENGINES) {
        double[] sorted = byEngine.get(engine);
        out.append(sorted == null ? "-" : String.format(Locale.ROOT, "%.0f (%.0f)", Harness.median(sorted),
            Harness.percentile(sorted, 0.9))).append(" | ");
      }
      Double py = median(byEngine.get(PY));
      Double cow = median(byEngine.get(COW));
      Double mor = median(byEngine.get(MOR));
      out.append(ratio(py, cow)).append(" | ").append(ratio(py, mor)).append(" |\n");
      boolean edit = byEngine.containsKey(MOR);
      if (py != null && cow != null) {
        double need = edit ? 1.5 : 1.0;
        verdicts.add(String.format(Locale.ROOT, "%s: PyIceberg / SDK %s = %.2fx (target >= %.1fx: %s)",
            operation.getKey(), edit ? "copy-on-write" : "", py / cow, need, py / cow >= need ? "met" : "MISSED"));
      }
      if (byEngine.containsKey(SPARK) && mor != null) {
        double spark = median(byEngine.get(SPARK));
        verdicts.add(String.format(Locale.ROOT, "%s: Spark MERGE (merge-on-read) / SDK merge-on-read = %.1fx"
            + " (target >= 10x: %s); PyIceberg / SDK merge-on-read = %.1fx (target >= 5x: %s)", operation.getKey(),
            spark / mor, spark / mor >= 10 ? "met" : "MISSED", py / mor, py / mor >= 5 ? "met" : "MISSED"));
      }
    }
    out.append('\n');
    verdicts.forEach(verdict -> out.append(verdict).append('\n'));
    return out.toString();
  }

  private static Double median(double[] sorted) {
    return sorted == null ? null : Harness.median(sorted);
  }

  private static String ratio(Double numerator, Double denominator) {
    return numerator == null || denominator == null ? "-"
        : String.format(Locale.ROOT, "%.2fx", numerator / denominator);
  }

  private static String count(long n) {
    return n >= 1_000_000 && n % 1_000_000 == 0 ? n / 1_000_000 + "M"
        : n >= 1_000 && n % 1_000 == 0 ? n / 1_000 + "k" : Long.toString(n);
  }

  static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The Python worker

  private static ObjectNode command(String name) {
    return JSON.createObjectNode().put("cmd", name);
  }

  private static void sendSource(LineWorker py, Path dir, String name, VectorSchemaRoot data) throws IOException {
    Path file = dir.resolve(name + ".arrow");
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING);
        ArrowFileWriter writer = new ArrowFileWriter(data, null, channel)) {
      writer.start();
      writer.writeBatch();
      writer.end();
    }
    JsonNode answer = py.call(command("load").put("name", name).put("path", file.toString()));
    check(answer.get("rows").asLong() == data.getRowCount(), "rows the worker loaded from " + file);
    Files.delete(file);
  }

  // ---------------------------------------------------------------------------------------------
  // Tables and data

  static Shape threeColumns() {
    return new Shape("3", List.of(idColumn(), nameColumn(), amountColumn()));
  }

  static Shape sevenColumns() {
    String[] statuses = {"new", "paid", "shipped", "returned", "cancelled"};
    return new Shape("7", List.of(idColumn(), nameColumn(), amountColumn(),
        new Column(Types.NestedField.optional(4, "status", Types.StringType.get()),
            (id, v) -> nullOneIn(id, v, 4, 100) ? null : statuses[(int) ((mix(id * 5 + v) >>> 1) % statuses.length)]),
        new Column(Types.NestedField.optional(5, "quantity", Types.IntegerType.get()),
            (id, v) -> (int) ((mix(id * 7 + v) >>> 1) % 1000)),
        new Column(Types.NestedField.optional(6, "order_date", Types.DateType.get()),
            (id, v) -> nullOneIn(id, v, 6, 100) ? null : (int) (18_000 + (mix(id * 11 + v) >>> 1) % 3_000)),
        new Column(Types.NestedField.optional(7, "score", Types.DoubleType.get()),
            (id, v) -> nullOneIn(id, v, 7, 10) ? null : (mix(id * 13 + v) >>> 11) * 0x1.0p-53 * 100)));
  }

  private static Column idColumn() {
    return new Column(Types.NestedField.required(1, "id", Types.LongType.get()), (id, v) -> id);
  }

  /**
   * A string of 2 to 14 characters, about one distinct value per row; 2% null in the table, never null in
   * changed rows, so that a changed row differs from the table's (PyIceberg and the SDK both leave rows
   * that are equal out of the update count).
   */
  private static Column nameColumn() {
    return new Column(Types.NestedField.optional(2, "name", Types.StringType.get()), (id, v) -> {
      if (v == 0 && nullOneIn(id, v, 2, 50)) {
        return null;
      }
      long h = mix(id * 31 + v);
      String text = Long.toString(h >>> 1, 36);
      return text.substring(0, Math.min(text.length(), 2 + (int) ((h >>> 58) % 13)));
    });
  }

  /** A decimal(12,2) up to 100,000.00; 5% null. */
  private static Column amountColumn() {
    return new Column(Types.NestedField.optional(3, "amount", Types.DecimalType.of(12, 2)),
        (id, v) -> nullOneIn(id, v, 3, 20) ? null : BigDecimal.valueOf((mix(id * 17 + v) >>> 1) % 10_000_000, 2));
  }

  private static boolean nullOneIn(long id, int version, int column, int oneIn) {
    return (mix(id * 101 + column * 7919L + version) >>> 1) % oneIn == 0;
  }

  /** Rows with the given ids; version 0 is the table's data, version 1 changes every value but the id. */
  static VectorSchemaRoot rows(BufferAllocator allocator, Shape shape, long[] ids, int version) {
    VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(shape.schema()), allocator);
    root.allocateNew();
    for (int c = 0; c < shape.columns().size(); c++) {
      FieldVector vector = root.getVector(c);
      ValueOf value = shape.columns().get(c).value();
      for (int i = 0; i < ids.length; i++) {
        Object v = value.of(ids[i], version);
        if (v == null) {
          vector.setNull(i);
        } else if (vector instanceof BigIntVector vec) {
          vec.setSafe(i, (Long) v);
        } else if (vector instanceof IntVector vec) {
          vec.setSafe(i, (Integer) v);
        } else if (vector instanceof Float8Vector vec) {
          vec.setSafe(i, (Double) v);
        } else if (vector instanceof DecimalVector vec) {
          vec.setSafe(i, (BigDecimal) v);
        } else if (vector instanceof DateDayVector vec) {
          vec.setSafe(i, (Integer) v);
        } else if (vector instanceof VarCharVector vec) {
          vec.setSafe(i, ((String) v).getBytes(StandardCharsets.UTF_8));
        } else {
          throw new IllegalStateException("no generator for " + vector.getClass().getSimpleName());
        }
      }
    }
    root.setRowCount(ids.length);
    return root;
  }

  static long[] range(long from, long to) {
    long[] ids = new long[(int) (to - from)];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = from + i;
    }
    return ids;
  }

  /** Half existing ids spread evenly over the table, half new ids after it. */
  static long[] upsertIds(int rows, int size) {
    long[] ids = new long[size];
    int half = size / 2;
    long step = rows / half;
    for (int i = 0; i < half; i++) {
      ids[i] = i * step;
      ids[half + i] = rows + i;
    }
    return ids;
  }

  private static long mix(long x) {
    x = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
    x = (x ^ (x >>> 27)) * 0x94d049bb133111ebL;
    return x ^ (x >>> 31);
  }

  private static String name(Table table) {
    return table.name().replaceAll(".*\\.", "");
  }


  static Table create(Catalog catalog, String name, Schema schema, String mode) {
    return create(catalog, name, schema, mode, Map.of());
  }

  private static Table create(Catalog catalog, String name, Schema schema, String mode, Map<String, String> extra) {
    Map<String, String> properties = new LinkedHashMap<>(extra);
    properties.put(TableProperties.FORMAT_VERSION, "2");
    properties.put(TableProperties.MERGE_MODE, mode);
    properties.put(TableProperties.UPDATE_MODE, mode);
    properties.put(TableProperties.DELETE_MODE, mode);
    return catalog.buildTable(TableIdentifier.of("bench", name), schema).withProperties(properties).create();
  }

  private static Table copy(Catalog catalog, String name, Schema schema, String mode, List<DataFile> files) {
    Table table = create(catalog, name, schema, mode);
    Harness.appendFiles(table, files);
    return table;
  }

  /**
   * Writes the rows into one file with Iceberg's Java writer (as before DuckDB wrote files; DuckDB makes
   * a file of each large root): in slices of fewer rows than ArrowTableWriter writes on two threads into
   * two files, to one writer.
   */
  static List<DataFile> writeOneFile(Table table, VectorSchemaRoot rows) {
    int slice = 250_000;
    try (ArrowTableWriter writer = ArrowTableWriter.builder(table).duckDbParquet(false).build()) {
      for (int from = 0; from < rows.getRowCount(); from += slice) {
        try (VectorSchemaRoot part = rows.slice(from, Math.min(slice, rows.getRowCount() - from))) {
          writer.write(part);
        }
      }
      List<DataFile> files = writer.complete();
      check(files.size() == 1, "the table's rows in one file, not " + files.size());
      return files;
    }
  }

  /**
   * Brings a table back to its base snapshot, deletes the data and delete files the runs since wrote (the
   * base snapshot's file lives in the seed table's folder), and collects garbage; not timed.
   */
  private static void reset(Table table, long base) {
    Harness.rollBack(table, base);
    Path data = Path.of(URI.create(table.location().startsWith("file:") ? table.location()
        : "file:" + table.location())).resolve("data");
    if (Files.isDirectory(data)) {
      try (Stream<Path> written = Files.walk(data)) {
        written.filter(Files::isRegularFile).forEach(file -> file.toFile().delete());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    System.gc();
  }

  /** Live rows from the snapshot summary: records minus position and equality deletes. */
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

  static BufferAllocator newAllocator() {
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

  private static Map<String, String> options(String[] args) {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--quick", "--no-spark", "--no-every-row", "--no-jvm-warmup", "--pyiceberg-base", "--rename" ->
            options.put(arg.substring(2), "true");
        case "--python", "--worker", "--runs", "--shapes", "--operations" -> {
          if (i + 1 >= args.length) {
            throw new IllegalArgumentException(arg + " needs a value");
          }
          options.put(arg.substring(2), args[++i]);
        }
        default -> throw new IllegalArgumentException("unknown argument '" + arg + "' (known: --python PATH,"
            + " --worker PATH, --runs N, --shapes 3,7, --operations " + String.join(",", OPERATIONS)
            + ", --no-spark, --no-every-row, --no-jvm-warmup, --quick, --pyiceberg-base, --rename)");
      }
    }
    return options;
  }

  private static void check(boolean condition, String what) {
    if (!condition) {
      throw new IllegalStateException("Check failed: " + what);
    }
  }
}
