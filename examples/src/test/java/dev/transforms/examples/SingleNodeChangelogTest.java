package dev.transforms.examples;

import static dev.transforms.testing.TransformsAssertions.assertThatTable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import dev.transforms.singlenode.Changelog;
import dev.transforms.singlenode.edits.RowEdits;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;

@TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
class SingleNodeChangelogTest {

  TestWarehouse warehouse;

  @Test
  void eachBuildWritesTheInsertsUpdatesAndDeletesSinceTheLastOne() {
    warehouse.createTable(SingleNodeChangelog.UPDATES, SparkRowEditsTest.UPDATES,
        Row.of(1, "2026-04-01", "Active"), Row.of(2, "2026-04-02", "Active"), Row.of(3, "2026-04-03", "Active"));
    long first = warehouse.table(SingleNodeChangelog.UPDATES).currentSnapshot().snapshotId();

    warehouse.build(SingleNodeChangelog.class).assertSucceeded();
    assertThatTable(warehouse.table(SingleNodeChangelog.CHANGES))
        .hasColumns("id", "as_of", "status", "_change_type", "_change_ordinal", "_commit_snapshot_id")
        .containsExactlyInAnyOrder(
            Row.of(1L, LocalDate.of(2026, 4, 1), "Active", "INSERT", 0, first),
            Row.of(2L, LocalDate.of(2026, 4, 2), "Active", "INSERT", 0, first),
            Row.of(3L, LocalDate.of(2026, 4, 3), "Active", "INSERT", 0, first));

    // Row 1 unchanged (carried over by the rewrite), row 2 updated, row 3 deleted, row 4 new.
    warehouse.overwrite(SingleNodeChangelog.UPDATES,
        Row.of(1, "2026-04-01", "Active"), Row.of(2, "2026-04-02", "Stale"), Row.of(4, "2026-04-04", "Active"));
    long second = warehouse.table(SingleNodeChangelog.UPDATES).currentSnapshot().snapshotId();
    warehouse.append(SingleNodeChangelog.UPDATES, Row.of(5, "2026-04-05", "Active"));
    long third = warehouse.table(SingleNodeChangelog.UPDATES).currentSnapshot().snapshotId();

    warehouse.build(SingleNodeChangelog.class).assertSucceeded();
    assertThatTable(warehouse.table(SingleNodeChangelog.CHANGES)).containsExactlyInAnyOrder(
        Row.of(2L, LocalDate.of(2026, 4, 2), "Active", "UPDATE_BEFORE", 0, second),
        Row.of(2L, LocalDate.of(2026, 4, 2), "Stale", "UPDATE_AFTER", 0, second),
        Row.of(3L, LocalDate.of(2026, 4, 3), "Active", "DELETE", 0, second),
        Row.of(4L, LocalDate.of(2026, 4, 4), "Active", "INSERT", 0, second),
        Row.of(5L, LocalDate.of(2026, 4, 5), "Active", "INSERT", 1, third));

    // Nothing changed since: the transform is up to date, does not run, and its output keeps the changes
    // the last build found.
    long published = warehouse.table(SingleNodeChangelog.CHANGES).currentSnapshot().snapshotId();
    assertThat(warehouse.build(SingleNodeChangelog.class).assertSucceeded().only().status())
        .isEqualTo(dev.transforms.runtime.TransformResult.Status.UP_TO_DATE);
    assertThat(warehouse.table(SingleNodeChangelog.CHANGES).currentSnapshot().snapshotId()).isEqualTo(published);

    // Forced to run with no new snapshot (after a library upgrade, say), it writes nothing: the output keeps the
    // changes the last build found instead of being emptied.
    assertThat(warehouse.build(dev.transforms.Transforms.Selection.of(SingleNodeChangelog.class).force())
        .assertSucceeded().only().outputs().get(0).published()).isFalse();
    assertThat(warehouse.table(SingleNodeChangelog.CHANGES).currentSnapshot().snapshotId()).isEqualTo(published);
    assertThat(warehouse.build(SingleNodeChangelog.class).assertSucceeded().only().status())
        .isEqualTo(dev.transforms.runtime.TransformResult.Status.UP_TO_DATE);
  }

  @Test
  void aMergeOnReadInputIsReadWithItsDeleteFiles() {
    Table input = warehouse.createTable(SingleNodeChangelog.UPDATES, SparkRowEditsTest.UPDATES,
        PartitionSpec.unpartitioned(), Map.of("write.delete.mode", "merge-on-read", "write.update.mode", "merge-on-read"),
        List.of(Row.of(1, "2026-04-01", "Active"), Row.of(2, "2026-04-02", "Active")));
    long first = input.currentSnapshot().snapshotId();
    RowEdits.on(input).delete("id = 1");
    Table deleted = warehouse.table(SingleNodeChangelog.UPDATES);
    long second = deleted.currentSnapshot().snapshotId();
    assertThat(deleted.currentSnapshot().deleteManifests(deleted.io())).isNotEmpty();

    List<Changelog.Change> changes = Changelog.of(deleted).between(java.util.OptionalLong.of(first), second).changes();
    assertThat(changes).hasSize(1);
    assertThat(changes.get(0).type()).isEqualTo(Changelog.ChangeType.DELETE);
    assertThat(changes.get(0).row().getField("id")).isEqualTo(1L);
    assertThat(changes.get(0).snapshotId()).isEqualTo(second);
  }
}
