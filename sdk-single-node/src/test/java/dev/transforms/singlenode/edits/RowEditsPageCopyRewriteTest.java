package dev.transforms.singlenode.edits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.singlenode.internal.plan.RewriteStrategy;
import dev.transforms.singlenode.internal.plan.RewritePlanner;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Files;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.iceberg.shaded.org.apache.parquet.io.LocalInputFile;
import org.apache.iceberg.shaded.org.apache.parquet.schema.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Copy-on-write of a large file by copying the pages that hold no dropped row and re-encoding the
 * others, through {@link RowEdits}: the kept rows, in their order and with their values, in a file whose
 * field ids and Iceberg metrics are those Iceberg's own writer gives the same rows; rows deleted before
 * stay deleted. Its upsert drops rows from nearly every page, so every column type's values and levels
 * go through the re-encoding. Files alone are tested in {@code PageCopyRewriteTest}.
 */
class RowEditsPageCopyRewriteTest {
  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "score", Types.DoubleType.get()),
          Types.NestedField.optional(4, "ratio", Types.FloatType.get()),
          Types.NestedField.optional(5, "day", Types.DateType.get()),
          Types.NestedField.optional(6, "amount", Types.DecimalType.of(12, 2)),
          Types.NestedField.optional(7, "at", Types.TimestampType.withZone()),
          Types.NestedField.optional(8, "flag", Types.BooleanType.get()),
          Types.NestedField.optional(9, "count", Types.IntegerType.get()));

  static final int ROWS = (int) RewritePlanner.POSITIONS_FIRST_MIN_ROWS + 20_000;

  @TempDir Path dir;

  private long pageCopiesBefore;

  @BeforeEach
  void countPageCopies() {
    pageCopiesBefore = RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY);
  }

  private long pageCopies() {
    return RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY) - pageCopiesBefore;
  }

  @Test
  void columnsRenamedAndWidenedSinceTheFileWasWrittenKeepThePageCopy() {
    Table table = seeded("evolved");
    table.updateSchema().renameColumn("name", "title").updateColumn("count", Types.LongType.get())
        .updateColumn("ratio", Types.DoubleType.get()).commit();
    table.updateProperties().set(TableProperties.DELETE_MODE, "copy-on-write").commit();

    assertThat(RowEdits.on(table).delete("id >= 7000 and id < 7100")).isEqualTo(100);

    assertThat(pageCopies()).isEqualTo(1);
    List<Record> left = RowEditsTables.read(table);
    assertThat(left).hasSize(ROWS - 50 - 100);
    assertThat(left.stream().map(r -> (Long) r.getField("id")).toList()).isSorted().doesNotContain(7000L, 7099L);
    Record kept = left.stream().filter(r -> (Long) r.getField("id") == 7100L).findFirst().orElseThrow();
    Record written = row(7100, "näme 7100");
    assertThat(kept.getField("title")).isEqualTo(written.getField("name"));
    assertThat(kept.getField("count")).isEqualTo(((Integer) written.getField("count")).longValue());
    assertThat(kept.getField("ratio")).isEqualTo(((Float) written.getField("ratio")).doubleValue());
  }

  static Record row(long id, String name) {
    GenericRecord record = GenericRecord.create(SCHEMA);
    boolean nulls = id % 13 == 5;
    record.setField("id", id);
    record.setField("name", name);
    record.setField("score", nulls ? null : id % 101 == 0 ? Double.NaN : id * 0.5 - 1000);
    record.setField("ratio", nulls ? null : id % 97 == 0 ? Float.NaN : (float) (id % 1000) / 7);
    record.setField("day", nulls ? null : LocalDate.of(2020, 1, 1).plusDays(id % 2000));
    record.setField("amount", nulls ? null : BigDecimal.valueOf(id * 37 - 5_000_000, 2));
    record.setField("at", nulls ? null : OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC).plusSeconds(id));
    record.setField("flag", nulls ? null : id % 2 == 0);
    record.setField("count", nulls ? null : (int) (id % 5000) - 2500);
    return record;
  }

  Table seeded(String name) {
    Table table = RowEditsTables.create(dir, name, SCHEMA, PartitionSpec.unpartitioned(), 2, false,
        Map.of(TableProperties.DELETE_MODE, "merge-on-read"));
    List<Record> seed = new ArrayList<>(ROWS);
    for (long id = 0; id < ROWS; id++) {
      seed.add(row(id, id % 7 == 0 ? null : "näme " + id));
    }
    RowEdits edits = RowEdits.on(table);
    edits.append(seed);
    // rows deleted before the rewrite, with a position delete file (merge-on-read deletes)
    edits.delete("id >= 1000 and id < 1050");
    return table;
  }

  private static List<Record> upserts() {
    List<Record> upserts = new ArrayList<>();
    for (long id = 3; id < ROWS; id += 1_009) {
      upserts.add(row(id, "changed " + id));
    }
    for (long id = ROWS; id < ROWS + 10; id++) {
      upserts.add(row(id, "new " + id));
    }
    return upserts;
  }

  @Test
  void pagesCopiedHoldTheKeptRowsWithIcebergsMetricsAndFieldIds() throws Exception {
    Table duck = seeded("copied");
    Table plain = seeded("java");
    UpsertResult byDuck = RowEdits.on(duck).upsert(upserts(), List.of("id"));
    UpsertResult byJava;
    byJava = RowEdits.on(plain).withPlanner(RewritePlanner.standard().forced(RewriteStrategy.ENGINE))
        .upsert(upserts(), List.of("id"));

    assertThat(byDuck.rowsUpdated()).isEqualTo(byJava.rowsUpdated()).isGreaterThan(400);
    // 10 new ids, and id 1003, deleted before, comes back
    assertThat(byDuck.rowsInserted()).isEqualTo(byJava.rowsInserted()).isEqualTo(11);
    Map<Long, Record> javaRows = byId(RowEditsTables.read(plain));
    Map<Long, Record> duckRows = byId(RowEditsTables.read(duck));
    assertThat(duckRows).hasSize(ROWS - 50 + 11).isEqualTo(javaRows);

    List<DataFile> rewritten = new ArrayList<>();
    duck.refresh();
    try (CloseableIterable<FileScanTask> tasks = duck.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        assertThat(task.deletes()).as("the old position deletes went with the rewritten file").isEmpty();
        if (task.file().location().contains("data-rewrite")) {
          rewritten.add(task.file());
        }
      }
    }
    assertThat(rewritten).as("the kept rows in one file").hasSize(1);
    assertThat(pageCopies()).isEqualTo(1);
    assertLikeIcebergsWriter(duck, rewritten.get(0));
  }

  /**
   * The rewritten file has every field id, its rows in order, and the metrics Iceberg's own writer gives
   * the same rows.
   */
  protected void assertLikeIcebergsWriter(Table table, DataFile file) throws IOException {
    Path local = Path.of(java.net.URI.create(file.location().startsWith("file:") ? file.location()
        : "file://" + file.location()));

    // every column carries its field id
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(local))) {
      for (Type column : reader.getFooter().getFileMetaData().getSchema().getFields()) {
        assertThat(column.getId()).as("field id of %s", column.getName()).isNotNull();
        assertThat(column.getId().intValue()).isEqualTo(SCHEMA.findField(column.getName()).fieldId());
      }
    }

    // the same rows, in the file's order, written by Iceberg's own writer, get the same metrics
    List<Record> inFile = new ArrayList<>();
    try (CloseableIterable<Record> rows = Parquet.read(Files.localInput(local.toFile())).project(SCHEMA)
        .createReaderFunc(type -> GenericParquetReaders.buildReader(SCHEMA, type)).build()) {
      rows.forEach(r -> inFile.add(r.copy()));
    }
    assertThat(inFile).hasSize((int) file.recordCount());
    List<Long> ids = inFile.stream().map(r -> (Long) r.getField("id")).toList();
    assertThat(ids).as("kept rows keep their order").isSorted();
    DataFile reference = writeWithIceberg(table, inFile);
    assertThat(file.recordCount()).isEqualTo(reference.recordCount());
    assertThat(file.valueCounts()).isEqualTo(reference.valueCounts());
    assertThat(file.nullValueCounts()).isEqualTo(reference.nullValueCounts());
    assertThat(file.nanValueCounts()).isEqualTo(reference.nanValueCounts());
    assertThat(file.lowerBounds()).isEqualTo(reference.lowerBounds());
    assertThat(file.upperBounds()).isEqualTo(reference.upperBounds());
    assertThat(file.splitOffsets()).isNotEmpty();
  }

  @Test
  void aTableWhoseDataFolderDoesNotExistYetGetsOne() throws IOException {
    Table seed = seeded("seed");
    Table shared = RowEditsTables.create(dir, "shared", SCHEMA, PartitionSpec.unpartitioned(), 2, false, Map.of());
    // the new table's only data file lives in the seed table's folder, as after an import
    seed.refresh();
    org.apache.iceberg.AppendFiles append = shared.newAppend();
    RowEditsTables.tasks(seed, seed.currentSnapshot()).forEach(t -> append.appendFile(t.file()));
    append.commit();
    java.io.File folder = dir.resolve("shared").resolve("data").toFile();
    assertThat(folder).doesNotExist();

    long deleted = RowEdits.on(shared).delete("id >= 5000 and id < 6000");

    assertThat(deleted).isEqualTo(1000);
    assertThat(folder).isDirectory();
    List<Record> left = RowEditsTables.read(shared);
    assertThat(left).hasSize(ROWS - 1000); // the seed's position deletes were not carried over
    // one file: rows keep their order
    assertThat(left.stream().map(r -> (Long) r.getField("id")).toList()).isSorted()
        .doesNotContain(5000L, 5999L).contains(1000L, 4999L, 6000L);
    assertThat(folder.list()).anyMatch(name -> name.contains("data-rewrite"));
    assertThat(pageCopies()).isEqualTo(1);
    shared.refresh();
    List<DataFile> rewritten = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = shared.newScan().includeColumnStats().planFiles()) {
      tasks.forEach(t -> {
        if (t.file().location().contains("data-rewrite")) {
          rewritten.add(t.file());
        }
      });
    }
    assertThat(rewritten).hasSize(1);
    assertLikeIcebergsWriter(shared, rewritten.get(0));
  }

  @Test
  void aRewriteThatKeepsNoRowWritesNoFile() {
    Table table = seeded("emptied");
    // every row but the 50 deleted before is upserted with a change: the old file keeps nothing
    List<Record> all = new ArrayList<>();
    for (long id = 0; id < ROWS; id++) {
      if (id < 1000 || id >= 1050) {
        all.add(row(id, "every " + id));
      }
    }
    UpsertResult result = RowEdits.on(table).upsert(all, List.of("id"));

    assertThat(result.rowsUpdated()).isEqualTo(ROWS - 50);
    table.refresh();
    for (FileScanTask task : RowEditsTables.tasks(table, table.currentSnapshot())) {
      assertThat(task.file().recordCount()).as("no empty file: %s", task.file().location()).isPositive();
      assertThat(task.file().location()).doesNotContain("data-rewrite");
    }
    assertThat(RowEditsTables.read(table)).hasSize(ROWS - 50).allMatch(r -> ((String) r.getField("name")).startsWith("every"));
  }

  @Test
  void copiedPagesKeepTheirStatistics() throws IOException {
    Table table = RowEditsTables.create(dir, "tail", SCHEMA, PartitionSpec.unpartitioned(), 2, false, Map.of());
    List<Record> seed = new ArrayList<>(ROWS);
    for (long id = 0; id < ROWS; id++) {
      seed.add(row(id, id % 7 == 0 ? null : "näme " + id));
    }
    RowEdits.on(table).append(seed);
    long before = RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY);

    // the last rows only: the first pages, which hold every column's smallest values, are copied
    assertThat(RowEdits.on(table).delete("id >= " + (ROWS - 500))).isEqualTo(500);

    assertThat(RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY)).isEqualTo(before + 1);
    table.refresh();
    List<DataFile> rewritten = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      tasks.forEach(t -> rewritten.add(t.file()));
    }
    assertThat(rewritten).hasSize(1);
    assertLikeIcebergsWriter(table, rewritten.get(0));

    // the copy has a page index of its own: the next edit copies its pages in turn
    assertThat(RowEdits.on(table).delete("id < 300")).isEqualTo(300);
    assertThat(RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY)).isEqualTo(before + 2);
    table.refresh();
    rewritten.clear();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      tasks.forEach(t -> rewritten.add(t.file()));
    }
    assertThat(rewritten).hasSize(1);
    assertThat(rewritten.get(0).recordCount()).isEqualTo(ROWS - 800);
    assertLikeIcebergsWriter(table, rewritten.get(0));
  }

  @Test
  void pagesOfFormatVersionTwoAreLeftToTheEngine() {
    Table table = RowEditsTables.create(dir, "v2pages", SCHEMA, PartitionSpec.unpartitioned(), 2, false,
        Map.of(org.apache.iceberg.TableProperties.PARQUET_PAGE_VERSION, "v2"));
    List<Record> seed = new ArrayList<>(ROWS);
    for (long id = 0; id < ROWS; id++) {
      seed.add(row(id, id % 7 == 0 ? null : "näme " + id));
    }
    RowEdits.on(table).append(seed);
    long before = RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY);

    assertThat(RowEdits.on(table).delete("id >= 7000 and id < 7100")).isEqualTo(100);

    assertThat(RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY)).as("pages of version 2 are not copied")
        .isEqualTo(before);
    assertThat(RewritePlanner.standard().rewrites(RewriteStrategy.ENGINE_TWO_LANES))
        .as("the engine's lanes wrote them").isPositive();
    List<Record> left = RowEditsTables.read(table);
    assertThat(left).hasSize(ROWS - 100);
    assertThat(left.stream().map(r -> (Long) r.getField("id")).toList()).isSorted().doesNotContain(7000L, 7099L);
    assertThat(left.stream().filter(r -> (Long) r.getField("id") == 7100L).findFirst().orElseThrow())
        .isEqualTo(row(7100, "näme 7100"));
  }

  private DataFile writeWithIceberg(Table table, List<Record> rows) throws IOException {
    GenericFileWriterFactory factory = new GenericFileWriterFactory.Builder(table).build();
    java.io.File out = dir.resolve("reference.parquet").toFile();
    DataWriter<Record> writer = factory.newDataWriter(
        org.apache.iceberg.encryption.EncryptedFiles.plainAsEncryptedOutput(Files.localOutput(out)),
        PartitionSpec.unpartitioned(), null);
    try (writer) {
      rows.forEach(writer::write);
    }
    return writer.toDataFile();
  }

  private static Map<Long, Record> byId(List<Record> rows) {
    Map<Long, Record> byId = new HashMap<>();
    for (Record r : rows) {
      assertThat(byId.put((Long) r.getField("id"), r)).as("id %s twice", r.getField("id")).isNull();
    }
    return byId;
  }
}
