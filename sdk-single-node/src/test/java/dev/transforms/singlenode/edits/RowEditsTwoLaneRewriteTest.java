package dev.transforms.singlenode.edits;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import dev.transforms.singlenode.internal.plan.RewritePlanner;
import dev.transforms.singlenode.internal.parquet.PageCopyRewrite;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Copy-on-write upserts into a file of at least {@link RewritePlanner#POSITIONS_FIRST_MIN_ROWS} rows: two
 * threads copy the kept rows, each one half of the file into files of their own. Every kept row
 * must arrive exactly once with its values (strings passed through as bytes, or not, when a string
 * column partitions the table) and, in format v3, its row lineage id.
 */
class RowEditsTwoLaneRewriteTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "region", Types.StringType.get()));

  private static final int ROWS = (int) RewritePlanner.POSITIONS_FIRST_MIN_ROWS + 20_000;

  @TempDir Path dir;

  /** The engine's two lanes: page copy is turned off here (RowEditsPageCopyRewriteTest covers it). */
  @BeforeEach
  void noPageCopy() {
    System.setProperty(PageCopyRewrite.SWITCH, "false");
  }

  @AfterEach
  void pageCopyBack() {
    System.clearProperty(PageCopyRewrite.SWITCH);
  }

  @ParameterizedTest(name = "format v{0}, partitioned by region: {1}")
  @CsvSource({"2, false", "3, false", "2, true"})
  void everyKeptRowArrivesOnceWithItsValues(int formatVersion, boolean partitioned) {
    PartitionSpec spec =
        partitioned ? PartitionSpec.builderFor(SCHEMA).identity("region").build() : PartitionSpec.unpartitioned();
    Table table = RowEditsTables.create(dir, "two_lanes", SCHEMA, spec, formatVersion, false, Map.of());
    List<Record> seed = new ArrayList<>(ROWS);
    for (long id = 0; id < ROWS; id++) {
      // partitioned: nearly every row in one partition, whose file is large enough for two lanes
      seed.add(row(id, id % 7 == 0 ? null : "näme " + id, partitioned && id % 1_000 == 0 ? "us" : "eu"));
    }
    RowEdits edits = RowEdits.on(table);
    edits.append(seed);
    Map<Long, Long> rowIdsBefore = formatVersion >= 3 ? rowIds(table) : Map.of();
    int filesBefore = dataFiles(table).size();

    // changes spread over the whole file, some rows sent unchanged, and new rows
    List<Record> upserts = new ArrayList<>();
    Map<Long, Record> expected = new HashMap<>();
    seed.forEach(r -> expected.put((Long) r.getField("id"), r));
    int changed = 0;
    for (long id = 3; id < ROWS; id += 1_009) {
      Record update = row(id, "changed " + id, (String) seed.get((int) id).getField("region"));
      upserts.add(update);
      expected.put(id, update);
      changed += 1;
    }
    for (long id = 5; id < ROWS; id += 50_021) {
      upserts.add(seed.get((int) id)); // equal: neither updated nor rewritten as a change
    }
    for (long id = ROWS; id < ROWS + 10; id++) {
      Record insert = row(id, "new " + id, "eu");
      upserts.add(insert);
      expected.put(id, insert);
    }

    UpsertResult result = edits.upsert(upserts, List.of("id"));

    assertThat(result.rowsUpdated()).isEqualTo(changed);
    assertThat(result.rowsInserted()).isEqualTo(10);
    Map<Long, Record> actual = new HashMap<>();
    for (Record r : RowEditsTables.read(table)) {
      assertThat(actual.put((Long) r.getField("id"), r)).as("id %s twice", r.getField("id")).isNull();
    }
    assertThat(actual).hasSameSizeAs(expected);
    expected.forEach(
        (id, want) -> {
          Record got = actual.get(id);
          assertThat(got).as("id %d", id).isNotNull();
          assertThat(got.getField("name")).as("name of %d", id).isEqualTo(want.getField("name"));
          assertThat(got.getField("region")).as("region of %d", id).isEqualTo(want.getField("region"));
        });
    // each half of the large file rewritten into a file of its own; the inserted rows, and the kept rows of
    // the other files rewritten, in files apart
    assertThat(dataFiles(table).stream().filter(file -> file.recordCount() > 200_000))
        .as("each half of the large file rewritten into a file of its own").hasSize(2);
    assertThat(dataFiles(table)).as("the files after the upsert").hasSizeGreaterThan(filesBefore);
    if (formatVersion >= 3) {
      Map<Long, Long> rowIdsAfter = rowIds(table);
      rowIdsBefore.forEach(
          (id, rowId) -> assertThat(rowIdsAfter.get(id)).as("row id of %d", id).isEqualTo(rowId));
    }
  }

  /** A delete by filter probes the filter's columns, then copies on two threads too. */
  @ParameterizedTest(name = "format v{0}")
  @CsvSource({"2", "3"})
  void deletesKeepEveryOtherRowOnce(int formatVersion) {
    Table table =
        RowEditsTables.create(dir, "two_lane_deletes", SCHEMA, PartitionSpec.unpartitioned(), formatVersion, false, Map.of());
    List<Record> seed = new ArrayList<>(ROWS);
    for (long id = 0; id < ROWS; id++) {
      seed.add(row(id, id % 7 == 0 ? null : "näme " + id, id % 3 == 0 ? "us" : "eu"));
    }
    RowEdits edits = RowEdits.on(table);
    edits.append(seed);
    Map<Long, Long> rowIdsBefore = formatVersion >= 3 ? rowIds(table) : Map.of();

    long deleted = edits.delete("(id >= 1000 and id < 2000) or (region = 'us' and id >= 300000)");

    Map<Long, Record> expected = new HashMap<>();
    for (Record r : seed) {
      long id = (Long) r.getField("id");
      boolean gone = (id >= 1000 && id < 2000) || ("us".equals(r.getField("region")) && id >= 300_000);
      if (!gone) {
        expected.put(id, r);
      }
    }
    assertThat(deleted).isEqualTo(ROWS - expected.size());
    Map<Long, Record> actual = new HashMap<>();
    for (Record r : RowEditsTables.read(table)) {
      assertThat(actual.put((Long) r.getField("id"), r)).as("id %s twice", r.getField("id")).isNull();
    }
    assertThat(actual.keySet()).isEqualTo(expected.keySet());
    expected.forEach(
        (id, want) -> assertThat(actual.get(id).getField("name")).as("name of %d", id).isEqualTo(want.getField("name")));
    assertThat(dataFiles(table)).as("two halves").hasSize(2);
    if (formatVersion >= 3) {
      Map<Long, Long> rowIdsAfter = rowIds(table);
      expected.keySet().forEach(id -> assertThat(rowIdsAfter.get(id)).as("row id of %d", id).isEqualTo(rowIdsBefore.get(id)));
    }
  }

  private static Record row(long id, String name, String region) {
    GenericRecord record = GenericRecord.create(SCHEMA);
    record.setField("id", id);
    record.setField("name", name);
    record.setField("region", region);
    return record;
  }

  private static List<DataFile> dataFiles(Table table) {
    table.refresh();
    List<DataFile> files = new ArrayList<>();
    for (FileScanTask task : RowEditsTables.tasks(table, table.currentSnapshot())) {
      files.add(task.file());
    }
    return files;
  }

  /** The lineage id of every row, by its id. */
  private static Map<Long, Long> rowIds(Table table) {
    table.refresh();
    Map<Long, Long> ids = new HashMap<>();
    Schema projection = new Schema(SCHEMA.findField("id"), MetadataColumns.ROW_ID);
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).select("id", "_row_id").build()) {
      for (Record r : rows) {
        ids.put((Long) r.getField("id"), (Long) r.getField("_row_id"));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(ids).hasSize(ids.size());
    return ids;
  }
}
