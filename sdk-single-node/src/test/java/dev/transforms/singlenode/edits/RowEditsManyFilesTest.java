package dev.transforms.singlenode.edits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.singlenode.internal.plan.RewritePlanner;
import dev.transforms.singlenode.internal.plan.RewriteStrategy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Copy-on-write edits that rewrite several data files in one commit: every file written must be a
 * file of its own, and every file the commit names must be there. The tables hold several files, as
 * users' tables do, one of them in another codec than the table's, so that the page copy rewrites some
 * files and gives up on another one within one edit.
 */
class RowEditsManyFilesTest {
  private static final int FILES = 4;
  private static final int ROWS_PER_FILE = 3_000;

  @TempDir Path dir;

  @Test
  void anUpsertThatPageCopiesSeveralFilesCommitsEachOfThem() throws Exception {
    Table table = manyFiles("upsert");
    TreeMap<Long, Record> expected = rows(table);
    List<Record> source = new ArrayList<>();
    for (long id = 7; id < FILES * ROWS_PER_FILE; id += 97) { // updates in every file
      Record row = RowEditsPageCopyRewriteTest.row(id, "updated " + id);
      source.add(row);
      expected.put(id, row);
    }
    for (long id = FILES * ROWS_PER_FILE; id < FILES * ROWS_PER_FILE + 50; id++) { // inserts
      Record row = RowEditsPageCopyRewriteTest.row(id, "new " + id);
      source.add(row);
      expected.put(id, row);
    }

    long pageCopies = RewritePlanner.rewrites(RewriteStrategy.PAGE_COPY);
    long twoLanes = RewritePlanner.rewrites(RewriteStrategy.ENGINE_TWO_LANES);
    try (AutoCloseable forced = RewritePlanner.force(RewriteStrategy.PAGE_COPY)) {
      RowEdits.on(table).upsert(source, List.of("id"));
    }

    // the page copy wrote three files and gave up on the snappy one, which the engine rewrote
    assertThat(RewritePlanner.rewrites(RewriteStrategy.PAGE_COPY) - pageCopies).isEqualTo(FILES - 1);
    assertThat(RewritePlanner.rewrites(RewriteStrategy.ENGINE_TWO_LANES) - twoLanes).isEqualTo(1);

    assertFilesDistinctAndPresent(table);
    assertThat(names(rows(table))).isEqualTo(names(expected));
  }

  @Test
  void aDeleteThatPageCopiesSeveralFilesCommitsEachOfThem() throws Exception {
    Table table = manyFiles("delete");
    TreeMap<Long, Record> expected = rows(table);
    // a run of keys in every file
    expected.keySet().removeIf(id -> id % ROWS_PER_FILE >= 100 && id % ROWS_PER_FILE < 130);
    List<String> runs = new ArrayList<>();
    for (int file = 0; file < FILES; file++) {
      long first = (long) file * ROWS_PER_FILE + 100;
      runs.add("(id >= " + first + " and id < " + (first + 30) + ")");
    }

    long pageCopies = RewritePlanner.rewrites(RewriteStrategy.PAGE_COPY);
    long twoLanes = RewritePlanner.rewrites(RewriteStrategy.ENGINE_TWO_LANES);
    try (AutoCloseable forced = RewritePlanner.force(RewriteStrategy.PAGE_COPY)) {
      RowEdits.on(table).delete(String.join(" or ", runs));
    }

    // the page copy wrote three files and gave up on the snappy one, which the engine rewrote
    assertThat(RewritePlanner.rewrites(RewriteStrategy.PAGE_COPY) - pageCopies).isEqualTo(FILES - 1);
    assertThat(RewritePlanner.rewrites(RewriteStrategy.ENGINE_TWO_LANES) - twoLanes).isEqualTo(1);

    assertFilesDistinctAndPresent(table);
    assertThat(names(rows(table))).isEqualTo(names(expected));
  }

