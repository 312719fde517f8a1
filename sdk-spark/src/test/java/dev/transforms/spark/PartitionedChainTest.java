package dev.transforms.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.days;
import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.Incremental;
import dev.transforms.api.Input;
import dev.transforms.api.ReadMode;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import org.apache.spark.sql.DataFrameWriterV2;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.junit.jupiter.api.Test;

/**
 * The partitioned incremental write scenario (writeTo().append() when incremental,
 * partitionedBy(days(...)).createOrReplace() otherwise), chained with an incremental reader of its
 * output: that output has write-audit-publish enabled by then, and is read by snapshot while another
 * staging branch is active.
 */
public class PartitionedChainTest extends SparkTestBase {

  static final String EVENTS = "/Chain/raw/events";
  static final String DAILY = "/Chain/clean/events-by-day";
  static final String COPY = "/Chain/clean/events-copy";

  static volatile long previousRows;

  static void partitionByDay(SparkTransformContext ctx, IncrementalTransformInput source,
      TableTransformOutput output) throws NoSuchTableException {
    DataFrameWriterV2<Row> writer = source.dataframe().writeTo(output.identifier());
    if (ctx.isIncremental()) {
      writer.append();
    } else {
      writer.partitionedBy(days(col("created_at"))).createOrReplace();
    }
  }

  /** Writes the input partitioned by day. */
  public static class ByDayV1 {
    @Incremental
    @Transform(name = "partition-by-day")
    public void run(SparkTransformContext ctx, @Input(EVENTS) IncrementalTransformInput source,
        @TableOutput(DAILY) TableTransformOutput output) throws NoSuchTableException {
      partitionByDay(ctx, source, output);
    }
  }

  /** The same, logic version 2. */
  public static class ByDayV2 {
    @Incremental(semanticVersion = 2)
    @Transform(name = "partition-by-day")
    public void run(SparkTransformContext ctx, @Input(EVENTS) IncrementalTransformInput source,
        @TableOutput(DAILY) TableTransformOutput output) throws NoSuchTableException {
      partitionByDay(ctx, source, output);
    }
  }

  /** Copies what was added to the partitioned table. */
  public static class CopyDaily {
    @Incremental
    @Transform(name = "copy-daily")
    public void run(SparkTransformContext ctx, @TableInput(DAILY) IncrementalTransformInput daily,
        @TableOutput(COPY) TableTransformOutput copy) {
      previousRows = daily.dataframe(ReadMode.PREVIOUS).count();
      copy.writeDataFrame(daily.dataframe());
    }
  }

  private static TransformResult result(BuildReport report, String name) {
    TransformResult result = report.result(name).orElseThrow();
    assertThat(result.status()).as(report.format() + result.error()).isEqualTo(TransformResult.Status.SUCCEEDED);
    return result;
  }

  @Test
  void partitionedOutputsBuildIncrementallyAndReplaceOnTheStagingBranch() {
    createTable(EVENTS, "id BIGINT, created_at TIMESTAMP",
        "1, TIMESTAMP '2026-04-01 10:00:00'", "2, TIMESTAMP '2026-04-02 11:00:00'");

    BuildReport first = build(ByDayV1.class, CopyDaily.class);
    assertThat(result(first, "partition-by-day").incremental()).isFalse();
    assertThat(result(first, "copy-daily").incremental()).isFalse();
    assertThat(table(DAILY).spec().fields()).hasSize(1);
    assertThat(table(DAILY).spec().fields().get(0).transform().toString()).isEqualTo("day");

    insert(EVENTS, "3, TIMESTAMP '2026-04-02 12:00:00'");
    BuildReport second = build(ByDayV1.class, CopyDaily.class);
    assertThat(result(second, "partition-by-day").incremental()).isTrue();
    TransformResult copy = result(second, "copy-daily");
    assertThat(copy.incremental()).as(copy.reason()).isTrue();
    assertThat(previousRows).isEqualTo(2);
    // Staging needs no table switch: nothing but the published state is left on the output.
    assertThat(table(DAILY).properties()).doesNotContainKey("write.wap.enabled")
        .containsKey("transforms.state.build-id");
    assertThat(rows(COPY)).containsExactly("[1,2026-04-01 10:00:00.0]", "[2,2026-04-02 11:00:00.0]",
        "[3,2026-04-02 12:00:00.0]");
    assertThat(table(COPY).currentSnapshot().summary()).containsEntry("added-records", "1");

    // A new logic version rebuilds in full: createOrReplace on the existing, partitioned output becomes
    // an overwrite on the staging branch, so the copy downstream sees an overwrite and rebuilds in full.
    long before = mainSnapshot(DAILY);
    BuildReport third = build(ByDayV2.class, CopyDaily.class);
    assertThat(result(third, "partition-by-day").incremental()).isFalse();
    assertThat(result(third, "copy-daily").incremental()).isFalse();
    assertThat(table(DAILY).snapshot(mainSnapshot(DAILY)).parentId()).isEqualTo(before);
    assertThat(table(DAILY).currentSnapshot().operation()).isEqualTo("overwrite");
    assertThat(rows(DAILY)).hasSize(3);
    assertThat(rows(COPY)).hasSize(3);
  }
}
