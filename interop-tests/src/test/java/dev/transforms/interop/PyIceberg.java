package dev.transforms.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.OutputStreamWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.spark.sql.SparkSession;

/** Runs {@code interop/pyiceberg_check.py} with the Python of the interop virtual environment. */
final class PyIceberg {
  private final String python;
  private final String script;
  private final Path warehouse;
  private final Map<String, String> catalogProperties;

  PyIceberg(String python, String script, Path warehouse) {
    this(python, script, warehouse, Map.of());
  }

  /**
   * The script on a catalog whose properties (PyIceberg's names) replace or add to its own: a warehouse
   * on an object store and the store's endpoint and credentials ({@link ObjectStore#pyIcebergCatalog}).
   * The catalog's SQLite file and the files the commands exchange stay in the local folder.
   */
  PyIceberg(String python, String script, Path warehouse, Map<String, String> catalogProperties) {
    this.python = python;
    this.script = script;
    this.warehouse = warehouse;
    this.catalogProperties = Map.copyOf(catalogProperties);
  }

  /** The Python given with -Dinterop.python, or null when the test runs without one. */
  static String configuredPython() {
    String python = System.getProperty("interop.python", "");
    return python.isBlank() || python.startsWith("${") ? null : python;
  }

  /** The name of the catalog the script and the tests share. */
  static final String CATALOG = "interop";

  /** The JDBC URI of the SQLite catalog in the warehouse folder, which the script opens too. */
  String catalogUri() {
    return "jdbc:sqlite:" + warehouse.resolve("catalog.db");
  }

  /** Opens the catalog the script uses, as a Java {@link JdbcCatalog}; the caller closes it. */
  JdbcCatalog openCatalog() {
    JdbcCatalog catalog = new JdbcCatalog();
    catalog.setConf(new Configuration());
    catalog.initialize(CATALOG, Map.of(
        CatalogProperties.URI, catalogUri(),
        CatalogProperties.WAREHOUSE_LOCATION, warehouse.toUri().toString(),
        "jdbc.schema-version", "V1",
        "jdbc.busy_timeout", "10000"));
    return catalog;
  }

  /**
   * A local Spark session (one core, loopback, no UI) with Iceberg's extensions and the shared catalog
   * as {@link #CATALOG}, not caching tables, so that it sees what the script and the SDK commit.
   */
  SparkSession sparkSession() {
    String catalog = "spark.sql.catalog." + CATALOG;
    return SparkSession.builder().master("local[1]").appName("interop")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.sql.extensions", "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
        .config(catalog, "org.apache.iceberg.spark.SparkCatalog")
        .config(catalog + ".type", "jdbc")
        .config(catalog + ".uri", catalogUri())
        .config(catalog + ".warehouse", warehouse.toUri().toString())
        .config(catalog + ".jdbc.schema-version", "V1")
        .config(catalog + ".jdbc.busy_timeout", "10000")
        .config(catalog + ".cache-enabled", "false")
        .getOrCreate();
  }

  /**
   * What runs the script's commands: {@code py::run}, a process each, or {@code server::run}, one process for
   * many ({@link Server}).
   */
  @FunctionalInterface
  interface Commands {
    /** Runs a command and returns its output lines; fails with the output unless it succeeds. */
    List<String> run(String command, String... args);
  }

  /** Runs a command and returns its output lines; fails with the output unless it exits 0. */
  List<String> run(String command, String... args) {
    List<String> line = new ArrayList<>(List.of(python, script, command, warehouse.toString()));
    line.addAll(List.of(args));
    try {
      Process process = processBuilder(line).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("PyIceberg %s finished", command).isTrue();
      assertThat(process.exitValue()).as("PyIceberg %s %s said:%n%s", command, List.of(args), output).isZero();
      return output.lines().filter(l -> !l.isBlank()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private ProcessBuilder processBuilder(List<String> line) {
    ProcessBuilder builder = new ProcessBuilder(line).redirectErrorStream(true);
    if (!catalogProperties.isEmpty()) {
      builder.environment().put("INTEROP_CATALOG_PROPERTIES", Canonical.json(new TreeMap<>(catalogProperties)));
    }
    return builder;
  }

  /**
   * Starts the script's {@code serve} command: one Python process that answers many commands, so that
   * each does not pay for starting Python and importing PyIceberg (about a second).
   *
   * @return the process; close it to end it
   */
  Server serve() {
    try {
      Process process = processBuilder(List.of(python, script, "serve", warehouse.toString())).start();
      return new Server(process);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A running {@code serve} process: {@link #run} sends it one command and waits for its answer. */
  static final class Server implements AutoCloseable {
    private static final String DONE = "@@done ";
    private final Process process;
    private final Writer commands;
    private final BufferedReader answers;

    private Server(Process process) {
      this.process = process;
      this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
      this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Runs a command as {@link PyIceberg#run} does; fails with its output unless it answers status 0. */
    List<String> run(String command, String... args) {
      List<Object> line = new ArrayList<>(List.of(command));
      line.addAll(List.of(args));
      List<String> output = new ArrayList<>();
      try {
        commands.write(Canonical.json(line) + "\n");
        commands.flush();
        for (String answer = answers.readLine(); ; answer = answers.readLine()) {
          assertThat(answer).as("PyIceberg %s %s answered before it ended:%n%s", command, List.of(args),
              String.join("\n", output)).isNotNull();
          if (answer.startsWith(DONE)) {
            assertThat(answer.substring(DONE.length())).as("PyIceberg %s %s said:%n%s", command, List.of(args),
                String.join("\n", output)).isEqualTo("0");
            return output;
          } else if (!answer.isBlank()) {
            output.add(answer);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void close() throws InterruptedException {
      try {
        commands.close(); // the script ends when its input does
      } catch (IOException e) {
        // it has ended already
      }
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  /** Writes JSON text to a new file in the warehouse folder and returns its path. */
  Path file(String name, String json) {
    try {
      Path file = warehouse.resolve(name);
      Files.writeString(file, json);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
