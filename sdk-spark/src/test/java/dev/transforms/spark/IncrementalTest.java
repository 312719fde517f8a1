package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.Incremental;
import dev.transforms.api.ReadMode;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import java.util.Map;
import org.junit.jupiter.api.Test;

public class IncrementalTest extends SparkTestBase {

  static final String EVENTS = "/Inc/source/events";
  static final String COPY = "/Inc/derived/events-copy";

  /** What the last run saw, for the test to check. */
  static volatile boolean sawIncremental;
  static volatile long added;
  static volatile long current;
  static volatile long previous;

  static void copy(SparkTransformContext ctx, IncrementalTransformInput events, TableTransformOutput out) {
    sawIncremental = ctx.isIncremental();
    added = events.dataframe().count();
    current = events.dataframe(ReadMode.CURRENT).count();
    previous = events.dataframe(ReadMode.PREVIOUS).count();
    out.writeDataFrame(events.dataframe());
  }

  /** Copies the rows added to the input. */
  public static class CopyV1 {
    @Incremental
    @Transform(name = "copy-events")
    public void copyEvents(SparkTransformContext ctx, @TableInput(EVENTS) IncrementalTransformInput events,
        @TableOutput(COPY) TableTransformOutput out) {
      copy(ctx, events, out);
    }
  }

  /** The same transform with its logic version bumped. */
  public static class CopyV2 {
    @Incremental(semanticVersion = 2)
    @Transform(name = "copy-events")
    public void copyEvents(SparkTransformContext ctx, @TableInput(EVENTS) IncrementalTransformInput events,
        @TableOutput(COPY) TableTransformOutput out) {
      copy(ctx, events, out);
    }
  }

  @Test
  void appendsBuildIncrementallyAndAnythingElseBuildsInFull() {
    createTable(EVENTS, "id BIGINT, kind STRING", "1, 'a'", "2, 'b'", "3, 'c'");

    // Build 1: no output yet, full.
    TransformResult first = only(build(CopyV1.class));
    assertThat(first.status()).as(String.valueOf(first.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(first.incremental()).isFalse();
    assertThat(sawIncremental).isFalse();
    assertThat(rows(COPY)).containsExactly("[1,a]", "[2,b]", "[3,c]");

    // Build 2: two rows appended, incremental: only they are read and appended.
    insert(EVENTS, "4, 'd'", "5, 'e'");
    long inputSnapshot = mainSnapshot(EVENTS);
    TransformResult second = only(build(CopyV1.class));
    assertThat(second.status()).as(String.valueOf(second.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(second.incremental()).as(second.reason()).isTrue();
    assertThat(sawIncremental).isTrue();
    assertThat(added).isEqualTo(2);
    assertThat(current).isEqualTo(5);
    assertThat(previous).isEqualTo(3);
    assertThat(rows(COPY)).containsExactly("[1,a]", "[2,b]", "[3,c]", "[4,d]", "[5,e]");
    Map<String, String> summary = table(COPY).currentSnapshot().summary();
    assertThat(table(COPY).currentSnapshot().operation()).isEqualTo("append");
    assertThat(summary).containsEntry("added-records", "2");
    assertThat(table(COPY).properties())
        .containsEntry(IncrementalState.INPUT_PREFIX + EVENTS, Long.toString(inputSnapshot))
        .containsEntry(IncrementalState.SEMANTIC_VERSION, "1");

    // Build 3: nothing new: up to date, nothing runs. Forced, it runs incrementally on no added row, and
    // its empty append publishes no snapshot.
    long published = mainSnapshot(COPY);
    TransformResult third = only(build(CopyV1.class));
    assertThat(third.status()).as(third.reason()).isEqualTo(TransformResult.Status.UP_TO_DATE);
    TransformResult forced = only(forced(CopyV1.class));
    assertThat(forced.incremental()).as(forced.reason()).isTrue();
    assertThat(added).isZero();
    assertThat(forced.outputs().get(0).snapshots()).isZero();
    assertThat(mainSnapshot(COPY)).isEqualTo(published);
    assertThat(rows(COPY)).hasSize(5);

    // Build 4: a delete in the input forces a full build, which replaces the output's rows.
    sql("DELETE FROM " + id(EVENTS) + " WHERE id = 1");
    TransformResult fourth = only(build(CopyV1.class));
    assertThat(fourth.status()).as(String.valueOf(fourth.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(fourth.incremental()).isFalse();
    assertThat(fourth.reason()).contains(EVENTS).contains("delete");
    assertThat(sawIncremental).isFalse();
    assertThat(rows(COPY)).containsExactly("[2,b]", "[3,c]", "[4,d]", "[5,e]");

    // Build 5: a semantic version bump forces a full build even though nothing changed.
    BuildReport fifth = build(CopyV2.class);
    TransformResult result = only(fifth);
    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(result.incremental()).isFalse();
    assertThat(result.reason()).contains("semantic version changed from 1 to 2");
    assertThat(added).isEqualTo(4);
    assertThat(rows(COPY)).containsExactly("[2,b]", "[3,c]", "[4,d]", "[5,e]");
    assertThat(table(COPY).properties()).containsEntry(IncrementalState.SEMANTIC_VERSION, "2")
        .containsEntry(IncrementalState.BUILD_ID, fifth.buildId());
    assertThat(table(COPY).currentSnapshot().summary()).containsEntry(IncrementalState.SUMMARY_BUILD_ID, fifth.buildId());
  }
}
