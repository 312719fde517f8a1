package dev.transforms.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.transforms.benchmarks.PyIcebergBenchmark.Shape;
import dev.transforms.benchmarks.SideBySide.Case;
import dev.transforms.benchmarks.SideBySide.Outcome;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The SDK against PyIceberg on local tables of many files (issue 45): for each scale (millions of rows,
 * such as {@code 2,10,30}), PyIceberg creates a table and appends the rows of the 7-column shape one
 * file of {@code --file-rows} (1M) rows at a time; the SDK edits two copies of that history, one in a
 * table PyIceberg made (no codec in its properties: Iceberg Java's writer falls back to gzip) and one in
 * a table Iceberg Java made (zstd), so that the rewrite planner's choice on each shows. Started by
 * {@code benchmarks/pyiceberg/run --scale 2,10,30}.
 *
 * <p>Operations: {@code arrow()} against {@code scan().to_arrow()}; streaming with
 * {@code arrowReader(65536)} against {@code to_arrow_batch_reader()}, rows counted; copy-on-write delete
 * of 1% by a key range in the middle; copy-on-write upsert of 1% (half updates spread over the table,
 * half inserts). For every SDK call the peak Java heap and the peak resident memory of the process; for
 * every PyIceberg call its worker's peak resident memory ({@link MemoryPeaks}). Each PyIceberg call is
 * capped ({@code --py-timeout}, 300 s): past it the worker is stopped and the case reports "timed out at
 * N s", without further runs.
 *
 * <p>Arguments: {@code --python PATH} (required), {@code --worker PATH}, {@code --scale LIST} (millions,
 * decimals allowed: {@code 0.2,0.4} with {@code --file-rows 100000} is a smoke run), {@code --file-rows N}
 * (default 1,000,000), {@code --runs N} (default 3), {@code --warmup N} (default 1), {@code --py-timeout S}
 * (default 300), {@code --operations LIST} (of {@code arrow,batches,delete,upsert}, all by default). The harness's
 * heap is {@code HARNESS_HEAP} of the run script (6g by default): {@code HARNESS_HEAP=1g ... --operations
 * delete,upsert} shows the edits within a gigabyte of heap.
 */
public final class ScaleBenchmark {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String PY = "PyIceberg";
  private static final String SDK_PY_MADE = "SDK, table by PyIceberg";
  private static final String SDK_JAVA_MADE = "SDK, table by Iceberg Java";

  private ScaleBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = SideBySide.options(args, Set.of(),
        Set.of("python", "worker", "scale", "file-rows", "runs", "warmup", "py-timeout", "operations"));
    String python = ObjectStoreBenchmark.required(options, "python");
    List<Long> scales = new ArrayList<>();
    for (String scale : ObjectStoreBenchmark.required(options, "scale").split(",")) {
      scales.add(new BigDecimal(scale.trim()).multiply(BigDecimal.valueOf(1_000_000)).longValueExact());
    }
    long fileRows = Long.parseLong(options.getOrDefault("file-rows", "1000000"));
    int runs = Integer.parseInt(options.getOrDefault("runs", "3"));
    int warmup = Integer.parseInt(options.getOrDefault("warmup", "1"));
    Duration limit = Duration.ofSeconds(Long.parseLong(options.getOrDefault("py-timeout", "300")));
    String worker = options.getOrDefault("worker", "benchmarks/pyiceberg/worker.py");
    Set<String> operations = Set.of(options.getOrDefault("operations", "arrow,batches,delete,upsert").split(","));

    long started = System.nanoTime();
    Path dir = Files.createTempDirectory("transforms-scale-bench");
    Harness.deleteOnExit(dir);
    Path warehouse = dir.resolve("warehouse");
    StringBuilder report = new StringBuilder();
    try (BufferAllocator root = PyIcebergBenchmark.newAllocator();
        Catalogs catalogs = new Catalogs(TransformsConfig.embedded(warehouse));
        LineWorker py = new LineWorker(PY, List.of(python, worker))) {
      Catalog catalog = catalogs.catalog(TransformsConfig.DEFAULT_CATALOG);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of(BenchTables.NAMESPACE));
      JsonNode versions = py.setUp(JSON.createObjectNode().put("cmd", "open").put("warehouse", warehouse.toString())
          .put("catalog", TransformsConfig.DEFAULT_CATALOG));
      String header = String.format(Locale.ROOT, "Scale, local warehouse: PyIceberg %s, pyarrow %s, Python %s; Java %s,"
              + " max heap %d MB; %,d-row files; %d runs after %d warm-up; PyIceberg calls capped at %d s; load average"
              + " at the start %s", versions.get("pyiceberg").asText(), versions.get("pyarrow").asText(),
          versions.get("python").asText(), System.getProperty("java.version"),
          Runtime.getRuntime().maxMemory() / 1048576, fileRows, runs, warmup, limit.toSeconds(),
          PyIcebergBenchmark.loadAverage());
      System.err.println(header);
      report.append(header).append('\n');
      for (long rows : scales) {
        try (BufferAllocator memory = root.newChildAllocator("scale " + rows, 0, Long.MAX_VALUE);
            SdkWorker sdk = new SdkWorker(catalog, memory)) {
          report.append(runScale(catalog, py, sdk, rows, fileRows, runs, warmup, limit, memory, dir, operations));
        }
      }
    }
    System.out.println();
    System.out.print(report);
    System.out.printf(Locale.ROOT, "load average at the end: %s; whole harness: %.0f s%n",
        PyIcebergBenchmark.loadAverage(), (System.nanoTime() - started) / 1e9);
    ObjectStoreBenchmark.exitOnFailures();
  }

  private static String runScale(Catalog catalog, LineWorker py, SdkWorker sdk, long rows, long fileRows, int runs,
      int warmup, Duration limit, BufferAllocator memory, Path dir, Set<String> operations) {
    Shape shape = PyIcebergBenchmark.sevenColumns();
    String tag = ObjectStoreBenchmark.count(rows).replace(",", "");
    long begun = System.nanoTime();
    Table pyTable = BenchTables.createByPyIceberg(py, catalog, "py_" + tag, shape.schema());
    List<DataFile> files = BenchTables.appendByPyIceberg(py, pyTable, shape, rows, fileRows, memory, dir);
    Table sdkPyMade = BenchTables.createByPyIceberg(py, catalog, "sdk_py_made_" + tag, shape.schema());
    Table sdkJavaMade = BenchTables.createByJava(catalog, "sdk_java_made_" + tag, shape.schema(), "copy-on-write");
    BenchTables.appendFileByFile(sdkPyMade, files);
    BenchTables.appendFileByFile(sdkJavaMade, files);
    Map<Table, BenchTables.Base> bases = new LinkedHashMap<>();
    for (Table table : List.of(pyTable, sdkPyMade, sdkJavaMade)) {
      bases.put(table, BenchTables.base(table));
    }
    String tableLine = String.format(Locale.ROOT, "%s rows: %d Parquet files written by PyIceberg (one append each),"
            + " %.1f MB; set up in %.0f s", ObjectStoreBenchmark.count(rows), files.size(),
        files.stream().mapToLong(DataFile::fileSizeInBytes).sum() / 1e6, (System.nanoTime() - begun) / 1e9);
    System.err.println(tableLine);

    int changed = (int) (rows / 100);
    try (VectorSchemaRoot upsert = PyIcebergBenchmark.rows(memory, shape,
        PyIcebergBenchmark.upsertIds((int) rows, changed), 1)) {
      BenchTables.load(py, dir, "upsert_" + tag, upsert);
      BenchTables.load(sdk, dir, "upsert_" + tag, upsert);
    }
    long updated = changed / 2;
    long inserted = changed - updated;
    long deleteFrom = rows / 2 - rows / 200;
    long deleteTo = deleteFrom + rows / 100;
    long deleted = deleteTo - deleteFrom;
    String filter = "id >= " + deleteFrom + " and id < " + deleteTo;

    Map<String, Map<String, Outcome>> results = new LinkedHashMap<>();
    if (operations.contains("arrow")) {
      results.put("`arrow()` vs `scan().to_arrow()`", measure("arrow " + tag, warmup, runs, limit, bases,
        py, pyTable, sdk, List.of(sdkPyMade, sdkJavaMade), table -> command("scan", table),
        answer -> BenchTables.check(answer.get("rows").asLong() == rows, "rows read: " + answer), null));
    }
    if (operations.contains("batches")) {
      results.put("`arrowReader(65536)` vs `to_arrow_batch_reader()`, rows counted", measure("batches " + tag, warmup,
        runs, limit, bases, py, pyTable, sdk, List.of(sdkPyMade, sdkJavaMade),
        table -> command("scan_batches", table).put("batch", 65_536),
        answer -> BenchTables.check(answer.get("rows").asLong() == rows, "rows streamed: " + answer), null));
    }
    if (operations.contains("delete")) {
      results.put("delete " + ObjectStoreBenchmark.count(deleted) + " rows (1%) by a key range, copy-on-write",
        measure("delete " + tag, warmup, runs, limit, bases, py, pyTable, sdk, List.of(sdkPyMade, sdkJavaMade),
            table -> command("delete", table).put("filter", filter), answer -> { }, rows - deleted));
    }
    if (operations.contains("upsert")) {
      results.put("upsert " + ObjectStoreBenchmark.count(changed) + " (1%: " + ObjectStoreBenchmark.count(updated)
            + " updates, " + ObjectStoreBenchmark.count(inserted) + " inserts), copy-on-write",
        measure("upsert " + tag, warmup, runs, limit, bases, py, pyTable, sdk, List.of(sdkPyMade, sdkJavaMade),
            table -> command("upsert", table).put("source", "upsert_" + tag), answer ->
                BenchTables.check(answer.get("updated").asLong() == updated
                    && answer.get("inserted").asLong() == inserted, "upsert counts: " + answer), rows + inserted));
    }
    List<List<String>> times = new ArrayList<>();
    List<List<String>> peaks = new ArrayList<>();
    for (Map.Entry<String, Map<String, Outcome>> operation : results.entrySet()) {
      Map<String, Outcome> o = operation.getValue();
      Outcome pyOutcome = o.get(PY);
      Outcome pyMade = o.get(SDK_PY_MADE);
      Outcome javaMade = o.get(SDK_JAVA_MADE);
      times.add(List.of(operation.getKey(), time(pyMade), time(javaMade), time(pyOutcome),
          SideBySide.ratio(pyOutcome, pyMade), SideBySide.ratio(pyOutcome, javaMade),
          (pyMade == null ? "-" : pyMade.strategies()) + "; " + (javaMade == null ? "-" : javaMade.strategies())));
      peaks.add(List.of(operation.getKey(), memory(pyMade, true), memory(javaMade, true), memory(pyMade, false),
          memory(javaMade, false), memory(pyOutcome, false)));
    }
    String reasons = reasons(sdk, bases.get(sdkPyMade)) + "\n" + reasons(sdk, bases.get(sdkJavaMade));
    for (Table table : List.of(pyTable, sdkPyMade, sdkJavaMade)) {
      catalog.dropTable(TableIdentifier.of(BenchTables.NAMESPACE, BenchTables.name(table)), true);
    }
    py.call(JSON.createObjectNode().put("cmd", "drop").put("name", "upsert_" + tag));
    py.forget("load", "upsert_" + tag);
    sdk.call(JSON.createObjectNode().put("cmd", "drop").put("name", "upsert_" + tag));
    return "\n" + tableLine + "\n\nMedian (p90) ms of the timed call\n\n"
        + SideBySide.table(List.of("operation", SDK_PY_MADE, SDK_JAVA_MADE, PY, "PyIceberg / SDK, table by PyIceberg",
            "PyIceberg / SDK, table by Iceberg Java", "SDK strategies per call (table by PyIceberg; by Iceberg Java)"),
            times)
        + "\nPeaks of one call, median MB: the SDK's Java heap, and the resident memory of each process (in brackets:"
        + " what it held when the call started; the SDK's process is the harness's JVM, its sources included)\n\n"
        + SideBySide.table(List.of("operation", "SDK heap, table by PyIceberg", "SDK heap, table by Iceberg Java",
            "SDK process, table by PyIceberg", "SDK process, table by Iceberg Java", "PyIceberg process"), peaks)
        + "\n" + reasons + "\n";
  }

  /**
   * The cases of one operation: PyIceberg on its table, the SDK on each of its tables, each answer checked
   * and, after an edit, the table's live rows.
   *
   * @param liveRows the rows an edit leaves, or null for a read
   */
  private static Map<String, Outcome> measure(String operation, int warmup, int runs, Duration limit,
      Map<Table, BenchTables.Base> bases, LineWorker py, Table pyTable, SdkWorker sdk, List<Table> sdkTables,
      Function<Table, ObjectNode> command, Consumer<JsonNode> check, Long liveRows) {
    List<Case> cases = new ArrayList<>();
    cases.add(new Case(PY, py, command.apply(pyTable), () -> BenchTables.reset(bases.get(pyTable)),
        answer -> checked(check, answer, pyTable, liveRows)));
    for (Table table : sdkTables) {
      ObjectNode sdkCommand = command.apply(table).put("memory", true);
      cases.add(new Case(table == sdkTables.get(0) ? SDK_PY_MADE : SDK_JAVA_MADE, sdk, sdkCommand,
          () -> BenchTables.reset(bases.get(table)), answer -> checked(check, answer, table, liveRows)));
    }
    return SideBySide.measure(operation, warmup, runs, cases, limit, null);
  }

  private static void checked(Consumer<JsonNode> check, JsonNode answer, Table table, Long liveRows) {
    check.accept(answer);
    if (liveRows != null) {
      BenchTables.checkLiveRows(table, liveRows);
    }
  }

  private static ObjectNode command(String cmd, Table table) {
    return JSON.createObjectNode().put("cmd", cmd).put("table", BenchTables.qualified(BenchTables.name(table)));
  }

  private static String time(Outcome outcome) {
    return outcome == null ? "failed" : outcome.time();
  }

  /** The median heap peak, or the median resident peak and, in brackets, what the process held at the start. */
  private static String memory(Outcome outcome, boolean heap) {
    if (outcome == null) {
      return "-";
    }
    return heap ? SideBySide.medianOf(outcome.heapPeaksMb)
        : SideBySide.medianOf(outcome.rssPeaksMb) + " (" + SideBySide.medianOf(outcome.rssStartsMb) + ")";
  }

  /** What the planners choose for the table at its base, and why. */
  private static String reasons(SdkWorker sdk, BenchTables.Base base) {
    BenchTables.reset(base);
    Table table = base.table();
    JsonNode plan = sdk.call(JSON.createObjectNode().put("cmd", "plan").put("table",
        BenchTables.qualified(BenchTables.name(table))));
    return "The planners on " + BenchTables.name(table) + ": read: " + plan.get("read").asText() + "; rewrite of"
        + " its first file: " + plan.get("rewrite").asText() + ".";
  }
}
