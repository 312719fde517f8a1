package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * Spark transforms that run at once: each in a session of its own (a setting one changes is not seen
 * by the other), in a FAIR scheduler pool and a job group named after it, both writing their outputs
 * through the staging protocol.
 */
public class ParallelSparkTest extends SparkTestBase {

  static final Map<String, String> SEEN = new ConcurrentHashMap<>();
  static volatile CyclicBarrier together = new CyclicBarrier(2);

  /** Two transforms that meet while both run, each setting the shuffle partitions its own way. */
  public static class Pair {
    @Transform(name = "left")
    public void left(SparkTransformContext ctx, @TableInput("/par/in") TableTransformInput in,
        @TableOutput("/par/left") TableTransformOutput out) throws Exception {
      run(ctx, in, out, "left", "3");
    }

    @Transform(name = "right")
    public void right(SparkTransformContext ctx, @TableInput("/par/in") TableTransformInput in,
        @TableOutput("/par/right") TableTransformOutput out) throws Exception {
      run(ctx, in, out, "right", "5");
    }

    private static void run(SparkTransformContext ctx, TableTransformInput in, TableTransformOutput out, String name,
        String partitions) throws Exception {
      SparkSession session = ctx.sparkSession();
      session.conf().set("spark.sql.shuffle.partitions", partitions);
      together.await(60, TimeUnit.SECONDS);
      SEEN.put(name + ".session", Integer.toString(System.identityHashCode(session)));
      SEEN.put(name + ".pool", String.valueOf(session.sparkContext().getLocalProperty("spark.scheduler.pool")));
      SEEN.put(name + ".group", String.valueOf(session.sparkContext().getLocalProperty("spark.jobGroup.id")));
      out.writeDataFrame(in.dataframe().selectExpr("id", "'" + name + "' AS side"));
      together.await(60, TimeUnit.SECONDS);
      // After the other transform set its own value, this one still sees its own.
      SEEN.put(name + ".partitions", session.conf().get("spark.sql.shuffle.partitions"));
    }
  }

  @Test
  void transformsRunningAtOnceHaveSessionsPoolsAndJobGroupsOfTheirOwn() {
    createTable("/par/in", "id BIGINT", "1", "2");
    SEEN.clear();
    together = new CyclicBarrier(2);
    BuildReport report = runner.build(Transforms.Selection.of(Pair.class).threads(2));
    assertThat(report.succeeded()).as(report.format()).isTrue();
    assertThat(SEEN.get("left.session")).isNotEqualTo(SEEN.get("right.session"));
    assertThat(SEEN).containsEntry("left.partitions", "3").containsEntry("right.partitions", "5")
        .containsEntry("left.pool", "left").containsEntry("right.pool", "right")
        .containsEntry("left.group", "transforms-" + report.buildId() + "-left")
        .containsEntry("right.group", "transforms-" + report.buildId() + "-right");
    assertThat(rows("/par/left")).containsExactly("[1,left]", "[2,left]");
    assertThat(rows("/par/right")).containsExactly("[1,right]", "[2,right]");
    assertThat(table("/par/left").refs()).containsOnlyKeys("main");
    // The pools and groups are the transforms' threads' only: the test's thread has none.
    assertThat(spark.sparkContext().getLocalProperty("spark.scheduler.pool")).isNull();
    assertThat(report.results()).extracting(TransformResult::status).containsOnly(TransformResult.Status.SUCCEEDED);
  }
}
