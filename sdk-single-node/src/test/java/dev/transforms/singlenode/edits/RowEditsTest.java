package dev.transforms.singlenode.edits;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ContentFileUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Behaviour of each operation: counts, options, files written, branches and properties. */
class RowEditsTest {
  static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "name", Types.StringType.get()),
          optional(3, "qty", Types.IntegerType.get()));

  @TempDir Path dir;

  static Record row(long id, String name, Integer qty) {
    GenericRecord record = GenericRecord.create(SCHEMA);
    record.set(0, id);
    record.set(1, name);
    record.set(2, qty);
    return record;
  }

  static Map<Long, String> contents(Table table, Long snapshotId) {
    Map<Long, String> rows = new TreeMap<>();
    for (Record record : RowEditsTables.read(table, snapshotId)) {
      rows.put((Long) record.get(0), record.get(1) + "/" + record.get(2));
    }
    return rows;
  }

  static Map<Long, String> contents(Table table) {
    return contents(table, null);
  }

  private Table table(int formatVersion, boolean mergeOnRead) {
    return table(formatVersion, mergeOnRead, PartitionSpec.unpartitioned(), Map.of());
  }

  private Table table(
      int formatVersion, boolean mergeOnRead, PartitionSpec spec, Map<String, String> props) {
    Table table = RowEditsTables.create(dir, "t", SCHEMA, spec, formatVersion, mergeOnRead, props);
    RowEdits.on(table)
        .append(List.of(row(1, "a", 1), row(2, "b", 2), row(3, "c", 3), row(4, "d", 4)));
    return table;
  }

  @ParameterizedTest(name = "v{0} merge-on-read={1}")
  @CsvSource({"2, false", "2, true", "3, false", "3, true"})
  void upsertCountsUpdatedAndInsertedButNotUnchangedRows(int formatVersion, boolean mergeOnRead) {
    Table table = table(formatVersion, mergeOnRead);

    UpsertResult result =
        RowEdits.on(table)
            .upsert(
                List.of(row(1, "a", 1), row(2, "b", 20), row(5, "e", 5), row(6, null, null)),
                List.of("id"));

    assertThat(result.rowsUpdated()).isEqualTo(1);
    assertThat(result.rowsInserted()).isEqualTo(2);
    assertThat(result.snapshotId()).hasValue(table.currentSnapshot().snapshotId());
    assertThat(contents(table))
        .isEqualTo(Map.of(1L, "a/1", 2L, "b/20", 3L, "c/3", 4L, "d/4", 5L, "e/5", 6L, "null/null"));
  }

  @ParameterizedTest(name = "v{0} merge-on-read={1}")
  @CsvSource({"2, false", "3, true"})
  void upsertOfUnchangedRowsCommitsNothing(int formatVersion, boolean mergeOnRead) {
    Table table = table(formatVersion, mergeOnRead);
    long before = table.currentSnapshot().snapshotId();

    UpsertResult result =
        RowEdits.on(table).upsert(List.of(row(1, "a", 1), row(3, "c", 3)), List.of("id"));

    assertThat(result.rowsUpdated()).isZero();
    assertThat(result.rowsInserted()).isZero();
    assertThat(result.snapshotId()).isEmpty();
    assertThat(RowEditsTables.currentSnapshotId(table)).isEqualTo(before);
  }

  @Test
  void upsertCanSkipTheUpdateHalf() {
    Table table = table(2, true);

    UpsertResult result =
        RowEdits.on(table)
            .upsert(
                List.of(row(1, "changed", 1), row(7, "g", 7)),
                List.of("id"),
                UpsertOptions.builder().whenMatchedUpdateAll(false).build());

    assertThat(result.rowsUpdated()).isZero();
    assertThat(result.rowsInserted()).isEqualTo(1);
    assertThat(contents(table)).containsEntry(1L, "a/1").containsEntry(7L, "g/7").hasSize(5);
  }

  @Test
  void upsertCanSkipTheInsertHalf() {
    Table table = table(3, false);

    UpsertResult result =
        RowEdits.on(table)
            .upsert(
                List.of(row(1, "changed", 1), row(7, "g", 7)),
                List.of("id"),
                UpsertOptions.skipInsert());

    assertThat(result.rowsUpdated()).isEqualTo(1);
    assertThat(result.rowsInserted()).isZero();
    assertThat(contents(table)).containsEntry(1L, "changed/1").doesNotContainKey(7L).hasSize(4);
  }

  @ParameterizedTest(name = "v{0} merge-on-read={1} delete kind={2}")
  @CsvSource({
    "2, false, position",
    "2, true, position",
    "3, true, position",
    "2, true, equality",
    "3, true, equality"
  })
  void upsertUpdatingEveryMatchingRowReplacesEachCopyAcrossPartitions(
      int formatVersion, boolean mergeOnRead, String deleteKind) {
    PartitionSpec byName = PartitionSpec.builderFor(SCHEMA).identity("name").build();
    Table table =
        table(
            formatVersion, mergeOnRead, byName, Map.of(RowEdits.DELETE_KIND_PROPERTY, deleteKind));
    // key 1: a differing copy in partition a, an equal copy in partition b
    // key 2: a differing and an equal copy, both in partition b
    RowEdits.on(table).append(List.of(row(1, "b", 1), row(2, "b", 20), row(2, "b", 2)));

    UpsertResult result =
        RowEdits.on(table)
            .upsert(
                List.of(row(1, "b", 1), row(2, "b", 20)),
                List.of("id"),
                UpsertOptions.builder().updateEveryMatchingRow(true).build());

    // as SQL MERGE: every matching row becomes the source row, and each one that differed counts
    assertThat(result.rowsUpdated()).isEqualTo(3);
    assertThat(result.rowsInserted()).isZero();
    List<String> rows = new ArrayList<>();
    RowEditsTables.read(table).forEach(r -> rows.add(r.get(0) + "/" + r.get(1) + "/" + r.get(2)));
    assertThat(rows)
        .containsExactlyInAnyOrder(
            "1/b/1", "1/b/1", "2/b/20", "2/b/20", "2/b/20", "3/c/3", "4/d/4");
  }

  @Test
  void upsertOnSeveralJoinColumns() {
    Table table = table(2, false);

    UpsertResult result =
        RowEdits.on(table).upsert(List.of(row(1, "a", 100), row(1, "z", 9)), List.of("id", "name"));

    assertThat(result.rowsUpdated()).isEqualTo(1);
    assertThat(result.rowsInserted()).isEqualTo(1);
    assertThat(RowEditsTables.read(table)).hasSize(5);
  }

  @ParameterizedTest(name = "v{0} merge-on-read={1}")
  @CsvSource({"2, false", "2, true", "3, false", "3, true"})
  void deleteReturnsCountAndCommitsNothingWhenNothingMatches(
      int formatVersion, boolean mergeOnRead) {
    Table table = table(formatVersion, mergeOnRead);
    long before = table.currentSnapshot().snapshotId();

    assertThat(RowEdits.on(table).delete(Expressions.greaterThan("id", 100L))).isZero();
    assertThat(RowEditsTables.currentSnapshotId(table)).isEqualTo(before);

    assertThat(RowEdits.on(table).delete(Expressions.lessThan("id", 3L))).isEqualTo(2);
    assertThat(contents(table)).containsOnlyKeys(3L, 4L);
  }

  @Test
  void deleteKeepsRowsWhoseFilterColumnIsNull() {
    Table table = table(2, true);
    RowEdits.on(table).append(List.of(row(10, null, null)));

    assertThat(RowEdits.on(table).delete(Expressions.notEqual("name", "a"))).isEqualTo(3);

    assertThat(contents(table)).containsOnlyKeys(1L, 10L);
  }

  @Test
  void mergeOnReadV3MergesTheDeletionVectorsOfOneDataFile() {
    Table table = table(3, true);
    DataFile dataFile = RowEditsTables.tasks(table, table.currentSnapshot()).get(0).file();

    RowEdits.on(table).delete(Expressions.equal("id", 1L));
    RowEdits.on(table).delete(Expressions.equal("id", 3L));
    RowEdits.on(table).upsert(List.of(row(4, "changed", 4)), List.of("id"));

    assertThat(contents(table)).isEqualTo(Map.of(2L, "b/2", 4L, "changed/4"));
    List<FileScanTask> tasks = RowEditsTables.tasks(table, table.currentSnapshot());
    FileScanTask original =
        tasks.stream()
            .filter(t -> t.file().location().equals(dataFile.location()))
            .findFirst()
            .orElseThrow();
    assertThat(original.deletes()).hasSize(1);
    DeleteFile dv = original.deletes().get(0);
    assertThat(ContentFileUtil.isDV(dv)).isTrue();
    assertThat(dv.recordCount()).isEqualTo(3);
  }

  @Test
  void mergeOnReadV2ReplacesFileScopedPositionDeletes() {
    Table table = table(2, true);

    RowEdits.on(table).delete(Expressions.equal("id", 1L));
    RowEdits.on(table).delete(Expressions.equal("id", 2L));

    assertThat(contents(table)).containsOnlyKeys(3L, 4L);
    List<FileScanTask> tasks = RowEditsTables.tasks(table, table.currentSnapshot());
    assertThat(tasks).hasSize(1);
    assertThat(tasks.get(0).deletes()).hasSize(1);
    assertThat(tasks.get(0).deletes().get(0).recordCount()).isEqualTo(2);
  }

  @Test
  void mergeOnReadWithEqualityDeletesWritesThemForChangedKeysOnly() {
    Table table =
        table(
            2,
            true,
            PartitionSpec.unpartitioned(),
            Map.of(RowEdits.DELETE_KIND_PROPERTY, "equality"));

    UpsertResult result =
        RowEdits.on(table)
            .upsert(List.of(row(1, "a", 1), row(2, "x", 2), row(9, "i", 9)), List.of("id"));

    assertThat(result.rowsUpdated()).isEqualTo(1);
    assertThat(result.rowsInserted()).isEqualTo(1);
    Snapshot snapshot = table.currentSnapshot();
    assertThat(snapshot.summary()).containsEntry(SnapshotSummary.ADDED_EQ_DELETES_PROP, "1");
    assertThat(contents(table)).containsEntry(2L, "x/2").containsEntry(9L, "i/9").hasSize(5);
  }

  @ParameterizedTest(name = "v{0}")
  @CsvSource({"2", "3"})
  void copyOnWriteDropsTheDeletesOfTheFilesItRewrites(int formatVersion) {
    Table table = table(formatVersion, true);
    RowEdits.on(table).delete(Expressions.equal("id", 1L));
    table.updateProperties().set(TableProperties.DELETE_MODE, "copy-on-write").commit();

    RowEdits.on(table).delete(Expressions.equal("id", 2L));

    assertThat(contents(table)).containsOnlyKeys(3L, 4L);
    assertThat(table.currentSnapshot().summary())
        .containsEntry(SnapshotSummary.REMOVED_DELETE_FILES_PROP, "1");
    assertThat(RowEditsTables.tasks(table, table.currentSnapshot()))
        .allSatisfy(task -> assertThat(task.deletes()).isEmpty());
  }

  @ParameterizedTest(name = "merge-on-read={0}")
  @CsvSource({"false", "true"})
  void rowLineageSurvivesRewritesAndUpdates(boolean mergeOnRead) {
    Table table = table(3, mergeOnRead);
    Map<Long, List<Long>> before = lineage(table);
    assertThat(before.keySet()).containsExactly(1L, 2L, 3L, 4L);

    RowEdits.on(table).upsert(List.of(row(2, "x", 2), row(5, "e", 5)), List.of("id"));
    long upsertSequence = table.currentSnapshot().sequenceNumber();
    RowEdits.on(table).delete(Expressions.equal("id", 3L));

    Map<Long, List<Long>> after = lineage(table);
    assertThat(after.keySet()).containsExactly(1L, 2L, 4L, 5L);
    assertThat(after.get(1L)).isEqualTo(before.get(1L));
    assertThat(after.get(4L)).isEqualTo(before.get(4L));
    assertThat(after.get(2L)).containsExactly(before.get(2L).get(0), upsertSequence);
    assertThat(after.get(5L).get(0)).isGreaterThan(3L);
    assertThat(after.get(5L).get(1)).isEqualTo(upsertSequence);
  }

  /** Each row's {@code _row_id} and {@code _last_updated_sequence_number}, by id. */
  private static Map<Long, List<Long>> lineage(Table table) {
    table.refresh();
    Map<Long, List<Long>> lineage = new TreeMap<>();
    try (CloseableIterable<Record> rows =
        IcebergGenerics.read(table).project(MetadataColumns.schemaWithRowLineage(SCHEMA)).build()) {
      for (Record row : rows) {
        lineage.put((Long) row.get(0), List.of((Long) row.get(3), (Long) row.get(4)));
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return lineage;
  }

  @ParameterizedTest(name = "buffer={0}")
  @CsvSource({"1", "2", "100"})
  void copyOnWriteRereadsAFileWhoseFirstDroppedRowComesLate(int bufferRows) {
    Table table = table(2, false);
    RowEdits edits = RowEdits.on(table).withCopyBufferRows(bufferRows);

    assertThat(edits.delete(Expressions.equal("id", 3L))).isEqualTo(1);
    assertThat(edits.upsert(List.of(row(4, "x", 4)), List.of("id")).rowsUpdated()).isEqualTo(1);

    assertThat(contents(table)).isEqualTo(Map.of(1L, "a/1", 2L, "b/2", 4L, "x/4"));
  }

  @Test
  void formatV1FallsBackToCopyOnWrite() {
    Table table = table(1, true);

    assertThat(RowEdits.on(table).delete(Expressions.equal("id", 1L))).isEqualTo(1);
    assertThat(RowEdits.on(table).upsert(List.of(row(2, "x", 2)), List.of("id")).rowsUpdated())
        .isEqualTo(1);

    assertThat(contents(table)).isEqualTo(Map.of(2L, "x/2", 3L, "c/3", 4L, "d/4"));
  }

  @Test
  void deleteRemovesWholeFilesWithoutRewritingThem() {
    PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).identity("name").build();
    Table table = table(2, false, spec, Map.of());

    assertThat(RowEdits.on(table).delete(Expressions.equal("name", "a"))).isEqualTo(1);

    Map<String, String> summary = table.currentSnapshot().summary();
    assertThat(summary).containsEntry(SnapshotSummary.DELETED_FILES_PROP, "1");
    assertThat(summary).doesNotContainKey(SnapshotSummary.ADDED_FILES_PROP);
    assertThat(contents(table)).containsOnlyKeys(2L, 3L, 4L);
  }

  @ParameterizedTest(name = "merge-on-read={0}")
  @CsvSource({"false", "true"})
  void overwriteDeletesAndAppendsInOneSnapshot(boolean mergeOnRead) {
    Table table = table(3, mergeOnRead);
    int snapshots = snapshotCount(table);

    OverwriteResult result =
        RowEdits.on(table)
            .overwrite(List.of(row(10, "j", 10), row(11, "k", 11)), Expressions.lessThan("qty", 3));

    assertThat(result.rowsDeleted()).isEqualTo(2);
    assertThat(result.rowsAppended()).isEqualTo(2);
    assertThat(snapshotCount(table)).isEqualTo(snapshots + 1);
    assertThat(contents(table)).containsOnlyKeys(3L, 4L, 10L, 11L);

    OverwriteResult all = RowEdits.on(table).overwrite(List.of(row(20, "t", 20)));
    assertThat(all.rowsDeleted()).isEqualTo(4);
    assertThat(contents(table)).containsOnlyKeys(20L);
  }

  @Test
  void appendReturnsCountAndSkipsEmptyInput() {
    Table table = table(2, false);
    long before = table.currentSnapshot().snapshotId();

    assertThat(RowEdits.on(table).append(List.of())).isZero();
    assertThat(RowEditsTables.currentSnapshotId(table)).isEqualTo(before);
    assertThat(RowEdits.on(table).append(List.of(row(5, "e", 5)))).isEqualTo(1);
    assertThat(contents(table)).hasSize(5);
  }

  @Test
  void rowsWithAnotherFieldOrderAreAccepted() {
    Table table = table(2, false);
    Schema reordered =
        new Schema(
            optional(7, "qty", Types.IntegerType.get()), required(8, "id", Types.LongType.get()));
    GenericRecord record = GenericRecord.create(reordered);
    record.set(0, 50);
    record.set(1, 5L);

    RowEdits.on(table).upsert(List.of(record), List.of("id"));

    assertThat(contents(table)).containsEntry(5L, "null/50");
  }

  @ParameterizedTest(name = "merge-on-read={0}")
  @CsvSource({"false", "true"})
  void branchEditsLeaveMainUntouched(boolean mergeOnRead) {
    Table table = table(2, mergeOnRead);
    long mainBefore = table.currentSnapshot().snapshotId();
    RowEdits onBranch =
        RowEdits.on(table).onBranch("audit").withSnapshotProperties(Map.of("job", "nightly"));

    UpsertResult upsert = onBranch.upsert(List.of(row(1, "x", 1), row(9, "i", 9)), List.of("id"));
    long deleted = onBranch.delete(Expressions.equal("id", 2L));

    assertThat(upsert.rowsUpdated()).isEqualTo(1);
    assertThat(upsert.rowsInserted()).isEqualTo(1);
    assertThat(deleted).isEqualTo(1);
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(mainBefore);
    assertThat(contents(table)).containsOnlyKeys(1L, 2L, 3L, 4L).containsEntry(1L, "a/1");
    Snapshot branchHead = table.snapshot("audit");
    assertThat(contents(table, branchHead.snapshotId()))
        .containsOnlyKeys(1L, 3L, 4L, 9L)
        .containsEntry(1L, "x/1");
    assertThat(branchHead.summary()).containsEntry("job", "nightly");
    assertThat(table.snapshot(branchHead.parentId()).summary()).containsEntry("job", "nightly");
  }

  @Test
  void snapshotPropertiesAreStampedOnEveryCommit() {
    Table table = table(3, true);
    RowEdits edits = RowEdits.on(table).withSnapshotProperties(Map.of("run", "42"));

    edits.append(List.of(row(5, "e", 5)));
    edits.delete(Expressions.equal("id", 5L));
    edits.overwrite(List.of(row(6, "f", 6)), Expressions.equal("id", 1L));
    edits.upsert(List.of(row(2, "B", 2)), List.of("id"));

    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    assertThat(snapshots).hasSize(5);
    assertThat(snapshots.subList(1, 5))
        .allSatisfy(snapshot -> assertThat(snapshot.summary()).containsEntry("run", "42"));
  }

  private static int snapshotCount(Table table) {
    table.refresh();
    int count = 0;
    for (Snapshot ignored : table.snapshots()) {
      count += 1;
    }
    return count;
  }
}
