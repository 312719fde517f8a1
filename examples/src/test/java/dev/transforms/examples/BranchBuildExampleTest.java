package dev.transforms.examples;

import static dev.transforms.testing.TransformsAssertions.assertThatTable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.Transforms;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/**
 * The single-node row-edits example built on a branch ({@code docs/branches.md}): its upsert, delete and
 * archive land on branch {@code dev} of the output while readers of {@code main} keep the previous
 * result, until the branch is promoted.
 */
@TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
class BranchBuildExampleTest {

  TestWarehouse warehouse;

  @Test
  void theRowEditsOfABranchBuildWaitOnTheBranchUntilPromoted() {
    warehouse.createTable(SingleNodeRowEdits.UPDATES, SparkRowEditsTest.UPDATES,
        Row.of(1, "2026-03-15", "Active"), Row.of(2, "2026-04-10", "Stale"), Row.of(3, "2026-04-20", "Active"));
    warehouse.build(SingleNodeRowEdits.class).assertSucceeded();
    long published = warehouse.table(SingleNodeRowEdits.EDITED).currentSnapshot().snapshotId();
    warehouse.overwrite(SingleNodeRowEdits.UPDATES,
        Row.of(2, "2026-04-12", "Stale"), Row.of(4, "2026-03-01", "Active"), Row.of(5, "2026-05-01", "Stale"));

    Transforms.Selection pipeline = Transforms.Selection.of(SingleNodeRowEdits.class);
    warehouse.build(pipeline.branch("dev")).assertSucceeded();

    Row[] edited = {
        Row.of(2L, LocalDate.of(2026, 4, 12), "Archived"),
        Row.of(3L, LocalDate.of(2026, 4, 20), "Active"),
        Row.of(5L, LocalDate.of(2026, 5, 1), "Archived")};
    assertThat(warehouse.rows(SingleNodeRowEdits.EDITED, "dev")).containsExactlyInAnyOrder(edited);
    // Readers of main see the first build's rows, at the same snapshot.
    assertThat(warehouse.table(SingleNodeRowEdits.EDITED).currentSnapshot().snapshotId()).isEqualTo(published);
    assertThatTable(warehouse.table(SingleNodeRowEdits.EDITED)).containsExactlyInAnyOrder(
        Row.of(1L, LocalDate.of(2026, 3, 15), "Active"),
        Row.of(2L, LocalDate.of(2026, 4, 10), "Stale"),
        Row.of(3L, LocalDate.of(2026, 4, 20), "Active"));

    assertThat(warehouse.promote(pipeline, "dev")).containsExactly(SingleNodeRowEdits.EDITED);

    assertThatTable(warehouse.table(SingleNodeRowEdits.EDITED)).containsExactlyInAnyOrder(edited);
    assertThat(warehouse.table(SingleNodeRowEdits.EDITED).refs()).containsOnlyKeys("main");
  }
}
