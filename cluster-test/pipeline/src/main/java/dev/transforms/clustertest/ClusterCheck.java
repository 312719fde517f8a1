package dev.transforms.clustertest;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The loopback cluster test's reader: a JVM of its own, with its own catalog client, that checks what
 * two {@code spark-submit} builds left behind.
 *
 * <p>For the round given, it checks every output listed in {@code expected-rows.txt}: its exact rows
 * (the columns named there, order ignored), that the table and each of its data files live on object
 * storage ({@code s3://}) and can be opened there. It then checks the probes: the single-node
 * {@link DriverProbe} ran in the spark-submit process ({@code --driver-pid}), and Spark tasks ran on at
 * least two executors and never in the driver ({@code --placement}, written by
 * {@link TaskPlacementListener}). It ends with {@code cluster: N passed, M failed} and exits 1 on any
 * failure.
 *
 * <p>{@code --dump} prints the current rows of the listed outputs in the file's format instead, for
 * writing the expectations from a local build.
 */
public final class ClusterCheck {

  private final Catalogs catalogs;
  private final TableResolver resolver;
  private final List<String> failures = new ArrayList<>();
  private int passed;

  private ClusterCheck(TransformsConfig config) {
    this.catalogs = new Catalogs(config);
    this.resolver = new TableResolver(config);
  }

  /**
   * Runs the checks.
   *
   * @param args {@code --config FILE} or {@code --warehouse DIR}, {@code --round N}, and either
   *     {@code --driver-pid PID --placement FILE} or {@code --dump}
   */
  public static void main(String[] args) {
    Map<String, String> options = options(args);
    TransformsConfig config = TransformsConfig.load(Optional.ofNullable(options.get("--config")).map(Path::of),
        Optional.ofNullable(options.get("--warehouse")).map(Path::of), System.getenv(), Path.of("").toAbsolutePath());
    int round = Integer.parseInt(options.getOrDefault("--round", "1"));
    List<ExpectedTable> expected = ExpectedTable.load(round);
    ClusterCheck check = new ClusterCheck(config);
    try {
      if (options.containsKey("--dump")) {
        expected.forEach(table -> check.dump(round, table));
        return;
      }
      expected.forEach(check::checkTable);
      check.checkDriverProbe(Long.parseLong(options.get("--driver-pid")));
      check.checkTaskPlacement(Path.of(options.get("--placement")));
    } finally {
      check.catalogs.close();
    }
    System.out.printf("cluster: %d passed, %d failed%n", check.passed, check.failures.size());
    if (!check.failures.isEmpty()) {
      System.exit(1);
    }
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--dump")) {
        options.put("--dump", "");
      } else if (args[i].startsWith("--") && i + 1 < args.length) {
        options.put(args[i], args[++i]);
      } else {
        throw new IllegalArgumentException("Unexpected argument " + args[i]);
      }
    }
    return options;
  }

  private Table load(String path) {
    ResolvedTable resolved = resolver.resolve(DatasetPath.of(path));
    return catalogs.catalog(resolved.catalog()).loadTable(resolved.identifier());
  }

  private static List<String> rows(Table table, List<String> columns) {
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<org.apache.iceberg.data.Record> records = IcebergGenerics.read(table).select(columns).build()) {
      for (org.apache.iceberg.data.Record record : records) {
        List<String> values = new ArrayList<>();
        columns.forEach(c -> values.add(String.valueOf(record.getField(c))));
        rows.add(String.join("|", values));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    rows.sort(null);
    return rows;
  }

  private void dump(int round, ExpectedTable table) {
    System.out.println("round " + round + " " + table.path() + " " + String.join(",", table.columns()));
    rows(load(table.path()), table.columns()).forEach(System.out::println);
    System.out.println();
  }

  private void checkTable(ExpectedTable expected) {
    String path = expected.path();
    Table table;
    try {
      table = load(path);
    } catch (RuntimeException e) {
      fail(path + ": cannot load: " + e);
      return;
    }
    check(table.location().startsWith("s3://"), path + ": table location " + table.location() + " is on s3://");
    int files = 0;
    boolean allOnObjectStorage = true;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        String location = task.file().location();
        files++;
        allOnObjectStorage &= location.startsWith("s3://") && table.io().newInputFile(location).exists();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    check(files > 0 && allOnObjectStorage, path + ": all " + files + " data files exist on s3://");
    List<String> actual = rows(table, expected.columns());
    if (actual.equals(expected.rows())) {
      pass(path + ": " + actual.size() + " rows as expected");
    } else {
      fail(path + ": rows (" + String.join(",", expected.columns()) + ") differ\n    expected " + expected.rows()
          + "\n    actual   " + actual);
    }
  }

  private void checkDriverProbe(long driverPid) {
    List<String> rows = rows(load(DriverProbe.OUTPUT), List.of("pid", "main_class", "input_rows"));
    check(rows.size() == 1, DriverProbe.OUTPUT + ": one probe row " + rows);
    if (rows.size() == 1) {
      String[] row = rows.get(0).split("\\|");
      check(Long.parseLong(row[0]) == driverPid,
          "the single-node transform ran in the spark-submit process (pid " + row[0] + ", driver " + driverPid + ")");
      check(row[1].equals("org.apache.spark.deploy.SparkSubmit"),
          "the single-node transform's JVM is spark-submit's (" + row[1] + ")");
      check(Long.parseLong(row[2]) > 0, "the single-node transform read " + row[2] + " rows that executors wrote");
    }
  }

  private void checkTaskPlacement(Path file) {
    Map<String, Long> tasks = new LinkedHashMap<>();
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        int equals = line.indexOf('=');
        if (equals > 0) {
          tasks.put(line.substring(0, equals), Long.parseLong(line.substring(equals + 1)));
        }
      }
    } catch (IOException e) {
      fail("task placement file " + file + " cannot be read: " + e);
      return;
    }
    check(!tasks.containsKey("driver") && tasks.size() >= 2,
        "Spark tasks ran on " + tasks.size() + " executors and none in the driver " + tasks);
  }

  private void check(boolean ok, String what) {
    if (ok) {
      pass(what);
    } else {
      fail(what);
    }
  }

  private void pass(String what) {
    passed++;
    System.out.println("PASS " + what);
  }

  private void fail(String what) {
    failures.add(what);
    System.out.println("FAIL " + what);
  }

  /** One output's expected rows in one round, from {@code expected-rows.txt}. */
  record ExpectedTable(String path, List<String> columns, List<String> rows) {

    /**
     * The expectations of a round. The file holds blocks of a header line
     * {@code round N PATH COLUMN,COLUMN...} and the rows, values joined by {@code |}, ended by a blank
     * line; {@code #} starts a comment.
     */
    static List<ExpectedTable> load(int round) {
      String text;
      try (InputStream in = ClusterCheck.class.getResourceAsStream("/expected-rows.txt")) {
        text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      List<ExpectedTable> tables = new ArrayList<>();
      ExpectedTable current = null;
      for (String line : (text + "\n").split("\n", -1)) {
        if (line.startsWith("#")) {
          continue;
        }
        if (line.startsWith("round ")) {
          String[] header = line.split(" ");
          current = Integer.parseInt(header[1]) == round
              ? new ExpectedTable(header[2], List.of(header[3].split(",")), new ArrayList<>()) : null;
        } else if (line.isBlank()) {
          if (current != null) {
            current.rows().sort(null);
            tables.add(current);
          }
          current = null;
        } else if (current != null) {
          current.rows().add(line);
        }
      }
      return tables;
    }
  }
}