  /**
   * Merge-on-read on format version 3: one edit that deletes rows of several data files writes their
   * deletion vectors into one Puffin file, which every one of its delete files names. The edit must
   * commit them (it refused the shared name as a file named twice), and a second edit must merge each
   * file's new vector with its old one.
   */
  @Test
  void deletionVectorsOfSeveralFilesShareOnePuffinFile() {
    Table table = RowEditsTables.create(dir, "vectors", RowEditsPageCopyRewriteTest.SCHEMA,
        PartitionSpec.unpartitioned(), 3, true, Map.of());
    TreeMap<Long, Record> expected = new TreeMap<>();
    for (int file = 0; file < 3; file++) {
      List<Record> rows = new ArrayList<>();
      for (long id = file * 10L; id < file * 10L + 10; id++) {
        Record row = RowEditsPageCopyRewriteTest.row(id, "name " + id);
        rows.add(row);
        expected.put(id, row);
      }
      RowEdits.on(table).append(rows);
    }

    RowEdits.on(table).delete("id = 1 or id = 12 or id = 23");
    List<Record> upserts = List.of(RowEditsPageCopyRewriteTest.row(2, "updated 2"),
        RowEditsPageCopyRewriteTest.row(13, "updated 13"));
    RowEdits.on(table).upsert(upserts, List.of("id"));

    expected.keySet().removeAll(List.of(1L, 12L, 23L));
    upserts.forEach(row -> expected.put((Long) row.getField("id"), row));
    table.refresh();
    assertThat(table.currentSnapshot().deleteManifests(table.io())).isNotEmpty();
    assertThat(names(rows(table))).isEqualTo(names(expected));
  }

  /**
   * A copy-on-write table of {@value #FILES} files appended one by one; the third is written in snappy
   * while the table writes zstd, so that the page copy declines it when it comes to write it.
   */
  private Table manyFiles(String name) {
    Table table = RowEditsTables.create(dir, name, RowEditsPageCopyRewriteTest.SCHEMA, PartitionSpec.unpartitioned(),
        2, false, Map.of(TableProperties.PARQUET_COMPRESSION, "zstd", TableProperties.PARQUET_PAGE_ROW_LIMIT, "200"));
    for (int file = 0; file < FILES; file++) {
      String codec = file == 2 ? "snappy" : "zstd";
      table.updateProperties().set(TableProperties.PARQUET_COMPRESSION, codec).commit();
      List<Record> rows = new ArrayList<>();
      for (long id = (long) file * ROWS_PER_FILE; id < (file + 1L) * ROWS_PER_FILE; id++) {
        rows.add(RowEditsPageCopyRewriteTest.row(id, "name " + id));
      }
      RowEdits.on(table).append(rows);
    }
    table.updateProperties().set(TableProperties.PARQUET_COMPRESSION, "zstd").commit();
    assertThat(dataFiles(table)).hasSize(FILES);
    return table;
  }

  private static void assertFilesDistinctAndPresent(Table table) throws Exception {
    List<DataFile> files = dataFiles(table);
    Set<String> locations = new HashSet<>();
    for (DataFile file : files) {
      assertThat(locations.add(file.location())).as("file %s named twice", file.location()).isTrue();
      assertThat(table.io().newInputFile(file.location()).exists()).as("file %s exists", file.location()).isTrue();
      assertThat(table.io().newInputFile(file.location()).getLength()).as("size of %s", file.location())
          .isEqualTo(file.fileSizeInBytes());
    }
  }

  private static List<DataFile> dataFiles(Table table) {
    table.refresh();
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> files.add(task.file()));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return files;
  }

  private static TreeMap<Long, Record> rows(Table table) {
    TreeMap<Long, Record> rows = new TreeMap<>();
    for (Record row : RowEditsTables.read(table)) {
      rows.put((Long) row.getField("id"), row);
    }
    return rows;
  }

  private static Map<Long, Object> names(TreeMap<Long, Record> rows) {
    Map<Long, Object> names = new TreeMap<>();
    rows.forEach((id, row) -> names.put(id, String.valueOf(row.getField("name")) + "|" + row.getField("amount")));
    return names;
  }
}
