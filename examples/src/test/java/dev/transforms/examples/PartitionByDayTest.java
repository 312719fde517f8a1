package dev.transforms.examples;

import static dev.transforms.testing.TransformsAssertions.assertThatTable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.TransformResult;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.time.OffsetDateTime;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

@TransformsTest
class PartitionByDayTest {

  static final Schema EVENTS = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "created_at", Types.TimestampType.withZone()));

  TestWarehouse warehouse;

  @Test
  void aFullBuildCreatesTheDayPartitionedTableAndIncrementalBuildsAppendOnlyNewRows() {
    warehouse.createTable(PartitionByDay.SOURCE, EVENTS,
        Row.of(1, "2026-04-01T08:00:00Z"), Row.of(2, "2026-04-02T09:30:00Z"));

    TransformResult first = warehouse.build(PartitionByDay.class).assertSucceeded().only();
    assertThat(first.incremental()).isFalse();
    assertThatTable(warehouse.table(PartitionByDay.OUTPUT))
        .isPartitionedBy("day(created_at)")
        .containsExactlyInAnyOrder(
            Row.of(1L, OffsetDateTime.parse("2026-04-01T08:00:00Z")),
            Row.of(2L, OffsetDateTime.parse("2026-04-02T09:30:00Z")));

    warehouse.append(PartitionByDay.SOURCE, Row.of(3, "2026-04-02T23:59:59Z"), Row.of(4, "2026-04-03T00:00:00Z"));
    TransformResult second = warehouse.build(PartitionByDay.class).assertSucceeded().only();

    assertThat(second.incremental()).isTrue();
    assertThatTable(warehouse.table(PartitionByDay.OUTPUT))
        .currentSnapshotSummaryContains("added-records", "2")
        .currentSnapshotHasOperation("append")
        .containsExactlyInAnyOrder(
            Row.of(1L, OffsetDateTime.parse("2026-04-01T08:00:00Z")),
            Row.of(2L, OffsetDateTime.parse("2026-04-02T09:30:00Z")),
            Row.of(3L, OffsetDateTime.parse("2026-04-02T23:59:59Z")),
            Row.of(4L, OffsetDateTime.parse("2026-04-03T00:00:00Z")));

    warehouse.overwrite(PartitionByDay.SOURCE, Row.of(9, "2026-04-09T00:00:00Z"));
    TransformResult third = warehouse.build(PartitionByDay.class).assertSucceeded().only();
    assertThat(third.incremental()).isFalse();
    assertThat(third.reason()).contains("changed by 'overwrite'");
    assertThatTable(warehouse.table(PartitionByDay.OUTPUT))
        .containsExactlyInAnyOrder(Row.of(9L, OffsetDateTime.parse("2026-04-09T00:00:00Z")));
  }
}
