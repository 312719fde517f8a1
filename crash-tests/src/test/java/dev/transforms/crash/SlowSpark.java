package dev.transforms.crash;

import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.spark.SparkTransformContext;
import dev.transforms.spark.TableTransformOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;

/**
 * A Spark transform whose job runs for minutes: each of its rows takes a second. Before the job starts
 * it writes the file named by {@value #STARTED}, so that a test knows when to stop the process.
 */
public final class SlowSpark {

  /** The system property naming the file written when the job is about to start. */
  public static final String STARTED = "slow.started";

  /** The output. */
  public static final String OUTPUT = "/Slow/out/numbers";

  /**
   * Writes 600 numbers, a second each, on two cores.
   *
   * @param ctx the context
   * @param out the output
   */
  @Transform(name = "slow")
  public void slow(SparkTransformContext ctx, @TableOutput(OUTPUT) TableTransformOutput out) {
    try {
      Files.writeString(Path.of(System.getProperty(STARTED)), "started");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Dataset<Long> numbers = ctx.sparkSession().range(0, 600, 1, 2).map((MapFunction<Long, Long>) n -> {
      Thread.sleep(1_000);
      return n;
    }, Encoders.LONG());
    Dataset<Row> rows = numbers.toDF("n");
    out.writeDataFrame(rows);
  }
}
