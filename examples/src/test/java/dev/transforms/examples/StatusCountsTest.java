package dev.transforms.examples;

import static dev.transforms.testing.TransformsAssertions.assertThatTable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.TransformResult;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.time.LocalDate;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

@TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
public class StatusCountsTest {

  TestWarehouse warehouse;

  @Test
  void theOutputGainsTheNewColumnWithTheRowsAndKeepsItsHistory() {
    warehouse.createTable(StatusCounts.UPDATES, SparkRowEditsTest.UPDATES,
        Row.of(1, "2026-04-01", "Active"), Row.of(2, "2026-04-02", "Stale"), Row.of(3, "2026-04-03", "Active"));
    // The output as last week's version of the transform left it: status and people, no last_seen.
    warehouse.createTable(StatusCounts.COUNTS, new Schema(
        Types.NestedField.optional(1, "status", Types.StringType.get()),
        Types.NestedField.optional(2, "people", Types.LongType.get())),
        Row.of("Active", 2L), Row.of("Stale", 1L));
    Table before = warehouse.table(StatusCounts.COUNTS);
    long lastWeek = before.currentSnapshot().snapshotId();
    int people = before.schema().findField("people").fieldId();

    TransformResult result = warehouse.build(StatusCounts.class).assertSucceeded().only();

    assertThat(result.outputs().get(0).schemaChanges()).containsExactly("last_seen added (date)");
    assertThatTable(warehouse.table(StatusCounts.COUNTS))
        .hasColumns("status", "people", "last_seen")
        .containsExactlyInAnyOrder(
            Row.of("Active", 2L, LocalDate.of(2026, 4, 3)),
            Row.of("Stale", 1L, LocalDate.of(2026, 4, 2)));
    Table after = warehouse.table(StatusCounts.COUNTS);
    assertThat(after.schema().findField("people").fieldId()).isEqualTo(people);
    // Last week's snapshot is still there, in last week's columns.
    assertThat(after.schemas().get(after.snapshot(lastWeek).schemaId()).columns())
        .extracting(Types.NestedField::name).containsExactly("status", "people");
  }
}
