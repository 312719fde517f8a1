package dev.transforms.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.transforms.benchmarks.PyIcebergBenchmark.Shape;
import dev.transforms.benchmarks.SideBySide.Case;
import dev.transforms.benchmarks.SideBySide.Outcome;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;

/**
 * The SDK against PyIceberg on object storage (issue 45): moto's S3 server on 127.0.0.1 behind
 * {@code benchmarks/pyiceberg/latency_proxy.py}, which holds every request back a fixed delay (20 ms by
 * default, as real S3 takes to its first byte), and one SQLite catalog that Iceberg Java's
 * {@code JdbcCatalog} (through the SDK's catalog configuration, {@code S3FileIO}) and PyIceberg's
 * {@code SqlCatalog} (pyarrow's S3 file system) both open, warehouse {@code s3://BUCKET/run-...}.
 * Started by {@code benchmarks/pyiceberg/run --object-store}, which installs and starts both servers.
 *
 * <p>The table: 1M rows of the 7-column shape ({@code id long}, two strings, {@code decimal(12,2)},
 * {@code int}, {@code date}, {@code double}; {@link PyIcebergBenchmark#sevenColumns}) in one Parquet file
 * PyIceberg writes, appended into a table for each side: {@code py_cow} (PyIceberg's edits),
 * {@code sdk_cow} and {@code sdk_mor} (the SDK's, copy-on-write and merge-on-read; all three made by
 * Iceberg Java, format 2). Operations: {@code arrow()} against {@code scan().to_arrow()}; upsert of 10k
 * rows (5k updates spread over the table, 5k inserts), copy-on-write and, on the SDK's side, merge-on-read,
 * both against PyIceberg's upsert; delete of 1% by a key range, copy-on-write. Each case runs with the
 * proxy's delay and without it, alternating, the delay set between runs (a reset of the table, untimed,
 * comes first, without delay).
 *
 * <p>Arguments: {@code --python PATH} (required), {@code --worker PATH}, {@code --proxy URL} (required),
 * {@code --delay-ms N} (default 20), {@code --bucket NAME} (default {@code bench}), {@code --rows N}
 * (default 1,000,000), {@code --runs N} (default 5), {@code --warmup N} (default 2).
 */
public final class ObjectStoreBenchmark {

  private static final ObjectMapper JSON = new ObjectMapper();
  static final String ACCESS_KEY = "bench-access-key";
  static final String SECRET_KEY = "bench-secret-key";

  private ObjectStoreBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = SideBySide.options(args, Set.of(),
        Set.of("python", "worker", "proxy", "delay-ms", "bucket", "rows", "runs", "warmup"));
    String python = required(options, "python");
    String endpoint = required(options, "proxy");
    double delay = Double.parseDouble(options.getOrDefault("delay-ms", "20"));
    int rows = Integer.parseInt(options.getOrDefault("rows", "1000000"));
    int runs = Integer.parseInt(options.getOrDefault("runs", "5"));
    int warmup = Integer.parseInt(options.getOrDefault("warmup", "2"));
    String worker = options.getOrDefault("worker", "benchmarks/pyiceberg/worker.py");
    String warehouse = "s3://" + options.getOrDefault("bucket", "bench") + "/run-" + System.currentTimeMillis();
    List<Double> delays = delay == 0 ? List.of(0.0) : List.of(delay, 0.0);

