package dev.transforms.singlenode.internal.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot's files are read from its manifests once and then answered from what was kept: the same
 * files for the same snapshot, each snapshot its own files (time travel included), the tasks of files with
 * position deletes, no files for a snapshot with equality deletes, and a missing snapshot named.
 */
class SnapshotFilesTest {

  private static final Schema SCHEMA = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  @TempDir Path dir;

  private final InMemoryCatalog catalog = new InMemoryCatalog();

  /** A table whose metadata and manifests live in memory: planning reads only those. */
  private Table table(String name) {
    if (catalog.name() == null) {
      catalog.initialize("snapshots", Map.of());
      catalog.createNamespace(Namespace.of("db"));
    }
    return catalog.createTable(TableIdentifier.of("db", name), SCHEMA, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.FORMAT_VERSION, "2"));
  }

  /** A data file entry; the file itself is never opened, planning reads only the manifests. */
  private DataFile file(String name, long rows) {
    return DataFiles.builder(PartitionSpec.unpartitioned()).withPath(dir.resolve(name).toString())
        .withFormat(FileFormat.PARQUET).withFileSizeInBytes(100).withRecordCount(rows).build();
  }

  @Test
  void aSnapshotsManifestsAreReadOnce() {
    Table table = table("once");
    table.newAppend().appendFile(file("a.parquet", 10)).appendFile(file("b.parquet", 5)).commit();
    long snapshot = table.currentSnapshot().snapshotId();

    long before = SnapshotFiles.planned();
    SnapshotFiles.Files first = SnapshotFiles.of(table, snapshot).orElseThrow();
    SnapshotFiles.Files again = SnapshotFiles.of(table, snapshot).orElseThrow();

    assertThat(SnapshotFiles.planned()).isEqualTo(before + 1);
    assertThat(paths(first)).containsExactlyInAnyOrder(dir.resolve("a.parquet"), dir.resolve("b.parquet"));
    assertThat(first.rows()).isEqualTo(15);
    assertThat(again).isEqualTo(first);
  }

  @Test
  void everySnapshotHasItsOwnFiles() {
    Table table = table("history");
    table.newAppend().appendFile(file("first.parquet", 3)).commit();
    long older = table.currentSnapshot().snapshotId();
    assertThat(paths(SnapshotFiles.of(table, older).orElseThrow())).containsExactly(dir.resolve("first.parquet"));

    table.newAppend().appendFile(file("second.parquet", 4)).commit();
    long newer = table.currentSnapshot().snapshotId();
    SnapshotFiles.Files now = SnapshotFiles.of(table, newer).orElseThrow();
    assertThat(paths(now)).containsExactlyInAnyOrder(dir.resolve("first.parquet"), dir.resolve("second.parquet"));
    assertThat(now.rows()).isEqualTo(7);
    // the older snapshot still answers its own files
    SnapshotFiles.Files then = SnapshotFiles.of(table, older).orElseThrow();
    assertThat(paths(then)).containsExactly(dir.resolve("first.parquet"));
    assertThat(then.rows()).isEqualTo(3);

    // another table's snapshots are its own, whatever their ids
    Table other = table("other");
    other.newAppend().appendFile(file("elsewhere.parquet", 1)).commit();
    assertThat(paths(SnapshotFiles.of(other, other.currentSnapshot().snapshotId()).orElseThrow()))
        .containsExactly(dir.resolve("elsewhere.parquet"));
  }

  @Test
  void positionDeletesAreCarriedToTheReaderAndEqualityDeletesLeaveNothingForADirectRead() {
    Table table = table("deletes");
    DataFile data = file("data.parquet", 10);
    table.newAppend().appendFile(data).commit();
    long clean = table.currentSnapshot().snapshotId();
    DeleteFile positions = FileMetadata.deleteFileBuilder(PartitionSpec.unpartitioned()).ofPositionDeletes()
        .withPath(dir.resolve("positions.parquet").toString()).withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(50).withRecordCount(1).build();
    table.newRowDelta().addDeletes(positions).commit();
    long positioned = table.currentSnapshot().snapshotId();
    DeleteFile equality = FileMetadata.deleteFileBuilder(PartitionSpec.unpartitioned()).ofEqualityDeletes(1)
        .withPath(dir.resolve("equality.parquet").toString()).withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(50).withRecordCount(1).build();
    table.newRowDelta().addDeletes(equality).commit();

    SnapshotFiles.Files withPositions = SnapshotFiles.of(table, positioned).orElseThrow();
    assertThat(withPositions.deleted()).containsOnlyKeys(0);
    assertThat(withPositions.deleted().get(0).deletes()).extracting(DeleteFile::location)
        .containsExactly(positions.location());
    assertThat(withPositions.fileRows()).containsExactly(10);
    assertThat(DirectScan.plan(table, positioned, table.schema())).as("a scan of exactly the files' rows").isEmpty();
    assertThat(DirectScan.planWithDeletes(table, positioned, table.schema())).isPresent();
    assertThat(SnapshotFiles.of(table, table.currentSnapshot().snapshotId())).isEmpty();
    assertThat(SnapshotFiles.of(table, clean).orElseThrow().deleted()).isEmpty();
  }

  @Test
  void theLeastRecentlyUsedAnswerGoesFirst() {
    // one snapshot in each of more tables than answers are kept (a snapshot's plan reads every
    // manifest it has, so one table of many snapshots would make the test slow)
    List<Table> tables = new java.util.ArrayList<>();
    for (int i = 0; i <= SnapshotFiles.KEPT; i++) {
      Table table = table("many_" + i);
      table.newFastAppend().appendFile(file("f" + i + ".parquet", 1)).commit();
      tables.add(table);
    }
    for (Table table : tables.subList(0, SnapshotFiles.KEPT)) {
      plan(table);
    }
    plan(tables.get(0)); // used again: the second is now the least recent
    plan(tables.get(SnapshotFiles.KEPT)); // one more than is kept

    assertThat(SnapshotFiles.kept()[0]).isEqualTo(SnapshotFiles.KEPT);
    assertThat(SnapshotFiles.kept()[1]).isBetween(SnapshotFiles.KEPT, SnapshotFiles.MOST_FILES);
    long planned = SnapshotFiles.planned();
    plan(tables.get(0));
    plan(tables.get(SnapshotFiles.KEPT));
    assertThat(SnapshotFiles.planned()).as("kept").isEqualTo(planned);
    assertThat(paths(plan(tables.get(1)))).containsExactly(dir.resolve("f1.parquet"));
    assertThat(SnapshotFiles.planned()).as("the least recently used was let go").isEqualTo(planned + 1);
  }

  private static List<java.nio.file.Path> paths(SnapshotFiles.Files files) {
    return files.files().stream().map(DirectScan.ScanFile::local).toList();
  }

  private static SnapshotFiles.Files plan(Table table) {
    return SnapshotFiles.of(table, table.currentSnapshot().snapshotId()).orElseThrow();
  }

  @Test
  void aMissingSnapshotIsNamed() {
    Table table = table("missing");
    table.newAppend().appendFile(file("a.parquet", 1)).commit();
    assertThatThrownBy(() -> SnapshotFiles.of(table, 12345L)).hasMessageContaining("12345");
    assertThatThrownBy(() -> DirectScan.plan(table, 12345L, table.schema())).hasMessageContaining("12345");
  }

  @Test
  void aDirectScanTakesTheKeptFiles() {
    Table table = table("direct");
    table.newAppend().appendFile(file("x.parquet", 8)).commit();
    long snapshot = table.currentSnapshot().snapshotId();
    DirectScan scan = DirectScan.plan(table, snapshot, table.schema()).orElseThrow();
    long planned = SnapshotFiles.planned();
    DirectScan again = DirectScan.plan(table, snapshot, table.schema().select("id")).orElseThrow();
    assertThat(SnapshotFiles.planned()).isEqualTo(planned);
    assertThat(again.files()).isEqualTo(scan.files());
    assertThat(again.paths()).containsExactly(dir.resolve("x.parquet"));
    assertThat(again.rows()).isEqualTo(8);
  }
}
