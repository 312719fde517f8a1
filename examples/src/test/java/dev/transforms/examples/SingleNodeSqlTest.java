package dev.transforms.examples;

import static dev.transforms.testing.TransformsAssertions.assertThatTable;

import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.junit.jupiter.api.Test;

@TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
class SingleNodeSqlTest {

  TestWarehouse warehouse;

  @Test
  void joinsTheLiveRowsOfBothInputsAndAggregatesIntoAPartitionedOutput() {
    warehouse.createTable(SingleNodeSql.UPDATES, SparkRowEditsTest.UPDATES, PartitionSpec.unpartitioned(),
        Map.of("write.delete.mode", "merge-on-read"),
        List.of(Row.of(1, "2026-04-01", "Active"), Row.of(2, "2026-04-02", "Stale"), Row.of(3, "2026-04-03", "Active"),
            Row.of(4, "2026-04-04", "Active"), Row.of(9, "2026-04-09", "Stale")));
    warehouse.createTable(SingleNodeSql.PEOPLE, SnapshotComparisonTest.EVENTS,
        Row.of(1, "ada"), Row.of(2, "bob"), Row.of(3, "cy"), Row.of(4, "dee"));
    // a position delete on the input: row 4 must not be counted
    RowEdits.on(warehouse.table(SingleNodeSql.UPDATES)).delete("id = 4");

    warehouse.build(SingleNodeSql.class).assertSucceeded();
    assertThatTable(warehouse.table(SingleNodeSql.SUMMARY))
        .isPartitionedBy("identity(status)")
        .hasColumns("status", "people", "first_seen", "last_seen", "names")
        .containsExactlyInAnyOrder(
            Row.of("Active", 2L, LocalDate.of(2026, 4, 1), LocalDate.of(2026, 4, 3), "ada,cy"),
            Row.of("Stale", 1L, LocalDate.of(2026, 4, 2), LocalDate.of(2026, 4, 2), "bob"));

    // The next build sees the new rows and replaces the summary.
    warehouse.append(SingleNodeSql.PEOPLE, Row.of(9, "ivy"));
    warehouse.build(SingleNodeSql.class).assertSucceeded();
    assertThatTable(warehouse.table(SingleNodeSql.SUMMARY)).containsExactlyInAnyOrder(
        Row.of("Active", 2L, LocalDate.of(2026, 4, 1), LocalDate.of(2026, 4, 3), "ada,cy"),
        Row.of("Stale", 2L, LocalDate.of(2026, 4, 2), LocalDate.of(2026, 4, 9), "bob,ivy"));
  }
}