    long started = System.nanoTime();
    Path dir = Files.createTempDirectory("transforms-objectstore-bench");
    Harness.deleteOnExit(dir);
    LatencyProxy proxy = new LatencyProxy(endpoint);
    proxy.delay(0);
    Path config = writeConfig(dir, warehouse, endpoint);
    StringBuilder report = new StringBuilder();
    try (BufferAllocator root = PyIcebergBenchmark.newAllocator();
        Catalogs catalogs = new Catalogs(TransformsConfig.load(Optional.of(config), Optional.empty(), Map.of(), dir));
        LineWorker py = new LineWorker("PyIceberg", List.of(python, worker))) {
      Catalog catalog = catalogs.catalog("bench");
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of(BenchTables.NAMESPACE));
      ObjectNode open = JSON.createObjectNode().put("cmd", "open").put("catalog", "bench")
          .put("uri", "sqlite:///" + dir.resolve("catalog.db")).put("warehouse_uri", warehouse);
      open.putObject("properties").put("s3.endpoint", endpoint).put("s3.access-key-id", ACCESS_KEY)
          .put("s3.secret-access-key", SECRET_KEY).put("s3.region", "us-east-1");
      JsonNode versions = py.setUp(open);
      String header = String.format(Locale.ROOT, "Object store: moto behind the latency proxy (%s), warehouse %s;"
              + " PyIceberg %s, pyarrow %s, Python %s; Java %s; %,d rows; %d runs after %d warm-up; load average at"
              + " the start %s", endpoint, warehouse, versions.get("pyiceberg").asText(),
          versions.get("pyarrow").asText(), versions.get("python").asText(), System.getProperty("java.version"), rows,
          runs, warmup, PyIcebergBenchmark.loadAverage());
      System.err.println(header);
      report.append(header).append("\n\n");
      try (BufferAllocator memory = root.newChildAllocator("object store", 0, Long.MAX_VALUE);
          SdkWorker sdk = new SdkWorker(catalog, memory)) {
        report.append(run(catalog, py, sdk, proxy, delays, rows, runs, warmup, memory, dir));
      }
    }
    System.out.println();
    System.out.print(report);
    System.out.printf(Locale.ROOT, "load average at the end: %s; whole harness: %.0f s%n",
        PyIcebergBenchmark.loadAverage(), (System.nanoTime() - started) / 1e9);
    exitOnFailures();
  }

  private static String run(Catalog catalog, LineWorker py, SdkWorker sdk, LatencyProxy proxy, List<Double> delays,
      int rows, int runs, int warmup, BufferAllocator memory, Path dir) {
    Shape shape = PyIcebergBenchmark.sevenColumns();
    Table seed = BenchTables.createByJava(catalog, "seed", shape.schema(), "copy-on-write");
    List<DataFile> files = BenchTables.appendByPyIceberg(py, seed, shape, rows, rows, memory, dir);
    Table pyCow = BenchTables.createByJava(catalog, "py_cow", shape.schema(), "copy-on-write");
    Table sdkCow = BenchTables.createByJava(catalog, "sdk_cow", shape.schema(), "copy-on-write");
    Table sdkMor = BenchTables.createByJava(catalog, "sdk_mor", shape.schema(), "merge-on-read");
    Map<Table, BenchTables.Base> bases = new LinkedHashMap<>();
    for (Table table : List.of(pyCow, sdkCow, sdkMor)) {
      BenchTables.appendFileByFile(table, files);
      bases.put(table, BenchTables.base(table));
    }
    String tableLine = String.format(Locale.ROOT, "7 columns: %,d rows in %d Parquet file(s) written by PyIceberg,"
        + " %.1f MB; tables made by Iceberg Java, format 2", rows, files.size(),
        files.stream().mapToLong(DataFile::fileSizeInBytes).sum() / 1e6);
    System.err.println(tableLine);

    int small = rows / 100;
    try (VectorSchemaRoot upsert = PyIcebergBenchmark.rows(memory, shape, PyIcebergBenchmark.upsertIds(rows, small), 1)) {
      BenchTables.load(py, dir, "upsert_small", upsert);
      BenchTables.load(sdk, dir, "upsert_small", upsert);
    }
    long deleteFrom = rows / 2 - rows / 200;
    long deleteTo = deleteFrom + rows / 100;
    String filter = "id >= " + deleteFrom + " and id < " + deleteTo;
    long updated = small / 2;
    long inserted = small - updated;

    Map<String, Long> before = new LinkedHashMap<>();
    SideBySide.Extra requests = (current, answer, outcome) ->
        outcome.requests.add((double) (proxy.requests() - before.get(current.name())));
    List<List<String>> tableRows = new ArrayList<>();
    String upsertName = "upsert " + count(small) + " (" + count(updated) + " updates, " + count(inserted) + " inserts)";

    Map<String, Outcome> scan = measure("arrow() / scan().to_arrow()", delays, warmup, runs, requests, before, proxy, List.of(
            new Step("PyIceberg", py, bases.get(pyCow), command("scan", pyCow), answer -> checkRows(answer, rows)),
            new Step("SDK", sdk, bases.get(sdkCow), command("scan", sdkCow), answer -> checkRows(answer, rows))));
    tableRows.add(row("`arrow()` vs `scan().to_arrow()`", scan, "PyIceberg", "SDK", delays));

    Map<String, Outcome> upserts = measure(upsertName, delays, warmup, runs, requests, before, proxy, List.of(
        new Step("PyIceberg", py, bases.get(pyCow), command("upsert", pyCow).put("source", "upsert_small"),
            answer -> checkUpsert(pyCow, answer, updated, inserted, rows)),
        new Step("SDK copy-on-write", sdk, bases.get(sdkCow), command("upsert", sdkCow).put("source", "upsert_small"),
            answer -> checkUpsert(sdkCow, answer, updated, inserted, rows)),
        new Step("SDK merge-on-read", sdk, bases.get(sdkMor), command("upsert", sdkMor).put("source", "upsert_small"),
            answer -> checkUpsert(sdkMor, answer, updated, inserted, rows))));
    tableRows.add(row(upsertName + ", copy-on-write", upserts, "PyIceberg", "SDK copy-on-write", delays));
    tableRows.add(row(upsertName + ", SDK merge-on-read vs PyIceberg's upsert", upserts, "PyIceberg",
        "SDK merge-on-read", delays));

    long deleted = deleteTo - deleteFrom;
    Map<String, Outcome> deletes = measure("delete 1%", delays, warmup, runs, requests, before, proxy, List.of(
        new Step("PyIceberg", py, bases.get(pyCow), command("delete", pyCow).put("filter", filter),
            answer -> BenchTables.checkLiveRows(pyCow, rows - deleted)),
        new Step("SDK", sdk, bases.get(sdkCow), command("delete", sdkCow).put("filter", filter), answer -> {
          BenchTables.check(answer.get("deleted").asLong() == deleted, "SDK rows deleted: " + answer);
          BenchTables.checkLiveRows(sdkCow, rows - deleted);
        })));
    tableRows.add(row("delete " + count(deleted) + " rows (1%) by a key range, copy-on-write", deletes, "PyIceberg",
        "SDK", delays));

    List<String> header = new ArrayList<>(List.of("operation"));
    for (double delay : delays) {
      String d = ms(delay);
      header.addAll(List.of("SDK, " + d, "PyIceberg, " + d, "PyIceberg / SDK, " + d));
    }
    header.addAll(List.of("SDK strategies (per call)",
        "S3 requests per call, " + ms(delays.get(0)) + ", SDK / PyIceberg"));
    proxy.delay(0);
    BenchTables.reset(bases.get(sdkCow));
    BenchTables.reset(bases.get(sdkMor));
    JsonNode cowPlan = sdk.call(JSON.createObjectNode().put("cmd", "plan").put("table", BenchTables.qualified("sdk_cow")));
    JsonNode morPlan = sdk.call(JSON.createObjectNode().put("cmd", "plan").put("table", BenchTables.qualified("sdk_mor")));
    return tableLine + "\n\nMedian (p90) ms of the timed call; the table is loaded before the clock starts (its"
        + " requests are counted with the call's)\n\n" + SideBySide.table(header, tableRows)
        + "\nThe planners on the SDK's tables: copy-on-write read: " + cowPlan.get("read").asText()
        + "; rewrite: " + cowPlan.get("rewrite").asText() + "; merge-on-read read: " + morPlan.get("read").asText()
        + "\n";
  }

  /** One case at one delay, before it is named and given its reset. */
  private record Step(String name, SideBySide.Side side, BenchTables.Base base, ObjectNode command,
      Consumer<JsonNode> check) {}

  /** The steps of an operation at each delay, as cases named "STEP, N ms", alternating. */
  private static Map<String, Outcome> measure(String operation, List<Double> delays, int warmup, int runs,
      SideBySide.Extra requests, Map<String, Long> before, LatencyProxy proxy, List<Step> steps) {
    List<Case> cases = new ArrayList<>();
    for (double delay : delays) {
      for (Step step : steps) {
        String name = step.name() + ", " + ms(delay);
        cases.add(new Case(name, step.side(), step.command(), () -> {
          proxy.delay(0);
          BenchTables.reset(step.base());
          proxy.delay(delay);
          before.put(name, proxy.requests());
        }, answer -> {
          proxy.delay(0);
          step.check().accept(answer);
        }));
      }
    }
    return SideBySide.measure(operation, warmup, runs, cases, null, requests);
  }

  private static List<String> row(String label, Map<String, Outcome> outcomes, String pyName, String sdkName,
      List<Double> delays) {
    List<String> row = new ArrayList<>(List.of(label));
    for (double delay : delays) {
      Outcome sdk = outcomes.get(sdkName + ", " + ms(delay));
      Outcome py = outcomes.get(pyName + ", " + ms(delay));
      row.addAll(List.of(sdk == null ? "failed" : sdk.time(), py == null ? "failed" : py.time(),
          SideBySide.ratio(py, sdk)));
    }
    Outcome sdk = outcomes.get(sdkName + ", " + ms(delays.get(0)));
    Outcome py = outcomes.get(pyName + ", " + ms(delays.get(0)));
    row.add(sdk == null ? "-" : sdk.strategies());
    row.add((sdk == null ? "-" : SideBySide.medianOf(sdk.requests)) + " / "
        + (py == null ? "-" : SideBySide.medianOf(py.requests)));
    return row;
  }

  private static ObjectNode command(String cmd, Table table) {
    return JSON.createObjectNode().put("cmd", cmd).put("table", BenchTables.qualified(BenchTables.name(table)));
  }

  private static void checkRows(JsonNode answer, long rows) {
    BenchTables.check(answer.get("rows").asLong() == rows, "rows read: " + answer);
  }

  private static void checkUpsert(Table table, JsonNode answer, long updated, long inserted, long rows) {
    BenchTables.check(answer.get("updated").asLong() == updated && answer.get("inserted").asLong() == inserted,
        "upsert counts of " + table.name() + ": " + answer);
    BenchTables.checkLiveRows(table, rows + inserted);
  }

  /**
   * The SDK's configuration of the catalog: Iceberg's JDBC catalog on a SQLite file, its tables on the
   * object store through {@code S3FileIO}, as a user's {@code transforms.properties} has it.
   */
  private static Path writeConfig(Path dir, String warehouse, String endpoint) throws IOException {
    Map<String, String> catalog = new LinkedHashMap<>();
    catalog.put("type", "jdbc");
    catalog.put("uri", "jdbc:sqlite:" + dir.resolve("catalog.db"));
    catalog.put("warehouse", warehouse);
    catalog.put("jdbc.schema-version", "V1");
    catalog.put("jdbc.journal_mode", "WAL");
    catalog.put("jdbc.busy_timeout", "30000");
    catalog.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    catalog.put("s3.endpoint", endpoint);
    catalog.put("s3.path-style-access", "true");
    catalog.put("s3.access-key-id", ACCESS_KEY);
    catalog.put("s3.secret-access-key", SECRET_KEY);
    catalog.put("client.region", "us-east-1");
    StringBuilder text = new StringBuilder("# Written by ObjectStoreBenchmark\n");
    catalog.forEach((key, value) -> text.append("catalog.bench.").append(key).append('=').append(value).append('\n'));
    Path file = dir.resolve(TransformsConfig.FILE_NAME);
    Files.writeString(file, text);
    return file;
  }

  static String ms(double delay) {
    return String.format(Locale.ROOT, "%s ms", delay == Math.rint(delay) ? Long.toString((long) delay) : delay);
  }

  static String count(long n) {
    return n >= 1_000_000 && n % 1_000_000 == 0 ? n / 1_000_000 + "M"
        : n >= 1_000 && n % 1_000 == 0 ? n / 1_000 + "k" : String.format(Locale.ROOT, "%,d", n);
  }

  static String required(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      throw new IllegalArgumentException("--" + name + " is required (benchmarks/pyiceberg/run passes it)");
    }
    return value;
  }

  static void exitOnFailures() {
    if (!SideBySide.FAILURES.isEmpty()) {
      SideBySide.FAILURES.forEach(failure -> System.out.println("FAILED: " + failure));
      System.exit(1);
    }
  }
}
