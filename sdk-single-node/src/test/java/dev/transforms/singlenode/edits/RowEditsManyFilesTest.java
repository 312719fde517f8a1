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
 * users' tables do, in several codecs (the page copy keeps each), one of them with data pages of format
 * version 2, which the page copy gives up on when it comes to write it, within the same edit.
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

    long pageCopies = RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY);
    long twoLanes = RewritePlanner.standard().rewrites(RewriteStrategy.ENGINE_TWO_LANES);
    RowEdits.on(table).withPlanner(RewritePlanner.standard().forced(RewriteStrategy.PAGE_COPY))
        .upsert(source, List.of("id"));

    // the page copy wrote three files and gave up on the one of version 2 pages, which the engine rewrote
    assertThat(RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY) - pageCopies).isEqualTo(FILES - 1);
    assertThat(RewritePlanner.standard().rewrites(RewriteStrategy.ENGINE_TWO_LANES) - twoLanes).isEqualTo(1);

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

    long pageCopies = RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY);
    long twoLanes = RewritePlanner.standard().rewrites(RewriteStrategy.ENGINE_TWO_LANES);
    RowEdits.on(table).withPlanner(RewritePlanner.standard().forced(RewriteStrategy.PAGE_COPY))
        .delete(String.join(" or ", runs));

    // the page copy wrote three files and gave up on the one of version 2 pages, which the engine rewrote
    assertThat(RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY) - pageCopies).isEqualTo(FILES - 1);
    assertThat(RewritePlanner.standard().rewrites(RewriteStrategy.ENGINE_TWO_LANES) - twoLanes).isEqualTo(1);

    assertFilesDistinctAndPresent(table);
    assertThat(names(rows(table))).isEqualTo(names(expected));
  }

  @Test
  void aMergeOnReadDeleteOverSeveralFilesOfAVersion3TableCommitsOneVectorPerFile() throws Exception {
    Table table = manyFiles("deletion_vectors", 3, true);
    TreeMap<Long, Record> expected = rows(table);
    expected.keySet().removeIf(id -> id % ROWS_PER_FILE >= 100 && id % ROWS_PER_FILE < 130);
    List<String> runs = new ArrayList<>();
    for (int file = 0; file < FILES; file++) {
      long first = (long) file * ROWS_PER_FILE + 100;
      runs.add("(id >= " + first + " and id < " + (first + 30) + ")");
    }

    // one Puffin file holds the vectors of every data file: one location, several delete files
    assertThat(RowEdits.on(table).delete(String.join(" or ", runs))).isEqualTo(FILES * 30L);

    table.refresh();
    List<org.apache.iceberg.DeleteFile> vectors = new ArrayList<>();
    Set<String> vectorTargets = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        vectors.addAll(task.deletes());
        task.deletes().forEach(vector -> vectorTargets.add(vector.referencedDataFile()));
      }
    }
    assertThat(vectors).as("deletion vectors").hasSize(FILES);
    assertThat(vectorTargets).as("the data files the vectors point at").hasSize(FILES);
    for (org.apache.iceberg.DeleteFile vector : vectors) {
      assertThat(table.io().newInputFile(vector.location()).exists()).as("%s exists", vector.location()).isTrue();
    }
    assertFilesDistinctAndPresent(table);
    assertThat(names(rows(table))).isEqualTo(names(expected));
  }

  /**
   * The engine's rewrite of several files keeps them apart: each rewritten file's kept rows go to a file
   * of their own (rolled at the target size), the upsert's new rows to another, so that a rewrite holds
   * the writers of one file at a time and the table keeps the files it had.
   */
  @Test
  void theEnginesRewriteOfSeveralFilesKeepsThemApart() throws Exception {
    Table table = manyFiles("apart");
    List<Record> source = new ArrayList<>();
    for (int file = 0; file < FILES; file++) {
      source.add(RowEditsPageCopyRewriteTest.row((long) file * ROWS_PER_FILE + 11, "updated"));
    }
    source.add(RowEditsPageCopyRewriteTest.row(FILES * ROWS_PER_FILE + 1L, "new"));
    RowEdits.on(table).withPlanner(RewritePlanner.standard().forced(RewriteStrategy.ENGINE))
        .upsert(source, List.of("id"));

    List<DataFile> files = dataFiles(table);
    assertThat(files).as("a file for each file rewritten, one for the upserted rows").hasSize(FILES + 1);
    assertThat(files.stream().map(DataFile::recordCount).sorted().toList())
        .containsExactly((long) FILES + 1, ROWS_PER_FILE - 1L, ROWS_PER_FILE - 1L, ROWS_PER_FILE - 1L,
            ROWS_PER_FILE - 1L);
    assertFilesDistinctAndPresent(table);
  }

  /**
   * A table without a codec property, as PyIceberg and Spark create them, gets zstd files from every
   * writer of the engine (Iceberg Java's writer would write gzip there), and its page copies keep them so.
   */
  @Test
  void aTableWithoutACodecPropertyIsWrittenInZstd() throws Exception {
    Table table = RowEditsTables.create(dir, "no-codec", RowEditsPageCopyRewriteTest.SCHEMA,
        PartitionSpec.unpartitioned(), 2, false, Map.of());
    table.updateProperties().remove(TableProperties.PARQUET_COMPRESSION).commit();
    assertThat(table.properties()).doesNotContainKey(TableProperties.PARQUET_COMPRESSION);
    List<Record> rows = new ArrayList<>();
    for (long id = 0; id < 2_000; id++) {
      rows.add(RowEditsPageCopyRewriteTest.row(id, "name " + id));
    }
    RowEdits.on(table).append(rows);
    RowEdits.on(table).withPlanner(RewritePlanner.standard().forced(RewriteStrategy.PAGE_COPY))
        .delete("id >= 100 and id < 200");
    RowEdits.on(table).upsert(List.of(RowEditsPageCopyRewriteTest.row(5_000, "new")), List.of("id"));

    List<DataFile> files = dataFiles(table);
    assertThat(files).hasSizeGreaterThanOrEqualTo(2);
    for (DataFile file : files) {
      try (var reader = org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader.open(
          new org.apache.iceberg.shaded.org.apache.parquet.io.LocalInputFile(
              java.nio.file.Path.of(java.net.URI.create(file.location()))))) {
        assertThat(reader.getRowGroups().get(0).getColumns()).as("the codec of %s", file.location())
            .allSatisfy(chunk -> assertThat(chunk.getCodec().name()).isEqualTo("ZSTD"));
      }
    }
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
   * A copy-on-write table of {@value #FILES} files appended one by one, in zstd, snappy and gzip; the
   * third has data pages of format version 2, so that the page copy declines it when it comes to write it.
   */
  private Table manyFiles(String name) {
    return manyFiles(name, 2, false);
  }

  /** The same table, of a format version and write mode. */
  private Table manyFiles(String name, int formatVersion, boolean mergeOnRead) {
    Table table = RowEditsTables.create(dir, name, RowEditsPageCopyRewriteTest.SCHEMA, PartitionSpec.unpartitioned(),
        formatVersion, mergeOnRead, Map.of(TableProperties.PARQUET_COMPRESSION, "zstd", TableProperties.PARQUET_PAGE_ROW_LIMIT, "200"));
    for (int file = 0; file < FILES; file++) {
      String codec = file == 1 ? "snappy" : file == 3 ? "gzip" : "zstd";
      table.updateProperties().set(TableProperties.PARQUET_COMPRESSION, codec)
          .set(TableProperties.PARQUET_PAGE_VERSION, file == 2 ? "v2" : "v1").commit();
      List<Record> rows = new ArrayList<>();
      for (long id = (long) file * ROWS_PER_FILE; id < (file + 1L) * ROWS_PER_FILE; id++) {
        rows.add(RowEditsPageCopyRewriteTest.row(id, "name " + id));
      }
      RowEdits.on(table).append(rows);
    }
    table.updateProperties().set(TableProperties.PARQUET_COMPRESSION, "zstd")
        .set(TableProperties.PARQUET_PAGE_VERSION, "v1").commit();
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
