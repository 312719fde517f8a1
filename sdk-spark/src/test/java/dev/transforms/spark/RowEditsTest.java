package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;

public class RowEditsTest extends SparkTestBase {

  static final String UPDATES = "/Examples/iceberg/row-updates";
  static final String EDITED = "/Examples/iceberg/edited-spark";

  /** The row-edits scenario: seed the output on the first build, then merge, delete and update in place. */
  public static class RowEdits {
    @Transform(name = "edit-rows")
    public void editRows(SparkTransformContext ctx, @TableInput(UPDATES) TableTransformInput updates,
        @TableOutput(EDITED) TableTransformOutput output) {
      if (!ctx.sparkSession().catalog().tableExists(output.identifier())) {
        output.writeDataFrame(updates.dataframe());
        return;
      }
      ctx.sparkSession().sql("MERGE INTO " + output.identifier() + " AS t USING " + updates.identifier()
          + " AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
      ctx.sparkSession().sql("DELETE FROM " + output.identifier() + " WHERE as_of < '2026-04-01'");
      ctx.sparkSession().sql("UPDATE " + output.identifier() + " SET status = 'Archived' WHERE status = 'Stale'");
    }
  }

  @Test
  void firstBuildSeedsTheOutputAndLaterBuildsEditRowsInPlace() {
    createTable(UPDATES, "id BIGINT, as_of DATE, status STRING",
        "1, DATE '2026-03-15', 'Active'", "2, DATE '2026-04-10', 'Stale'", "3, DATE '2026-04-20', 'Active'");

    BuildReport first = build(RowEdits.class);
    assertThat(first.succeeded()).as(first.format()).isTrue();
    assertThat(rows(EDITED)).containsExactly(
        "[1,2026-03-15,Active]", "[2,2026-04-10,Stale]", "[3,2026-04-20,Active]");
    assertThat(only(first).outputs().get(0).created()).isTrue();

    sql("DELETE FROM " + id(UPDATES));
    insert(UPDATES, "2, DATE '2026-04-12', 'Stale'", "4, DATE '2026-03-01', 'Active'", "5, DATE '2026-05-01', 'Stale'");
    long before = mainSnapshot(EDITED);

    BuildReport second = build(RowEdits.class);
    assertThat(second.succeeded()).as(second.format()).isTrue();
    assertThat(rows(EDITED)).containsExactly(
        "[2,2026-04-12,Archived]", "[3,2026-04-20,Active]", "[5,2026-05-01,Archived]");

    // The three statements landed on the staging branch and reached main in one fast-forward, the head
    // the table carrying the build's state; the branch is gone.
    Table edited = table(EDITED);
    assertThat(edited.refs()).containsOnlyKeys("main");
    Snapshot head = edited.currentSnapshot();
    assertThat(head.summary()).containsEntry(IncrementalState.SUMMARY_BUILD_ID, second.buildId())
        .containsEntry(IncrementalState.SUMMARY_TRANSFORM, "edit-rows");
    assertThat(edited.properties()).containsEntry(IncrementalState.BUILD_ID, second.buildId())
        .containsEntry(IncrementalState.TRANSFORM, "edit-rows")
        .containsEntry(IncrementalState.INPUT_PREFIX + UPDATES, Long.toString(mainSnapshot(UPDATES)))
        .containsEntry(IncrementalState.SNAPSHOT_ID, Long.toString(head.snapshotId()));
    List<String> operations = new java.util.ArrayList<>();
    for (Snapshot s = head; s != null && s.snapshotId() != before; s = edited.snapshot(s.parentId())) {
      operations.add(s.operation());
    }
    assertThat(operations).hasSize(3);
    TransformResult result = only(second);
    assertThat(result.outputs().get(0).snapshots()).isEqualTo(3);
  }
}
