package dev.transforms.singlenode.internal.maintenance;

import static dev.transforms.singlenode.internal.maintenance.MaintenanceTables.dataFiles;
import static dev.transforms.singlenode.internal.maintenance.MaintenanceTables.deleteFiles;
import static dev.transforms.singlenode.internal.maintenance.MaintenanceTables.rows;
import static dev.transforms.singlenode.internal.maintenance.MaintenanceTables.snapshots;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.MaintenanceRefusedException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import dev.transforms.runtime.internal.publish.BuildLease;
import dev.transforms.runtime.internal.publish.StagingMarks;
import dev.transforms.runtime.maintenance.CompactionResult;
import dev.transforms.runtime.maintenance.MaintenanceOptions;
import dev.transforms.runtime.maintenance.MaintenanceReport;
import dev.transforms.runtime.maintenance.TableMaintenance;
import dev.transforms.singlenode.edits.Compaction;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.singlenode.internal.maintenance.MaintenanceTables.Deletes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each maintenance action on single-node tables, and each safety rule refusing with nothing changed. */
class SingleNodeMaintenanceTest {
  private static final DatasetPath PATH = DatasetPath.of("/Shop/orders");

  @TempDir Path dir;

  private final List<String> log = new ArrayList<>();

  private MaintenanceReport maintain(Catalogs catalogs, MaintenanceOptions options) {
    try (TableMaintenance maintenance = TableMaintenance.open(catalogs.config(), new SingleNodeMaintenanceEngine())) {
      return maintenance.maintain(PATH, options, log::add);
    }
  }

  @Test
  void aProgramOpensTheMaintenanceOfAConfiguration() {
    Set<String> before;
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      before = rows(MaintenanceTables.smallFilesWithDeletes(catalogs, "orders", Deletes.V2_POSITION, 4, 50));
    }
    TransformsConfig config = TransformsConfig.embedded(dir.resolve("warehouse"));
    try (SingleNodeMaintenanceEngine engine = new SingleNodeMaintenanceEngine();
        TableMaintenance maintenance = TableMaintenance.open(config, engine)) {
      MaintenanceReport report = maintenance.maintain(PATH, MaintenanceOptions.none().withCompact(true), log::add);
      assertThat(report.compaction().dataFilesRewritten()).isEqualTo(4);
      Table table = maintenance.load(PATH);
      assertThat(rows(table)).isEqualTo(before);
      assertThat(dataFiles(table)).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @EnumSource(Deletes.class)
  void compactionKeepsTheLiveRowsInOneFileAndDropsTheDeleteFiles(Deletes deletes) {
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      Table table = MaintenanceTables.smallFilesWithDeletes(catalogs, "orders", deletes, 8, 50);
      Set<String> before = rows(table);
      assertThat(before).hasSize(400 - 58).doesNotContain("7:name-7").contains("8:name-8");
      assertThat(dataFiles(table)).isEqualTo(8);
      assertThat(deleteFiles(table)).isPositive();
      int snapshotsBefore = snapshots(table);

      MaintenanceReport report = maintain(catalogs, MaintenanceOptions.none().withCompact(true));

      assertThat(rows(table)).isEqualTo(before);
      assertThat(dataFiles(table)).isEqualTo(1);
      assertThat(deleteFiles(table)).isZero();
      assertThat(snapshots(table)).isEqualTo(snapshotsBefore + 1);
      assertThat(table.currentSnapshot().operation()).isEqualTo("replace");
      assertThat(report.compaction().dataFilesRewritten()).isEqualTo(8);
      assertThat(report.compaction().rowsWritten()).isEqualTo(before.size());
      assertThat(log).anyMatch(l -> l.startsWith("compact: 8 data files rewritten into 1"));
    }
  }

