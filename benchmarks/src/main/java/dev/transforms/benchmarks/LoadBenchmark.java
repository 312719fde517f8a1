package dev.transforms.benchmarks;

import static org.apache.spark.sql.functions.lit;

import dev.transforms.cli.TransformsCli;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.spark.SparkSessions;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * {@code transforms load} of a CSV file with declared columns against Spark {@code local[*]} reading the
 * same file with the same declared schema and writing it to an Iceberg table, in one JVM, the two
 * alternating run by run. Both replace every row of a table that exists (created by the warm-up), so
 * each run reads the whole file, writes it as Parquet and commits once.
 *
 * <p>The load runs through the command line in this JVM ({@link TransformsCli#execute}), as
 * {@code transforms load PATH FILE --schema ... --mode replace}: configuration, catalog, staging branch,
 * lease and publish included, the JVM's start excluded (as the Spark session's start is).
 */
public final class LoadBenchmark {

  static final String LOADED = "/bench/load/orders-load";
  static final String SPARK = "/bench/load/orders-spark";
  static final String COLUMNS = "order_id long, customer string, amount decimal(10,2), status string, "
      + "created_at timestamp, as_of date";
  static final String SPARK_COLUMNS = "order_id BIGINT, customer STRING, amount DECIMAL(10,2), status STRING, "
      + "created_at TIMESTAMP_NTZ, as_of DATE";

  private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    Path dir = Files.createTempDirectory("transforms-load-bench");
    Harness.deleteOnExit(dir);
    Path csv = dir.resolve("orders.csv");
    writeCsv(csv, rows);
    TransformsConfig config = TransformsConfig.embedded(dir.resolve("warehouse"));
    Files.createDirectories(config.warehouse());
    SparkSession parent = SparkSessions.builder(config).master("local[*]").getOrCreate();
    SparkSession spark = SparkSessions.forBuild(parent, config);
    try {
      String sparkTable = new TableResolver(config).resolve(DatasetPath.of(SPARK)).sparkIdentifier();
      StructType schema = StructType.fromDDL(SPARK_COLUMNS);
      Runnable load = () -> cli(dir, "load", LOADED, csv.toString(), "--schema", COLUMNS, "--mode", "replace");
      Runnable bySpark = () -> {
        try {
          spark.read().schema(schema).option("header", "true").option("mode", "FAILFAST").csv(csv.toString())
              .writeTo(sparkTable).overwrite(lit(true));
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      };
      // Warm-up: creates both tables with the same columns, then two runs of each.
      cli(dir, "load", LOADED, csv.toString(), "--schema", COLUMNS);
      spark.sql("CREATE NAMESPACE IF NOT EXISTS `local`.`bench`.`load`");
      spark.read().schema(schema).option("header", "true").csv(csv.toString()).writeTo(sparkTable).create();
      for (int i = 0; i < 2; i++) {
        load.run();
        bySpark.run();
      }
      double[] sdk = new double[runs];
      double[] sparkRuns = new double[runs];
      for (int i = 0; i < runs; i++) {
        sdk[i] = Harness.time(load);
        sparkRuns[i] = Harness.time(bySpark);
      }
      Arrays.sort(sdk);
      Arrays.sort(sparkRuns);
      long loaded = spark.table(new TableResolver(config).resolve(DatasetPath.of(LOADED)).sparkIdentifier()).count();
      long written = spark.table(sparkTable).count();
      System.out.printf("CSV: %,d rows, %.1f MB, columns %s; rows in the tables: load %,d, Spark %,d; cores %d%n",
          rows, Files.size(csv) / 1e6, COLUMNS, loaded, written, Runtime.getRuntime().availableProcessors());
      Harness.header();
      Harness.row("transforms load --mode replace (single node)", sdk);
      Harness.row("Spark local[*]: read csv with schema, overwrite", sparkRuns);
      System.out.printf("ratio of medians (load / Spark): %.2f%n", Harness.median(sdk) / Harness.median(sparkRuns));
    } finally {
      parent.stop();
    }
  }

  /** A CSV file of orders: ids in order, 1,000 customers, amounts with cents, dates across a year. */
  static void writeCsv(Path file, int rows) throws IOException {
    String[] statuses = {"paid", "open", "cancelled", "refunded"};
    LocalDateTime start = LocalDateTime.of(2026, 1, 1, 0, 0);
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write("order_id,customer,amount,status,created_at,as_of\n");
      for (int i = 0; i < rows; i++) {
        LocalDateTime created = start.plusSeconds(i * 31L);
        LocalDate asOf = created.toLocalDate();
        out.write(i + ",customer-" + (i % 1000) + "," + (i % 100_000) / 100 + "." + String.format("%02d", i % 100) + ","
            + statuses[i % statuses.length] + "," + SECONDS.format(created) + "," + asOf + "\n");
      }
    }
  }

  private static void cli(Path dir, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = TransformsCli.execute(new TransformsCli(Map.of(), dir), new PrintWriter(out, true),
        new PrintWriter(err, true), args);
    if (code != 0) {
      throw new IllegalStateException("transforms " + String.join(" ", args) + " exited " + code + ":\n" + out + err);
    }
  }

}
