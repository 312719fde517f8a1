package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.maintenance.MaintenanceReport;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;

@TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
class MaintainedHistoryTest {

  TestWarehouse warehouse;

  private static int dataFiles(Table table) {
    table.refresh();
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = table.newScan().planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks.size();
  }

  private static int snapshots(Table table) {
    table.refresh();
    int count = 0;
    for (var ignored : table.snapshots()) {
      count++;
    }
    return count;
  }

  @Test
  void theOutputIsCompactedThenExpiredWithItsRowsUnchanged() {
    warehouse.createTable(MaintainedHistory.SOURCE, SnapshotComparisonTest.EVENTS, Row.of(1, "a"), Row.of(2, "b"));
    warehouse.build(MaintainedHistory.class).assertSucceeded();
    for (int build = 0; build < 3; build++) {
      warehouse.append(MaintainedHistory.SOURCE, Row.of(10 + build, "n" + build));
      warehouse.build(MaintainedHistory.class).assertSucceeded();
    }
    Table history = warehouse.table(MaintainedHistory.HISTORY);
    List<Row> rows = warehouse.rows(MaintainedHistory.HISTORY);
    assertThat(rows).hasSize(5);
    assertThat(dataFiles(history)).isEqualTo(4);
    int snapshotsBefore = snapshots(history);
    assertThat(snapshotsBefore).isGreaterThanOrEqualTo(4);
    List<String> log = new ArrayList<>();

    // the safe defaults: every small file compacted; snapshots younger than a week all stay
    List<MaintenanceReport> reports =
        MaintainedHistory.maintainOutputs(warehouse.config(), MaintainedHistory.safeDefaults(), log::add);

    assertThat(reports).hasSize(1);
    assertThat(reports.get(0).compaction().dataFilesRewritten()).isEqualTo(4);
    assertThat(reports.get(0).expiredSnapshots()).isEmpty();
    assertThat(dataFiles(history)).isEqualTo(1);
    assertThat(snapshots(history)).isEqualTo(snapshotsBefore + 1);
    assertThat(warehouse.rows(MaintainedHistory.HISTORY)).containsExactlyInAnyOrderElementsOf(rows);
    assertThat(log).anyMatch(line -> line.startsWith("compact: 4 data files rewritten into 1"));

    // a stricter retention, as a user might pass: every snapshot but the current one expires
    reports = MaintainedHistory.maintainOutputs(warehouse.config(),
        MaintainedHistory.safeDefaults().withExpiry(Duration.ZERO, 1), log::add);

    assertThat(reports.get(0).expiredSnapshots()).hasSize(snapshotsBefore);
    assertThat(snapshots(history)).isEqualTo(1);
    assertThat(dataFiles(history)).isEqualTo(1);
    assertThat(warehouse.rows(MaintainedHistory.HISTORY)).containsExactlyInAnyOrderElementsOf(rows);

    // the pipeline goes on: the next build appends beside the compacted file
    warehouse.append(MaintainedHistory.SOURCE, Row.of(20, "later"));
    warehouse.build(MaintainedHistory.class).assertSucceeded();
    assertThat(warehouse.rows(MaintainedHistory.HISTORY)).hasSize(6);
  }
}