  @Test
  void aCompactionLargeEnoughToWriteOnASecondThreadKeepsEveryRow() {
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      // 60,000 rows: over the 50,000 from which rows are encoded on a second thread
      Table table = MaintenanceTables.smallFilesWithDeletes(catalogs, "orders", Deletes.V2_POSITION, 3, 20_000);
      Set<String> before = rows(table);
      assertThat(before).hasSize(60_000 - 8_572);
      CompactionResult result = maintain(catalogs, MaintenanceOptions.none().withCompact(true)).compaction();
      assertThat(result.rowsWritten()).isEqualTo(before.size());
      assertThat(rows(table)).isEqualTo(before);
      assertThat(dataFiles(table)).isEqualTo(1);
      assertThat(deleteFiles(table)).isZero();
    }
  }

  @Test
  void aSortedTableIsCompactedInItsSortOrder() {
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      Table table = MaintenanceTables.smallFilesWithDeletes(catalogs, "orders", Deletes.V2_EQUALITY, 4, 25);
      table.replaceSortOrder().desc("id").commit();
      Set<String> before = rows(table);
      maintain(catalogs, MaintenanceOptions.none().withCompact(true));
      assertThat(rows(table)).isEqualTo(before);
      assertThat(dataFiles(table)).isEqualTo(1);
      List<Long> ids = new ArrayList<>();
      // the one data file's rows, in file order
      try (org.apache.iceberg.io.CloseableIterable<org.apache.iceberg.data.Record> records =
          org.apache.iceberg.data.IcebergGenerics.read(table).build()) {
        records.forEach(r -> ids.add((Long) r.getField("id")));
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      assertThat(ids).hasSize(before.size()).isSortedAccordingTo(java.util.Comparator.reverseOrder());
    }
  }

  @Test
  void aTableOfLargeFilesWithoutDeletesIsLeftAlone() {
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      Table table = MaintenanceTables.create(catalogs, "orders", Deletes.V2_POSITION);
      MaintenanceTables.append(table, 0, 10);
      long head = table.currentSnapshot().snapshotId();
      CompactionResult result = maintain(catalogs, MaintenanceOptions.none().withCompact(true)).compaction();
      assertThat(result.snapshotId()).isEmpty();
      table.refresh();
      assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
    }
  }

  @Test
  void anAppendDuringCompactionLands() {
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      Table table = MaintenanceTables.smallFilesWithDeletes(catalogs, "orders", Deletes.V2_POSITION, 4, 20);
      Set<String> expected = new java.util.TreeSet<>(rows(table));
      Table other = catalogs.catalog("local").loadTable(org.apache.iceberg.catalog.TableIdentifier.of("Shop", "orders"));
      Compaction compaction = Compaction.plan(table);
      compaction.run(() -> MaintenanceTables.append(other, 1000, 5));
      for (long id = 1000; id < 1005; id++) {
        expected.add(id + ":name-" + id);
      }
      assertThat(rows(table)).isEqualTo(expected);
      assertThat(dataFiles(table)).isEqualTo(2);
      assertThat(deleteFiles(table)).isZero();
    }
  }

  @Test
  void aDeleteDuringCompactionMakesItFailAndRemoveItsFiles() throws Exception {
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      Table table = MaintenanceTables.smallFilesWithDeletes(catalogs, "orders", Deletes.V2_POSITION, 4, 20);
      Table other = catalogs.catalog("local").loadTable(org.apache.iceberg.catalog.TableIdentifier.of("Shop", "orders"));
      Set<String> expected = new java.util.TreeSet<>(rows(table));
      expected.remove("1:name-1");
      Path data = Path.of(java.net.URI.create(table.location())).resolve("data");
      Set<String> filesBefore = listing(data);
      long start = table.currentSnapshot().snapshotId();
      Compaction compaction = Compaction.plan(table);
      assertThatThrownBy(() -> compaction.run(() -> RowEdits.on(other).delete("id = 1")))
          .isInstanceOf(ValidationException.class);
      assertThat(rows(table)).isEqualTo(expected);
      assertThat(dataFiles(table)).isEqualTo(4);
      // what is left in the data folder: the files from before, and those the concurrent delete added
      Set<String> expectedFiles = new java.util.TreeSet<>(filesBefore);
      Snapshot delete = table.currentSnapshot();
      assertThat(delete.parentId()).isEqualTo(start);
      delete.addedDeleteFiles(table.io()).forEach(f -> expectedFiles.add(Path.of(java.net.URI.create(f.location()))
          .getFileName().toString()));
      delete.addedDataFiles(table.io()).forEach(f -> expectedFiles.add(Path.of(java.net.URI.create(f.location()))
          .getFileName().toString()));
      assertThat(listing(data)).isEqualTo(expectedFiles);
    }
  }

  private static Set<String> listing(Path folder) throws java.io.IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toCollection(
          java.util.TreeSet::new));
    }
  }

  @Test
  void expiryKeepsTheLastSnapshotsTagsAndStagingBranches() {
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      Table table = MaintenanceTables.create(catalogs, "orders", Deletes.V2_POSITION);
      for (int i = 0; i < 5; i++) {
        MaintenanceTables.append(table, i * 10L, 10);
      }
      List<Long> ids = new ArrayList<>();
      table.snapshots().forEach(s -> ids.add(s.snapshotId()));
      table.manageSnapshots().createTag("v1", ids.get(0)).createBranch(StagingMarks.branch("deadbuild"), ids.get(1))
          .commit();
      Set<String> before = rows(table);

      MaintenanceReport report = maintain(catalogs, MaintenanceOptions.none().withExpiry(Duration.ZERO, 2));

      table.refresh();
      assertThat(rows(table)).isEqualTo(before);
      assertThat(report.expiredSnapshots()).containsExactly(ids.get(2));
      assertThat(table.snapshot(ids.get(2))).isNull();
      assertThat(table.refs()).containsKeys("main", "v1", StagingMarks.branch("deadbuild"));
      assertThat(table.snapshot(ids.get(0))).isNotNull();
      assertThat(table.snapshot(ids.get(1))).isNotNull();
    }
  }

  @Test
  void expiryKeepsEverySnapshotOfADeadBuildsStagingBranch() {
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      Table table = MaintenanceTables.create(catalogs, "orders", Deletes.V2_POSITION);
      MaintenanceTables.append(table, 0, 10);
      MaintenanceTables.append(table, 10, 10);
      String branch = StagingMarks.branch("deadbuild");
      table.manageSnapshots().createBranch(branch, table.currentSnapshot().snapshotId()).commit();
      List<Long> onBranch = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        table.newAppend().appendFile(MaintenanceTables.tasks(table).get(0).file()).toBranch(branch).commit();
        table.refresh();
        onBranch.add(table.refs().get(branch).snapshotId());
      }
      MaintenanceReport report = maintain(catalogs, MaintenanceOptions.none().withExpiry(Duration.ZERO, 1));
      table.refresh();
      assertThat(report.expiredSnapshots()).hasSize(1);
      assertThat(table.refs()).containsKey(branch);
      onBranch.forEach(id -> assertThat(table.snapshot(id)).as("snapshot %s of the staging branch", id).isNotNull());
    }
  }

  @Test
  void expiryNamesDownstreamIncrementalStateAndKeepsItWhenAsked() {
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      Table table = MaintenanceTables.create(catalogs, "orders", Deletes.V2_POSITION);
      for (int i = 0; i < 3; i++) {
        MaintenanceTables.append(table, i * 10L, 10);
      }
      long consumed = table.snapshots().iterator().next().snapshotId();
      Table downstream = MaintenanceTables.create(catalogs, "totals", Deletes.V2_POSITION);
      downstream.updateProperties().set(IncrementalState.TRANSFORM, "Totals.compute")
          .set(IncrementalState.INPUT_PREFIX + PATH, Long.toString(consumed)).commit();

      MaintenanceReport kept = maintain(catalogs,
          MaintenanceOptions.none().withExpiry(Duration.ZERO, 1).withKeepIncrementalState(true));
      assertThat(kept.keptForIncrementalState()).containsExactly(consumed);
      table.refresh();
      assertThat(table.snapshot(consumed)).isNotNull();
      assertThat(log).anyMatch(l -> l.contains("keeping snapshot " + consumed) && l.contains("Totals.compute")
          && l.contains("/Shop/totals"));

      log.clear();
      MaintenanceReport expired = maintain(catalogs, MaintenanceOptions.none().withExpiry(Duration.ZERO, 1));
      assertThat(expired.expiredSnapshots()).contains(consumed);
      assertThat(log).anyMatch(l -> l.contains("snapshot " + consumed + " is the input state of transform "
          + "Totals.compute (output /Shop/totals); if it is incremental, its next build rebuilds in full"));
    }
  }

  @Test
  void aRunningBuildsLeaseRefusesMaintenanceNamingTheBuild() {
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      Table table = MaintenanceTables.smallFilesWithDeletes(catalogs, "orders", Deletes.V2_POSITION, 3, 10);
      table.updateProperties().set(StagingMarks.leaseKey("b42"), BuildLease.forThisProcess("b42").encode()).commit();
      long head = table.currentSnapshot().snapshotId();
      int snapshots = snapshots(table);

      assertThatThrownBy(() -> maintain(catalogs, MaintenanceOptions.all().withExpiry(Duration.ZERO, 1)))
          .isInstanceOf(MaintenanceRefusedException.class)
          .hasMessageContaining("/Shop/orders")
          .hasMessageContaining("build b42 is writing it");
      table.refresh();
      assertThat(table.currentSnapshot().snapshotId()).isEqualTo(head);
      assertThat(snapshots(table)).isEqualTo(snapshots);
    }
  }

  /** Makes every file under a folder four days old, but one. */
  private static void ageFiles(Path folder, Path except) throws java.io.IOException {
    try (Stream<Path> all = Files.walk(folder)) {
      for (Path p : all.filter(Files::isRegularFile).filter(p -> !p.equals(except)).toList()) {
        Files.setLastModifiedTime(p, FileTime.from(Instant.now().minus(Duration.ofDays(4))));
      }
    }
  }

  @Test
  void orphanRemovalIsADryRunUnlessAskedAndRefusesAShortRetention() throws Exception {
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      Table table = MaintenanceTables.create(catalogs, "orders", Deletes.V2_POSITION);
      MaintenanceTables.append(table, 0, 10);
      Set<String> before = rows(table);
      Path tableDir = Path.of(java.net.URI.create(table.location()));
      Path old = Files.writeString(tableDir.resolve("data").resolve("left-behind.parquet"), "x");
      Path young = Files.writeString(tableDir.resolve("data").resolve("just-written.parquet"), "x");
      // every file of the table is old too: only the unreferenced ones may count as orphans
      ageFiles(tableDir, young);

      MaintenanceReport dry = maintain(catalogs,
          MaintenanceOptions.none().withOrphans(MaintenanceOptions.MIN_ORPHAN_AGE, false, false));
      assertThat(dry.orphanFiles()).singleElement().asString().endsWith("left-behind.parquet");
      assertThat(old).exists();
      assertThat(log).anyMatch(l -> l.startsWith("orphan files: would delete ") && l.contains("left-behind.parquet"));
      assertThat(log).anyMatch(l -> l.contains("dry run, nothing deleted"));

      assertThatThrownBy(() -> maintain(catalogs,
          MaintenanceOptions.none().withOrphans(Duration.ofHours(1), true, false)))
          .isInstanceOf(MaintenanceRefusedException.class)
          .hasMessageContaining("younger than 3 days (asked: 1 hours)")
          .hasMessageContaining("--allow-deleting-files-of-running-writes")
          .hasMessageContaining("Nothing was deleted");
      assertThat(old).exists();
      assertThat(young).exists();

      MaintenanceReport deleted = maintain(catalogs,
          MaintenanceOptions.none().withOrphans(MaintenanceOptions.MIN_ORPHAN_AGE, true, false));
      assertThat(deleted.orphanFiles()).hasSize(1);
      assertThat(old).doesNotExist();
      assertThat(young).exists();
      assertThat(rows(table)).isEqualTo(before);

      maintain(catalogs, MaintenanceOptions.none().withOrphans(Duration.ZERO, true, true));
      assertThat(young).doesNotExist();
      assertThat(rows(table)).isEqualTo(before);
    }
  }

  @Test
  void filesWhoseSchemeDiffersFromTheMetadataRefuseOrphanRemovalUnlessDeclaredEquivalent() throws Exception {
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      Table table = MaintenanceTables.create(catalogs, "orders", Deletes.V2_POSITION);
      MaintenanceTables.append(table, 0, 10);
      // the metadata names a file by another scheme than the listing will
      Path tableDir = Path.of(java.net.URI.create(table.location()));
      Path copy = tableDir.resolve("data").resolve("elsewhere.parquet");
      FileScanTask task = MaintenanceTables.tasks(table).get(0);
      Files.copy(Path.of(java.net.URI.create(task.file().location())), copy);
      DataFile foreign = DataFiles.builder(table.spec()).copy(task.file())
          .withPath("hdfs://namenode:8020" + copy.toUri().getPath()).build();
      table.newFastAppend().appendFile(foreign).commit();
      ageFiles(tableDir, null);
      MaintenanceOptions delete = MaintenanceOptions.none().withOrphans(MaintenanceOptions.MIN_ORPHAN_AGE, true, false);

      assertThatThrownBy(() -> maintain(catalogs, delete))
          .isInstanceOf(MaintenanceRefusedException.class)
          .hasMessageContaining("disagree on scheme or authority")
          .hasMessageContaining("hdfs://namenode:8020")
          .hasMessageContaining("--equal-scheme")
          .hasMessageContaining("Nothing was deleted");
      assertThat(copy).exists();

      MaintenanceReport report = maintain(catalogs, delete.withEquivalents(Map.of("hdfs", "file"), Map.of()));
      assertThat(report.orphanFiles()).isEmpty();
      assertThat(copy).exists();
    }
  }

  @Test
  void manifestsAreRewrittenAndRowsStay() {
    try (Catalogs catalogs = MaintenanceTables.catalogs(dir)) {
      Table table = MaintenanceTables.create(catalogs, "orders", Deletes.V2_POSITION);
      for (int i = 0; i < 4; i++) {
        MaintenanceTables.append(table, i * 10L, 10);
      }
      Set<String> before = rows(table);
      Snapshot head = table.currentSnapshot();
      assertThat(head.dataManifests(table.io())).hasSize(4);
      MaintenanceReport report = maintain(catalogs, MaintenanceOptions.none().withRewriteManifests(true));
      table.refresh();
      assertThat(report.manifestsRewritten()).isEqualTo(4);
      assertThat(table.currentSnapshot().dataManifests(table.io())).hasSize(1);
      assertThat(rows(table)).isEqualTo(before);
    }
  }
}
