package dev.transforms.benchmarks;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

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
import org.apache.spark.sql.SparkSession;

/**
 * The Spark engine's cost per transform against a hand-written Spark job doing the same work in the
 * same session: read a table, filter it, replace another table's rows. The engine adds resolution,
 * validation, staging on a branch, commit stamping and the fast-forward; the job writes straight to
 * {@code main}. Cases alternate run by run so both see the same machine.
 */
public final class SparkEngineBenchmark {

  static final String INPUT = "/bench/spark/events";
  static final String OUTPUT = "/bench/spark/paid";

  /** The transform under test. */
  public static class FilterPaid {
    @Transform
    public void filterPaid(@TableInput(INPUT) TableTransformInput events,
        @TableOutput(OUTPUT) TableTransformOutput paid) {
      paid.writeDataFrame(events.dataframe().filter(col("status").equalTo("paid")));
    }
  }

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 15;
    Path warehouse = Files.createTempDirectory("transforms-spark-bench");
    Harness.deleteOnExit(warehouse);
    TransformsConfig config = TransformsConfig.embedded(warehouse.resolve("warehouse"));
    Files.createDirectories(config.warehouse());
    SparkSession parent = SparkSessions.builder(config).master("local[2]")
        .config("spark.sql.shuffle.partitions", "2").getOrCreate();
    SparkSession spark = SparkSessions.forBuild(parent, config);
    try (BuildRunner runner = new BuildRunner(config)) {
      String input = runner.resolver().resolve(dev.transforms.runtime.DatasetPath.of(INPUT)).sparkIdentifier();
      String handOutput = "`local`.`bench`.`spark`.`paid-by-hand`";
      spark.sql("CREATE NAMESPACE IF NOT EXISTS `local`.`bench`.`spark`");
      spark.sql("CREATE TABLE " + input + " USING iceberg AS SELECT id, CASE WHEN id % 3 = 0 THEN 'paid' ELSE 'open' END"
          + " AS status, id * 1.5 AS amount FROM range(" + rows + ")");
      spark.sql("CREATE TABLE " + handOutput + " USING iceberg AS SELECT * FROM " + input + " WHERE false");
      BuildPlan plan = BuildPlan.of(ReflectiveModels.transformsOf(FilterPaid.class));
      // First build creates the output; measured builds replace it, like the hand-written job.
      check(runner.run(plan, BuildListener.NONE, BuildOptions.forcing(plan)));

      Runnable byHand = () -> {
        try {
          spark.sql("REFRESH TABLE " + input);
          spark.table(input).filter(col("status").equalTo("paid")).writeTo(handOutput).overwrite(lit(true));
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      };
      Runnable engine = () -> check(runner.run(plan, BuildListener.NONE, BuildOptions.forcing(plan)));
      for (int i = 0; i < 5; i++) {
        byHand.run();
        engine.run();
      }
      double[] hand = new double[runs];
      double[] sdk = new double[runs];
      for (int i = 0; i < runs; i++) {
        hand[i] = Harness.time(byHand);
        sdk[i] = Harness.time(engine);
      }
      java.util.Arrays.sort(hand);
      java.util.Arrays.sort(sdk);
      System.out.printf("Spark %s (Scala %s), Java %s; rows in input: %d, paid rows written per run: %d%n",
          spark.version(), scala.util.Properties.versionNumberString(), System.getProperty("java.version"), rows,
          (rows + 2) / 3);
      Harness.header();
      Harness.row("hand-written Spark job (read, filter, overwrite)", hand);
      Harness.row("same work as a transform through the runtime", sdk);
      System.out.printf("ratio of medians (transform / hand-written): %.2f%n", Harness.median(sdk) / Harness.median(hand));
    } finally {
      parent.stop();
    }
  }


  private static void check(BuildReport report) {
    if (!report.succeeded()) {
      throw new IllegalStateException(report.format());
    }
  }
}
