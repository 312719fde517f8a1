package dev.transforms.benchmarks;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.build.BuildOptions;
import dev.transforms.runtime.internal.build.BuildRunner;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.validate.ReflectiveModels;
import dev.transforms.spark.SparkSessions;
import dev.transforms.spark.TableTransformInput;
import dev.transforms.spark.TableTransformOutput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * What advisories cost a Spark build: the same two-transform pipeline built with {@code advisories=off}
 * (no listener, no tag, no plan walk) and {@code advisories=warn} (every execution's plans inspected on
 * the listener thread, the bus drained at the end of each transform, the staged snapshots' file sizes
 * read), the two alternating build by build on one warehouse and one Spark context.
 */
public final class AdvisoriesBenchmark {

  static final String INPUT = "/bench/advice/events";
  static final String DAILY = "/bench/advice/daily";
  static final String PAID = "/bench/advice/paid";

  /** Filters and derives columns, with a driver-side count, then aggregates. */
  public static class Pipeline {
    @Transform
    public void paid(@TableInput(INPUT) TableTransformInput events, @TableOutput(PAID) TableTransformOutput paid) {
      Dataset<Row> rows = events.dataframe().filter(col("status").equalTo("paid"))
          .withColumn("net", col("amount").multiply(lit(0.8))).withColumn("day", col("id").mod(lit(30)));
      if (rows.limit(1).count() > 0) {
        paid.writeDataFrame(rows);
      }
    }

    @Transform
    public void daily(@TableInput(PAID) TableTransformInput paid, @TableOutput(DAILY) TableTransformOutput daily) {
      daily.writeDataFrame(paid.dataframe().groupBy("day").agg(count(lit(1)).as("orders"), sum("net").as("net")));
    }
  }

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 15;
    Path root = Files.createTempDirectory("transforms-advice-bench");
    Harness.deleteOnExit(root);
    TransformsConfig off = config(root, "off");
    TransformsConfig warn = config(root, "warn");
    Files.createDirectories(off.warehouse());
    SparkSession parent = SparkSessions.builder(off).master("local[2]")
        .config("spark.sql.shuffle.partitions", "2").getOrCreate();
    SparkSession spark = SparkSessions.forBuild(parent, off);
    try (BuildRunner quiet = new BuildRunner(off); BuildRunner advised = new BuildRunner(warn)) {
      String input = quiet.resolver().resolve(dev.transforms.runtime.DatasetPath.of(INPUT)).sparkIdentifier();
      spark.sql("CREATE NAMESPACE IF NOT EXISTS `local`.`bench`.`advice`");
      spark.sql("CREATE TABLE " + input + " USING iceberg AS SELECT id, CASE WHEN id % 3 = 0 THEN 'paid' ELSE 'open' END"
          + " AS status, id * 1.5 AS amount FROM range(" + rows + ")");
      BuildPlan plan = BuildPlan.of(ReflectiveModels.transformsOf(Pipeline.class));
      Runnable withoutAdvice = () -> check(quiet.run(plan, BuildListener.NONE, BuildOptions.forcing(plan)), false);
      Runnable withAdvice = () -> check(advised.run(plan, BuildListener.NONE, BuildOptions.forcing(plan)), true);
      for (int i = 0; i < 5; i++) {
        withoutAdvice.run();
        withAdvice.run();
      }
      long[] before = dev.transforms.spark.internal.advice.SparkAdvice.cost();
      double[] a = new double[runs];
      double[] b = new double[runs];
      for (int i = 0; i < runs; i++) {
        if (i % 2 == 0) {
          a[i] = Harness.time(withoutAdvice);
          b[i] = Harness.time(withAdvice);
        } else {
          b[i] = Harness.time(withAdvice);
          a[i] = Harness.time(withoutAdvice);
        }
      }
      long[] after = dev.transforms.spark.internal.advice.SparkAdvice.cost();
      double[] pairs = new double[runs];
      for (int i = 0; i < runs; i++) {
        pairs[i] = b[i] / a[i];
      }
      java.util.Arrays.sort(pairs);
      java.util.Arrays.sort(a);
      java.util.Arrays.sort(b);
      System.out.printf("rows in input: %d, builds of two transforms per case: %d%n", rows, runs);
      Harness.header();
      Harness.row("build, advisories=off", a);
      Harness.row("build, advisories=warn", b);
      System.out.printf("ratio of medians (warn / off): %.3f%n", Harness.median(b) / Harness.median(a));
      System.out.printf("advisories' own time per warn build: %.2f ms inspecting plans (listener thread), "
          + "%.2f ms waiting for the listener (build thread)%n", (after[0] - before[0]) / 1e6 / runs,
          (after[1] - before[1]) / 1e6 / runs);
      System.out.printf("median of the ratios of back-to-back pairs (warn / off): %.3f%n", Harness.median(pairs));
    } finally {
      parent.stop();
    }
  }

  private static TransformsConfig config(Path root, String level) throws java.io.IOException {
    Path folder = Files.createDirectories(root.resolve(level));
    Path file = folder.resolve(TransformsConfig.FILE_NAME);
    Files.writeString(file, "advisories=" + level + "\n");
    return TransformsConfig.load(Optional.of(file), Optional.of(root.resolve("warehouse")), Map.of(), folder);
  }

  private static void check(BuildReport report, boolean advised) {
    if (!report.succeeded()) {
      throw new IllegalStateException(report.format());
    }
    if (!advised && !report.advisories().isEmpty()) {
      throw new IllegalStateException("advisories under level off: " + report.advisories());
    }
  }
}
