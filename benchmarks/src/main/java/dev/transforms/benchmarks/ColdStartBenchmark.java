package dev.transforms.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.transforms.benchmarks.PyIcebergBenchmark.Shape;
import dev.transforms.benchmarks.SideBySide.Case;
import dev.transforms.benchmarks.SideBySide.Outcome;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * The SDK against PyIceberg measured the way a build runs (issue 45): a fresh process for every round,
 * a JVM for the SDK ({@link SdkWorker#main}, with this JVM's options) and a Python for PyIceberg
 * ({@code worker.py}), each making three calls of one operation, the table reset between them (untimed):
 * the first is the cold call, the third comes after two warm-ups. Rounds alternate which side starts.
 * Then the same cases in long-lived processes (this JVM, one Python), after {@code --warmup} runs, as the
 * warm numbers beside them.
 *
 * <p>The tables are those of {@link ObjectStoreBenchmark} on a local warehouse (the embedded SQLite
 * catalog): 1M rows of the 7-column shape in one Parquet file PyIceberg writes; {@code py_cow} for
 * PyIceberg, {@code sdk_cow} and {@code sdk_mor} for the SDK. Operations: {@code arrow()} against
 * {@code scan().to_arrow()}; upsert of 1% (half updates, half inserts), copy-on-write and, on the SDK's
 * side, merge-on-read, against PyIceberg's upsert; delete of 1% by a key range. Start-up is the time from
 * starting a process to its catalog being open.
 *
 * <p>Arguments: {@code --python PATH} (required), {@code --worker PATH}, {@code --rows N} (default
 * 1,000,000), {@code --rounds N} (cold rounds, default 5), {@code --runs N} and {@code --warmup N} (the
 * warm cases, default 5 and 2).
 */
public final class ColdStartBenchmark {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The calls each fresh process makes; the last is the one reported as after two warm-ups. */
  static final int CALLS = 3;

  private ColdStartBenchmark() {}

  /** One case: a side's name, the table it edits and the command it times. */
  private record Step(String name, boolean sdk, BenchTables.Base base, ObjectNode command, Consumer<JsonNode> check) {}

  /** One operation: its name in the tables, whether it needs the upsert source, its cases. */
  private record Operation(String name, boolean needsSource, List<Step> steps) {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = SideBySide.options(args, Set.of(),
        Set.of("python", "worker", "rows", "rounds", "runs", "warmup"));
    String python = ObjectStoreBenchmark.required(options, "python");
    int rows = Integer.parseInt(options.getOrDefault("rows", "1000000"));
    int rounds = Integer.parseInt(options.getOrDefault("rounds", "5"));
    int runs = Integer.parseInt(options.getOrDefault("runs", "5"));
    int warmup = Integer.parseInt(options.getOrDefault("warmup", "2"));
    String worker = options.getOrDefault("worker", "benchmarks/pyiceberg/worker.py");
    List<String> pythonCommand = List.of(python, worker);
    List<String> javaCommand = javaCommand();

    long started = System.nanoTime();
    Path dir = Files.createTempDirectory("transforms-cold-bench");
    Harness.deleteOnExit(dir);
    Path warehouse = dir.resolve("warehouse");
    ObjectNode open = JSON.createObjectNode().put("cmd", "open").put("warehouse", warehouse.toString())
        .put("catalog", TransformsConfig.DEFAULT_CATALOG);
    StringBuilder report = new StringBuilder();
    try (BufferAllocator root = PyIcebergBenchmark.newAllocator();
        Catalogs catalogs = new Catalogs(TransformsConfig.embedded(warehouse));
        LineWorker py = new LineWorker("PyIceberg", pythonCommand);
        BufferAllocator memory = root.newChildAllocator("cold", 0, Long.MAX_VALUE);
        SdkWorker sdk = new SdkWorker(null, memory)) {
      Catalog catalog = catalogs.catalog(TransformsConfig.DEFAULT_CATALOG);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of(BenchTables.NAMESPACE));
      JsonNode versions = py.setUp(open);
      sdk.call(open);
      String header = String.format(Locale.ROOT, "Cold and warm, local warehouse: PyIceberg %s, pyarrow %s, Python %s;"
              + " Java %s (the SDK's fresh JVMs: %s); %,d rows; %d cold rounds of %d calls; warm: %d runs after %d"
              + " warm-up; load average at the start %s", versions.get("pyiceberg").asText(),
          versions.get("pyarrow").asText(), versions.get("python").asText(), System.getProperty("java.version"),
          String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
              .filter(a -> a.startsWith("-X")).toList()), rows, rounds, CALLS, runs, warmup,
          PyIcebergBenchmark.loadAverage());
      System.err.println(header);
      report.append(header).append("\n\n");

      Shape shape = PyIcebergBenchmark.sevenColumns();
      Table seed = BenchTables.createByJava(catalog, "seed", shape.schema(), "copy-on-write");
      List<DataFile> files = BenchTables.appendByPyIceberg(py, seed, shape, rows, rows, memory, dir);
      Map<String, BenchTables.Base> bases = new LinkedHashMap<>();
      for (String name : List.of("py_cow", "sdk_cow", "sdk_mor")) {
        Table table = BenchTables.createByJava(catalog, name, shape.schema(),
            name.endsWith("mor") ? "merge-on-read" : "copy-on-write");
        BenchTables.appendFileByFile(table, files);
        bases.put(name, BenchTables.base(table));
      }
      report.append(String.format(Locale.ROOT, "7 columns: %,d rows in %d Parquet file(s) written by PyIceberg, %.1f"
              + " MB; tables made by Iceberg Java, format 2%n%n", rows, files.size(),
          files.stream().mapToLong(DataFile::fileSizeInBytes).sum() / 1e6));

      int small = rows / 100;
      Path source;
      try (VectorSchemaRoot upsert = PyIcebergBenchmark.rows(memory, shape, PyIcebergBenchmark.upsertIds(rows, small),
          1)) {
        source = BenchTables.writeSource(dir, "upsert_small", upsert);
      }
      py.setUp(BenchTables.loadCommand("upsert_small", source));
      sdk.call(BenchTables.loadCommand("upsert_small", source));
      List<Operation> operations = operations(bases, rows, small);

      List<List<String>> cold = new ArrayList<>();
      List<List<String>> warm = new ArrayList<>();
      for (Operation operation : operations) {
        Map<String, Outcome[]> coldOutcomes = coldRounds(operation, rounds, pythonCommand, javaCommand, open, source);
        List<Case> cases = new ArrayList<>();
        for (Step step : operation.steps()) {
          cases.add(new Case(step.name(), step.sdk() ? sdk : py, step.command(), () -> BenchTables.reset(step.base()),
              step.check()));
        }
        Map<String, Outcome> warmOutcomes = SideBySide.measure(operation.name() + ", warm", warmup, runs, cases, null,
            null);
        Outcome[] pyCold = coldOutcomes.get("PyIceberg");
        for (Step step : operation.steps()) {
          if (!step.sdk()) {
            continue;
          }
          String label = operation.name() + (operation.steps().size() > 2 ? ", " + step.name() : "");
          Outcome[] sdkCold = coldOutcomes.get(step.name());
          cold.add(List.of(label, sdkCold[1].time(), pyCold[1].time(), SideBySide.ratio(pyCold[1], sdkCold[1]),
              sdkCold[CALLS].time(), pyCold[CALLS].time(), SideBySide.ratio(pyCold[CALLS], sdkCold[CALLS]),
              sdkCold[0].time() + " / " + pyCold[0].time(), sdkCold[CALLS].strategies()));
          Outcome sdkWarm = warmOutcomes.get(step.name());
          Outcome pyWarm = warmOutcomes.get("PyIceberg");
          warm.add(List.of(label, sdkWarm == null ? "failed" : sdkWarm.time(), pyWarm == null ? "failed" : pyWarm.time(),
              SideBySide.ratio(pyWarm, sdkWarm), sdkWarm == null ? "-" : sdkWarm.strategies()));
        }
      }
      report.append("Cold: a fresh process per round and side, median (p90) ms of the 1st call and of the 3rd (after"
              + " two warm-ups)\n\n")
          .append(SideBySide.table(List.of("operation", "SDK, 1st call", "PyIceberg, 1st call", "PyIceberg / SDK, 1st",
              "SDK, 3rd call", "PyIceberg, 3rd call", "PyIceberg / SDK, 3rd", "start-up to catalog open, SDK /"
                  + " PyIceberg", "SDK strategies (3rd call)"), cold))
          .append("\nWarm: long-lived processes, median (p90) ms after ").append(warmup).append(" warm-up runs\n\n")
          .append(SideBySide.table(List.of("operation", "SDK", "PyIceberg", "PyIceberg / SDK", "SDK strategies"), warm));
    }
    System.out.println();
    System.out.print(report);
    System.out.printf(Locale.ROOT, "load average at the end: %s; whole harness: %.0f s%n",
        PyIcebergBenchmark.loadAverage(), (System.nanoTime() - started) / 1e9);
    ObjectStoreBenchmark.exitOnFailures();
  }

  private static List<Operation> operations(Map<String, BenchTables.Base> bases, int rows, int small) {
    long updated = small / 2;
    long inserted = small - updated;
    long deleteFrom = rows / 2 - rows / 200;
    long deleted = rows / 100;
    String filter = "id >= " + deleteFrom + " and id < " + (deleteFrom + deleted);
    Consumer<JsonNode> allRows = answer -> BenchTables.check(answer.get("rows").asLong() == rows, "rows: " + answer);
    List<Operation> operations = new ArrayList<>();
    operations.add(new Operation("`arrow()` vs `scan().to_arrow()`", false, List.of(
        new Step("PyIceberg", false, bases.get("py_cow"), command("scan", "py_cow"), allRows),
        new Step("SDK", true, bases.get("sdk_cow"), command("scan", "sdk_cow"), allRows))));
    List<Step> upserts = new ArrayList<>();
    for (String table : List.of("py_cow", "sdk_cow", "sdk_mor")) {
      BenchTables.Base base = bases.get(table);
      upserts.add(new Step(table.equals("py_cow") ? "PyIceberg" : table.equals("sdk_cow") ? "SDK copy-on-write"
          : "SDK merge-on-read", !table.startsWith("py"), base, command("upsert", table).put("source", "upsert_small"),
          answer -> {
            BenchTables.check(answer.get("updated").asLong() == updated && answer.get("inserted").asLong() == inserted,
                "upsert counts: " + answer);
            BenchTables.checkLiveRows(base.table(), rows + inserted);
          }));
    }
    operations.add(new Operation("upsert " + ObjectStoreBenchmark.count(small) + " (" + ObjectStoreBenchmark.count(
        updated) + " updates, " + ObjectStoreBenchmark.count(inserted) + " inserts)", true, upserts));
    List<Step> deletes = new ArrayList<>();
    for (String table : List.of("py_cow", "sdk_cow")) {
      BenchTables.Base base = bases.get(table);
      deletes.add(new Step(table.startsWith("py") ? "PyIceberg" : "SDK", !table.startsWith("py"), base,
          command("delete", table).put("filter", filter), answer -> BenchTables.checkLiveRows(base.table(),
          rows - deleted)));
    }
    operations.add(new Operation("delete " + ObjectStoreBenchmark.count(deleted) + " rows (1%) by a key range,"
        + " copy-on-write", false, deletes));
    return operations;
  }

  /**
   * The cold rounds of one operation: per round and case a fresh process, {@value #CALLS} calls.
   *
   * @return per case: [start-up, 1st call, 2nd call, 3rd call]
   */
  private static Map<String, Outcome[]> coldRounds(Operation operation, int rounds, List<String> pythonCommand,
      List<String> javaCommand, ObjectNode open, Path source) {
    Map<String, Outcome[]> outcomes = new LinkedHashMap<>();
    for (Step step : operation.steps()) {
      Outcome[] byCall = new Outcome[CALLS + 1];
      for (int i = 0; i <= CALLS; i++) {
        byCall[i] = new Outcome(step.name() + (i == 0 ? ", start-up" : ", call " + i));
      }
      outcomes.put(step.name(), byCall);
    }
    try {
      for (int round = 0; round < rounds; round++) {
        List<Step> steps = operation.steps();
        for (int turn = 0; turn < steps.size(); turn++) {
          Step step = steps.get(Math.floorMod(round + turn, steps.size()));
          Outcome[] byCall = outcomes.get(step.name());
          long begun = System.nanoTime();
          try (LineWorker fresh = new LineWorker(step.sdk() ? "SDK (fresh JVM)" : "PyIceberg (fresh Python)",
              step.sdk() ? javaCommand : pythonCommand)) {
            fresh.call(open);
            byCall[0].millis.add((System.nanoTime() - begun) / 1e6);
            if (operation.needsSource()) {
              fresh.call(BenchTables.loadCommand("upsert_small", source));
            }
            for (int call = 1; call <= CALLS; call++) {
              BenchTables.reset(step.base());
              JsonNode answer = fresh.call(step.command());
              step.check().accept(answer);
              byCall[call].millis.add(answer.get("ms").asDouble());
              JsonNode strategies = answer.get("strategies");
              if (strategies != null && call == CALLS) {
                List<String> moved = new ArrayList<>();
                strategies.fields().forEachRemaining(e -> moved.add(e.getKey() + " x" + e.getValue().asLong()));
                byCall[call].strategies.add(moved.isEmpty() ? "none counted" : String.join(", ", moved));
              }
            }
          }
        }
        System.err.printf(Locale.ROOT, "cold round %d of %s done (load %s)%n", round + 1, operation.name(),
            PyIcebergBenchmark.loadAverage());
      }
    } catch (RuntimeException failure) {
      System.err.println("FAILED: " + operation.name() + ", cold: " + failure);
      failure.printStackTrace();
      SideBySide.FAILURES.add(operation.name() + ", cold: " + failure);
    }
    return outcomes;
  }

  private static ObjectNode command(String cmd, String table) {
    return JSON.createObjectNode().put("cmd", cmd).put("table", BenchTables.qualified(table));
  }

  /** A JVM like this one (its options, its class path) running {@link SdkWorker}. */
  private static List<String> javaCommand() {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SdkWorker.class.getName());
    return command;
  }
}
