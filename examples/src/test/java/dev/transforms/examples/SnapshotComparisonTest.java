package dev.transforms.examples;

import static dev.transforms.testing.TransformsAssertions.assertThatTable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.TransformResult;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

@TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
class SnapshotComparisonTest {

  static final Schema EVENTS = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()));

  TestWarehouse warehouse;

  @Test
  void theFirstBuildWritesEveryRowAndLaterBuildsOnlyRowsWithNewIds() {
    warehouse.createTable(SnapshotComparison.SOURCE, EVENTS, Row.of(1, "a"), Row.of(2, "b"));

    warehouse.build(SnapshotComparison.class).assertSucceeded();
    assertThatTable(warehouse.table(SnapshotComparison.OUTPUT))
        .containsExactlyInAnyOrder(Row.of(1L, "a"), Row.of(2L, "b"));

    warehouse.append(SnapshotComparison.SOURCE, Row.of(3, "c"), Row.of(4, "d"));
    TransformResult second = warehouse.build(SnapshotComparison.class).assertSucceeded().only();

    assertThat(second.outputs().get(0).rowsAdded()).isEqualTo(2);
    assertThatTable(warehouse.table(SnapshotComparison.OUTPUT))
        .containsExactlyInAnyOrder(Row.of(3L, "c"), Row.of(4L, "d"))
        .hasProperty("transforms.state.input." + SnapshotComparison.SOURCE,
            Long.toString(warehouse.table(SnapshotComparison.SOURCE).currentSnapshot().snapshotId()));

    // Forced to run with no new snapshot, it keeps the ids the last build found instead of emptying the output.
    warehouse.build(dev.transforms.Transforms.Selection.of(SnapshotComparison.class).force()).assertSucceeded();
    assertThatTable(warehouse.table(SnapshotComparison.OUTPUT))
        .containsExactlyInAnyOrder(Row.of(3L, "c"), Row.of(4L, "d"));
  }

  @Test
  void anExpiredPreviousSnapshotMeansEveryRowIsNew() {
    warehouse.createTable(SnapshotComparison.SOURCE, EVENTS, Row.of(1, "a"));
    warehouse.build(SnapshotComparison.class).assertSucceeded();
    long consumed = warehouse.table(SnapshotComparison.SOURCE).currentSnapshot().snapshotId();
    warehouse.append(SnapshotComparison.SOURCE, Row.of(2, "b"));
    warehouse.table(SnapshotComparison.SOURCE).expireSnapshots().expireSnapshotId(consumed).commit();

    warehouse.build(SnapshotComparison.class).assertSucceeded();

    assertThatTable(warehouse.table(SnapshotComparison.OUTPUT))
        .containsExactlyInAnyOrder(Row.of(1L, "a"), Row.of(2L, "b"));
  }
}
