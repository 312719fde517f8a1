package dev.transforms.examples;

import static dev.transforms.testing.TransformsAssertions.assertThat;
import static dev.transforms.testing.TransformsAssertions.assertThatTable;

import dev.transforms.api.ExpectationFailedException;
import dev.transforms.testing.BuildResult;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.time.LocalDate;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

@TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
class ValidatedUpdatesTest {

  static final Schema UPDATES = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "as_of", Types.DateType.get()),
      Types.NestedField.optional(3, "status", Types.StringType.get()));

  TestWarehouse warehouse;

  @Test
  void soundUpdatesArePublished() {
    warehouse.createTable(SparkRowEdits.UPDATES, UPDATES,
        Row.of(1, "2026-03-15", "Active"), Row.of(2, "2026-04-10", "Stale"));
    BuildResult result = warehouse.build(ValidatedUpdates.class);
    assertThat(result).succeeded().only().passedCheck("primary key (id)").passedCheck("dated 2026 or later");
    assertThatTable(warehouse.table(ValidatedUpdates.VALIDATED)).containsExactlyInAnyOrder(
        Row.of(1L, LocalDate.of(2026, 3, 15), "Active"), Row.of(2L, LocalDate.of(2026, 4, 10), "Stale"))
        .hasProperty("transforms.checks.primary key (id)", "passed");
  }

  @Test
  void aDuplicateKeyOrAnUnknownStatusPublishesNothing() {
    warehouse.createTable(SparkRowEdits.UPDATES, UPDATES, Row.of(1, "2026-03-15", "Active"));
    warehouse.build(ValidatedUpdates.class).assertSucceeded();

    warehouse.append(SparkRowEdits.UPDATES, Row.of(1, "2026-04-01", "Gone"));
    BuildResult result = warehouse.build(ValidatedUpdates.class);

    assertThat(result).failed().only()
        .failedWith(ExpectationFailedException.class, "primary key (id) failed, 2 rows violate it")
        .failedCheck("primary key (id)", 2)
        .failedCheck("status in [Active, Stale, Archived]", 1)
        .passedCheck("not null (as_of)");
    assertThatTable(warehouse.table(ValidatedUpdates.VALIDATED))
        .containsExactlyInAnyOrder(Row.of(1L, LocalDate.of(2026, 3, 15), "Active"));
  }

  @Test
  void anOldUpdateIsPublishedAndReported() {
    warehouse.createTable(SparkRowEdits.UPDATES, UPDATES,
        Row.of(1, "2025-12-31", "Active"), Row.of(2, "2026-01-01", "Active"));
    BuildResult result = warehouse.build(ValidatedUpdates.class);
    assertThat(result).succeeded().only().failedCheck("dated 2026 or later", 1);
    assertThatTable(warehouse.table(ValidatedUpdates.VALIDATED)).hasProperty(
        "transforms.checks.dated 2026 or later", "warned: 1 row violates it");
  }
}
