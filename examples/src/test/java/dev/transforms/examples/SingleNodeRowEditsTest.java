package dev.transforms.examples;

import static dev.transforms.testing.TransformsAssertions.assertThatTable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.TransformResult;
import dev.transforms.singlenode.edits.InvalidRowEditException;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

@TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
class SingleNodeRowEditsTest {

  TestWarehouse warehouse;

  @Test
  void theFirstBuildWritesAndLaterBuildsUpsertDeleteAndArchiveInOnePublish() {
    warehouse.createTable(SingleNodeRowEdits.UPDATES, SparkRowEditsTest.UPDATES,
        Row.of(1, "2026-03-15", "Active"), Row.of(2, "2026-04-10", "Stale"), Row.of(3, "2026-04-20", "Active"));

    warehouse.build(SingleNodeRowEdits.class).assertSucceeded();
    assertThatTable(warehouse.table(SingleNodeRowEdits.EDITED)).containsExactlyInAnyOrder(
        Row.of(1L, LocalDate.of(2026, 3, 15), "Active"),
        Row.of(2L, LocalDate.of(2026, 4, 10), "Stale"),
        Row.of(3L, LocalDate.of(2026, 4, 20), "Active"));

    warehouse.overwrite(SingleNodeRowEdits.UPDATES,
        Row.of(2, "2026-04-12", "Stale"), Row.of(4, "2026-03-01", "Active"), Row.of(5, "2026-05-01", "Stale"));
    TransformResult second = warehouse.build(SingleNodeRowEdits.class).assertSucceeded().only();

    assertThatTable(warehouse.table(SingleNodeRowEdits.EDITED)).containsExactlyInAnyOrder(
        Row.of(2L, LocalDate.of(2026, 4, 12), "Archived"),
        Row.of(3L, LocalDate.of(2026, 4, 20), "Active"),
        Row.of(5L, LocalDate.of(2026, 5, 1), "Archived"));
    // Upsert, delete and overwrite: three snapshots on the staging branch, published in one fast-forward.
    assertThat(second.outputs().get(0).snapshots()).isEqualTo(3);
    assertThat(warehouse.table(SingleNodeRowEdits.EDITED).refs()).containsOnlyKeys("main");
  }

  @Test
  void duplicateKeysFailTheBuildNamingTheKeyAndChangeNothing() {
    warehouse.createTable(SingleNodeRowEdits.UPDATES, SparkRowEditsTest.UPDATES, Row.of(1, "2026-04-15", "Active"));
    warehouse.build(SingleNodeRowEdits.class).assertSucceeded();
    long published = warehouse.table(SingleNodeRowEdits.EDITED).currentSnapshot().snapshotId();

    warehouse.overwrite(SingleNodeRowEdits.UPDATES, Row.of(1, "2026-04-16", "Stale"), Row.of(1, "2026-04-17", "Active"));
    TransformResult failed = warehouse.build(SingleNodeRowEdits.class).only();

    assertThat(failed.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(failed.error().orElseThrow().getCause()).isInstanceOf(InvalidRowEditException.class)
        .hasMessageContaining("id=1");
    assertThat(warehouse.table(SingleNodeRowEdits.EDITED).currentSnapshot().snapshotId()).isEqualTo(published);
    assertThatTable(warehouse.table(SingleNodeRowEdits.EDITED))
        .containsExactlyInAnyOrder(Row.of(1L, LocalDate.of(2026, 4, 15), "Active"));
  }
}
