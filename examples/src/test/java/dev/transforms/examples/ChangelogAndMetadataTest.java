package dev.transforms.examples;

import static dev.transforms.testing.TransformsAssertions.assertThatTable;

import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

@TransformsTest
class ChangelogAndMetadataTest {

  TestWarehouse warehouse;

  @Test
  void writesTheInputsRowChangesAndItsSnapshots() {
    Schema schema = SparkRowEditsTest.UPDATES;
    warehouse.createTable(ChangelogAndMetadata.UPDATES, schema,
        Row.of(1, "2026-04-01", "Active"), Row.of(2, "2026-04-02", "Active"));
    warehouse.overwrite(ChangelogAndMetadata.UPDATES,
        Row.of(1, "2026-04-01", "Active"), Row.of(2, "2026-04-02", "Stale"));
    warehouse.append(ChangelogAndMetadata.UPDATES, Row.of(3, "2026-04-03", "Active"));

    warehouse.build(ChangelogAndMetadata.class).assertSucceeded();

    assertThatTable(warehouse.table(ChangelogAndMetadata.CHANGES)).containsExactlyInAnyOrder(
        Row.of(1L, LocalDate.of(2026, 4, 1), "Active", "INSERT", 0),
        Row.of(2L, LocalDate.of(2026, 4, 2), "Active", "INSERT", 0),
        Row.of(2L, LocalDate.of(2026, 4, 2), "Active", "UPDATE_BEFORE", 1),
        Row.of(2L, LocalDate.of(2026, 4, 2), "Stale", "UPDATE_AFTER", 1),
        Row.of(3L, LocalDate.of(2026, 4, 3), "Active", "INSERT", 2));

    Table input = warehouse.table(ChangelogAndMetadata.UPDATES);
    List<Row> expected = new ArrayList<>();
    for (Snapshot s : input.snapshots()) {
      String deleted = s.summary().get("deleted-records");
      expected.add(Row.of(s.snapshotId(), s.parentId(), s.operation(),
          Long.parseLong(s.summary().get("added-records")), deleted == null ? null : Long.parseLong(deleted)));
    }
    assertThatTable(warehouse.table(ChangelogAndMetadata.SNAPSHOTS))
        .containsExactlyInAnyOrder(expected.toArray(new Row[0]));
  }
}
