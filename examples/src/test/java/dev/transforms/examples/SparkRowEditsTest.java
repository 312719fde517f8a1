package dev.transforms.examples;

import static dev.transforms.testing.TransformsAssertions.assertThatTable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.TransformResult;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.time.LocalDate;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

@TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
class SparkRowEditsTest {

  static final Schema UPDATES = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "as_of", Types.DateType.get()),
      Types.NestedField.optional(3, "status", Types.StringType.get()));

  TestWarehouse warehouse;

  @Test
  void theFirstBuildSeedsAndLaterBuildsMergeDeleteAndUpdateInPlace() {
    warehouse.createTable(SparkRowEdits.UPDATES, UPDATES,
        Row.of(1, "2026-03-15", "Active"), Row.of(2, "2026-04-10", "Stale"), Row.of(3, "2026-04-20", "Active"));

    warehouse.build(SparkRowEdits.class).assertSucceeded();
    assertThatTable(warehouse.table(SparkRowEdits.EDITED)).containsExactlyInAnyOrder(
        Row.of(1L, LocalDate.of(2026, 3, 15), "Active"),
        Row.of(2L, LocalDate.of(2026, 4, 10), "Stale"),
        Row.of(3L, LocalDate.of(2026, 4, 20), "Active"));

    warehouse.overwrite(SparkRowEdits.UPDATES,
        Row.of(2, "2026-04-12", "Stale"), Row.of(4, "2026-03-01", "Active"), Row.of(5, "2026-05-01", "Stale"));
    TransformResult second = warehouse.build(SparkRowEdits.class).assertSucceeded().only();

    assertThatTable(warehouse.table(SparkRowEdits.EDITED)).containsExactlyInAnyOrder(
        Row.of(2L, LocalDate.of(2026, 4, 12), "Archived"),
        Row.of(3L, LocalDate.of(2026, 4, 20), "Active"),
        Row.of(5L, LocalDate.of(2026, 5, 1), "Archived"));
    // MERGE, DELETE and UPDATE: three snapshots, published together.
    assertThat(second.outputs().get(0).snapshots()).isEqualTo(3);
    // The README's first example earns no advice: its MERGE source is one row per id.
    assertThat(second.advisories()).isEmpty();
  }

  @Test
  void severalUpdatesOfOneIdMergeItsLatestAndAnUndatedRowKeepsItsStatus() {
    warehouse.createTable(SparkRowEdits.UPDATES, UPDATES, Row.of(1, "2026-04-15", "Active"));
    warehouse.build(SparkRowEdits.class).assertSucceeded();

    warehouse.overwrite(SparkRowEdits.UPDATES, Row.of(1, "2026-04-17", "Stale"), Row.of(1, "2026-04-16", "Active"),
        Row.of(6, null, "Active"));
    TransformResult merged = warehouse.build(SparkRowEdits.class).assertSucceeded().only();

    // id 1: its update of 2026-04-17 (Stale, then archived); id 6 has no date, and the DELETE keeps it.
    assertThatTable(warehouse.table(SparkRowEdits.EDITED)).containsExactlyInAnyOrder(
        Row.of(1L, LocalDate.of(2026, 4, 17), "Archived"),
        Row.of(6L, null, "Active"));
    assertThat(merged.advisories()).isEmpty();
  }
}
