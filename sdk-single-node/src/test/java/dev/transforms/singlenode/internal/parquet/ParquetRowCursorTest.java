package dev.transforms.singlenode.internal.parquet;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.singlenode.edits.RowEditsTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PartitionUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The row edits' own Parquet reader must give exactly the values Iceberg's generic reader gives,
 * for every flat type, with nulls, over many pages and row groups, in both data page versions,
 * in dictionary and plain pages (a column whose dictionary overflows has both), compressed with
 * zstd (decompressed by {@link ParquetCodecs}, read ahead on another thread) or another codec.
 */
class ParquetRowCursorTest {
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "i", Types.IntegerType.get()),
          optional(3, "l", Types.LongType.get()),
          optional(4, "f", Types.FloatType.get()),
          optional(5, "d", Types.DoubleType.get()),
          optional(6, "few", Types.StringType.get()),
          optional(7, "many", Types.StringType.get()),
          optional(8, "b", Types.BooleanType.get()),
          optional(9, "day", Types.DateType.get()),
          optional(10, "t", Types.TimeType.get()),
          optional(11, "ts", Types.TimestampType.withoutZone()),
          optional(12, "tstz", Types.TimestampType.withZone()),
          optional(13, "dec9", Types.DecimalType.of(9, 2)),
          optional(14, "dec18", Types.DecimalType.of(18, 4)),
          optional(15, "dec30", Types.DecimalType.of(30, 5)),
          optional(16, "u", Types.UUIDType.get()),
          optional(17, "fx", Types.FixedType.ofLength(3)),
          optional(18, "bin", Types.BinaryType.get()));

  private static final int ROWS = 30_000;

  @ParameterizedTest(name = "pages {0}, {1}")
  @CsvSource({"v1, zstd", "v2, zstd", "v1, gzip", "v2, uncompressed"})
  void everyValueEqualsIcebergsReader(String pageVersion, String codec, @TempDir Path dir) {
    Table table = table(dir, pageVersion, codec);
    FileScanTask task = onlyTask(table);
    Schema projection = withPosition(SCHEMA);
    List<Record> expected = icebergRows(table, task, projection);
    assertThat(expected).hasSize(ROWS);
    assertThat(task.file().splitOffsets()).as("several row groups").hasSizeGreaterThan(1);

    int row = 0;
    try (ParquetRowCursor cursor = open(table, task, projection)) {
      assertThat(cursor).as("a flat file is read by the cursor").isNotNull();
      while (cursor.next()) {
        assertThat(cursor.position()).isEqualTo(row);
        for (int column = 0; column < projection.columns().size(); column++) {
          assertSameValue(cursor.get(column), expected.get(row).get(column), row, projection, column);
        }
        row += 1;
      }
    }
    assertThat(row).isEqualTo(ROWS);
  }

  /**
   * The way an upsert reads: the key of every row through the unboxed batch path, every column of
   * a few rows only, the columns in between skipped (whole pages of them at a time).
   */
  @ParameterizedTest(name = "pages {0}, {1}")
  @CsvSource({"v1, zstd", "v2, zstd", "v1, gzip"})
  void sparseReadsSkipTheRowsInBetween(String pageVersion, String codec, @TempDir Path dir) {
    Table table = table(dir, pageVersion, codec);
    FileScanTask task = onlyTask(table);
    Schema projection = withPosition(SCHEMA);
    List<Record> expected = icebergRows(table, task, projection);
    Random random = new Random(7);

    int row = 0;
    int fullRows = 0;
    try (ParquetRowCursor cursor = open(table, task, projection)) {
      cursor.readAheadExcept(new int[] {0, 2});
      assertThat(cursor.hasLongValues(0)).isTrue();
      assertThat(cursor.hasLongValues(2)).isTrue();
      assertThat(cursor.hasLongValues(1)).as("an int column is read as longs too").isTrue();
      assertThat(cursor.hasLongValues(4)).isFalse();
      while (cursor.next()) {
        Record want = expected.get(row);
        assertThat(cursor.isNull(0)).isFalse();
        assertThat(cursor.getLong(0)).isEqualTo(want.get(0));
        assertThat(cursor.isNull(2)).isEqualTo(want.get(2) == null);
        if (want.get(2) != null) {
          assertThat(cursor.getLong(2)).isEqualTo(want.get(2));
        }
        // a few rows are read whole; runs of up to 3,000 rows are skipped between them
        if (random.nextInt(row < ROWS / 2 ? 40 : 3_000) == 0) {
          fullRows += 1;
          for (int column = 0; column < projection.columns().size(); column++) {
            assertSameValue(cursor.get(column), want.get(column), row, projection, column);
          }
        }
        row += 1;
      }
    }
    assertThat(row).isEqualTo(ROWS);
    assertThat(fullRows).isGreaterThan(100);
  }

  /**
   * The way the second pass of a probe reads: cursors of some columns each, their pages decompressed
   * from the start, moving straight to the rows another cursor found, across row groups.
   */
  @ParameterizedTest(name = "pages {0}, {1}")
  @CsvSource({"v1, zstd", "v2, zstd", "v1, gzip"})
  void prefetchedCursorsMoveStraightToTheRowsAskedFor(String pageVersion, String codec, @TempDir Path dir) {
    Table table = table(dir, pageVersion, codec);
    FileScanTask task = onlyTask(table);
    assertThat(task.file().splitOffsets()).as("several row groups").hasSizeGreaterThan(2);
    Schema projection = withPosition(SCHEMA);
    List<Record> expected = icebergRows(table, task, projection);
    Random random = new Random(11);
    List<Types.NestedField> columns = projection.columns();
    Schema strings = new Schema(columns.get(6), columns.get(5), columns.get(18));
    Schema numbers = new Schema(columns.get(12), columns.get(4), columns.get(8));
    int visited = 0;
    try (ParquetRowCursor a = open(table, task, strings);
        ParquetRowCursor b = open(table, task, numbers)) {
      a.prefetch();
      b.prefetch();
      for (int row = random.nextInt(5); row < ROWS; row += 1 + random.nextInt(random.nextInt(20) == 0 ? 2_500 : 40)) {
        assertThat(a.moveTo(row)).isTrue();
        assertThat(b.moveTo(row)).isTrue();
        Record want = expected.get(row);
        assertSameValue(a.get(0), want.get(6), row, projection, 6);
        assertSameValue(a.get(1), want.get(5), row, projection, 5);
        assertThat(a.get(2)).isEqualTo((long) row);
        assertSameValue(b.get(0), want.get(12), row, projection, 12);
        assertSameValue(b.get(1), want.get(4), row, projection, 4);
        assertSameValue(b.get(2), want.get(8), row, projection, 8);
        visited += 1;
      }
      assertThat(a.moveTo(ROWS - 1)).isTrue();
      assertThatThrownBy(() -> a.moveTo(ROWS - 2)).hasMessageContaining("Cannot move back from row " + (ROWS - 1));
      assertThat(a.moveTo(ROWS)).as("past the last row").isFalse();
    }
    assertThat(visited).isGreaterThan(100);
  }

  @Test
  void prefetchingHoldsFewPagesOfEachColumnOfAWideTable() {
    assertThat(ParquetRowCursor.prefetchedPages(1)).isEqualTo(16);
    assertThat(ParquetRowCursor.prefetchedPages(3)).isEqualTo(16);
    assertThat(ParquetRowCursor.prefetchedPages(8)).isEqualTo(8);
    assertThat(ParquetRowCursor.prefetchedPages(200)).isEqualTo(2);
  }

  /**
   * The way a probe reads an integral key: in bulk, a batch at a time, deleted positions left out,
   * across pages and row groups; the same rows, values and nulls as row by row.
   */
  @ParameterizedTest(name = "pages {0}, {1}")
  @CsvSource({"v1, zstd", "v2, gzip"})
  void bulkKeysAreTheRowsOneByOne(String pageVersion, String codec, @TempDir Path dir) {
    Table table = table(dir, pageVersion, codec);
    FileScanTask task = onlyTask(table);
    Schema keys = new Schema(SCHEMA.findField("l"), SCHEMA.findField("i"));
    org.apache.iceberg.deletes.PositionDeleteIndex deleted =
        org.apache.iceberg.deletes.PositionDeleteIndexUtil.merge(List.of());
    for (long at = 0; at < ROWS; at += 1 + (at % 7)) {
      deleted.delete(at);
    }
    deleted.delete(ROWS - 1);
    List<String> oneByOne = new ArrayList<>();
    try (ParquetRowCursor cursor = open(table, task, keys)) {
      cursor.skipPositions(deleted);
      while (cursor.next()) {
        oneByOne.add(cursor.position() + ":" + (cursor.isNull(0) ? "null" : cursor.getLong(0)));
      }
    }
    List<String> bulk = new ArrayList<>();
    long[] values = new long[300];
    boolean[] present = new boolean[300];
    long[] positions = new long[300];
    try (ParquetRowCursor cursor = open(table, task, keys)) {
      cursor.skipPositions(deleted);
      int count;
      while ((count = cursor.nextLongs(0, values, present, positions)) > 0) {
        for (int i = 0; i < count; i++) {
          bulk.add(positions[i] + ":" + (present[i] ? values[i] : "null"));
        }
      }
    }
    assertThat(oneByOne).hasSizeBetween(ROWS / 2, ROWS - 1_000);
    assertThat(bulk).isEqualTo(oneByOne);
  }

  /** Parquet's gzip and snappy decompressors keep state and are shared: cursors on many threads. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"gzip", "snappy", "zstd"})
  void cursorsOnSeveralThreadsReadTheSameRows(String codec, @TempDir Path dir) throws Exception {
    Table table = table(dir, "v1", codec);
    FileScanTask task = onlyTask(table);
    Schema projection = withPosition(SCHEMA);
    List<Record> expected = icebergRows(table, task, projection);
    java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<Integer>> readers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        readers.add(
            threads.submit(
                () -> {
                  int row = 0;
                  try (ParquetRowCursor cursor = open(table, task, projection)) {
                    while (cursor.next()) {
                      for (int column = 0; column < projection.columns().size(); column++) {
                        assertSameValue(cursor.get(column), expected.get(row).get(column), row, projection, column);
                      }
                      row += 1;
                    }
                  }
                  return row;
                }));
      }
      for (java.util.concurrent.Future<Integer> reader : readers) {
        assertThat(reader.get()).isEqualTo(ROWS);
      }
    } finally {
      threads.shutdownNow();
    }
  }

  /**
   * Arrow scans read whole flat files with the cursor (strings as bytes) and filtered scans with
   * Iceberg's reader: both must give the same vectors, position deletes applied.
   */
  @Test
  void arrowScansAgreeWithIcebergsReader(@TempDir Path dir) {
    Table table = table(dir, "v1", "zstd");
    table.updateProperties().set(TableProperties.DELETE_MODE, "merge-on-read").commit();
    long deleted = RowEdits.on(table).delete("id >= 1000 and id < 1100"); // position deletes
    assertThat(deleted).isPositive();
    try (org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();
        org.apache.arrow.vector.VectorSchemaRoot cursorRows =
            dev.transforms.singlenode.arrow.ArrowTableReader.of(table).readAll(allocator);
        org.apache.arrow.vector.VectorSchemaRoot icebergRows =
            dev.transforms.singlenode.arrow.ArrowTableReader.of(table)
                .filter(org.apache.iceberg.expressions.Expressions.greaterThan("id", -1_000_000L))
                .readAll(allocator)) {
      assertThat(cursorRows.getRowCount()).isEqualTo(ROWS - deleted);
      assertThat(icebergRows.getRowCount()).isEqualTo(cursorRows.getRowCount());
      for (int column = 0; column < SCHEMA.columns().size(); column++) {
        org.apache.arrow.vector.FieldVector a = cursorRows.getVector(column);
        org.apache.arrow.vector.FieldVector b = icebergRows.getVector(column);
        for (int row = 0; row < cursorRows.getRowCount(); row++) {
          Object left = a.getObject(row);
          Object right = b.getObject(row);
          if (left instanceof byte[]) {
            assertThat((byte[]) left).as("%s, row %d", a.getName(), row).isEqualTo((byte[]) right);
          } else {
            assertThat(left).as("%s, row %d", a.getName(), row).isEqualTo(right);
          }
        }
      }
    }
  }

  /**
   * A cursor that moves past whole pages of a zstd column never decompresses them: with the zstd frame
   * of one page broken, a cursor that skips that page reads the rows around it, and one that stops in
   * it fails, naming the column and the file.
   */
  @Test
  void pagesMovedPastWholeAreNeverDecompressed(@TempDir Path dir) throws IOException {
    Table table = table(dir, "v1", "zstd", 64 << 20);
    FileScanTask task = onlyTask(table);
    assertThat(task.file().splitOffsets()).as("one row group").hasSize(1);
    Schema projection = withPosition(SCHEMA);
    List<Record> expected = icebergRows(table, task, projection);
    Path file = Path.of(java.net.URI.create(task.file().location().startsWith("/")
        ? "file:" + task.file().location() : task.file().location()));
    breakPage(table, task, file, "many", 2); // rows 2,000 to 2,999 (pages of 1,000 rows)

    Schema many = new Schema(projection.columns().get(6), MetadataColumns.ROW_POSITION);
    try (ParquetRowCursor cursor = open(table, task, many)) {
      for (int row : new int[] {10, 999, 1_000, 3_000, 3_999, 12_345}) {
        assertThat(cursor.moveTo(row)).isTrue();
        assertSameValue(cursor.get(0), expected.get(row).get(6), row, projection, 6);
        assertThat(cursor.get(1)).isEqualTo((long) row);
      }
    }
    try (ParquetRowCursor cursor = open(table, task, many)) {
      assertThat(cursor.moveTo(2_500)).isTrue();
      assertThatThrownBy(() -> cursor.get(0))
          .hasMessageContaining("column many of")
          .hasMessageContaining(file.getFileName().toString());
    }
  }

  /** Overwrites the zstd frame magic of a data page of a column in the first row group. */
  private static void breakPage(Table table, FileScanTask task, Path file, String column, int page)
      throws IOException {
    long offset;
    try (org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader reader =
        org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader.open(
            new IcebergParquetFile(table.io().newInputFile(task.file())), ParquetRowCursor.OPTIONS)) {
      var chunk = reader.getRowGroups().get(0).getColumns().stream()
          .filter(c -> c.getPath().toDotString().equals(column)).findFirst().orElseThrow();
      var location = reader.readOffsetIndex(chunk);
      assertThat(location.getFirstRowIndex(page)).isEqualTo(page * 1_000L);
      offset = location.getOffset(page);
    }
    try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file,
        java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
      ByteBuffer head = ByteBuffer.allocate(256);
      channel.read(head, offset);
      head.flip();
      java.io.ByteArrayInputStream in = new java.io.ByteArrayInputStream(head.array(), 0, head.limit());
      org.apache.iceberg.shaded.org.apache.parquet.format.Util.readPageHeader(in);
      long frame = offset + (head.limit() - in.available());
      ByteBuffer magic = ByteBuffer.allocate(4);
      channel.read(magic, frame);
      assertThat(magic.array()).as("a zstd frame starts the page's data")
          .containsExactly((byte) 0x28, (byte) 0xb5, (byte) 0x2f, (byte) 0xfd);
      channel.write(ByteBuffer.wrap(new byte[4]), frame);
    }
    java.nio.file.Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
  }

  @Test
  void closingEarlyStopsReadingAhead(@TempDir Path dir) {
    Table table = table(dir, "v1", "zstd");
    FileScanTask task = onlyTask(table);
    try (ParquetRowCursor cursor = open(table, task, withPosition(SCHEMA))) {
      cursor.readAheadExcept(new int[] {0});
      for (int i = 0; i < 10; i++) {
        assertThat(cursor.next()).isTrue();
      }
      assertThat(cursor.get(6)).isEqualTo(icebergRows(table, task, withPosition(SCHEMA)).get(9).get(6));
    }
    // a second cursor on the same file still reads every row
    int rows = 0;
    try (ParquetRowCursor cursor = open(table, task, withPosition(SCHEMA))) {
      while (cursor.next()) {
        rows += 1;
      }
    }
    assertThat(rows).isEqualTo(ROWS);
  }

  @Test
  void declinesWhatItDoesNotRead(@TempDir Path dir) {
    Schema nested =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "point", Types.StructType.of(optional(3, "x", Types.DoubleType.get()))));
    Table table = RowEditsTables.create(dir, "nested", nested, PartitionSpec.unpartitioned(), 2, true, Map.of());
    GenericRecord row = GenericRecord.create(nested);
    row.setField("id", 1L);
    RowEdits.on(table).append(List.of(row));
    FileScanTask task = onlyTask(table);

    assertThat(open(table, task, withPosition(nested))).as("a struct column").isNull();
    try (ParquetRowCursor idOnly = open(table, task, withPosition(nested.select("id")))) {
      assertThat(idOnly).as("the flat columns of the same file").isNotNull();
      assertThat(idOnly.next()).isTrue();
      assertThat(idOnly.get(0)).isEqualTo(1L);
    }
  }

  /** Format v3: _row_id and _last_updated_sequence_number, written in the file or inherited. */
  @Test
  void rowLineageFollowsIceberg(@TempDir Path dir) {
    Schema schema = SCHEMA.select("id", "many");
    Table table = RowEditsTables.create(dir, "lineage", schema, PartitionSpec.unpartitioned(), 3, false, Map.of());
    List<Record> rows = new ArrayList<>();
    for (long id = 0; id < 1_000; id++) {
      GenericRecord row = GenericRecord.create(schema);
      row.setField("id", id);
      row.setField("many", "v" + id);
      rows.add(row);
    }
    RowEdits.on(table).append(rows.subList(0, 900));
    // copy-on-write rewrites the file, writing the lineage of its kept rows into the new one
    RowEdits.on(table).delete("id = 3");
    // a file whose rows inherit their lineage from its first row id and sequence number
    RowEdits.on(table).append(rows.subList(900, 1_000));

    Schema projection =
        new Schema(
            schema.findField("id"),
            MetadataColumns.ROW_ID,
            MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER,
            MetadataColumns.ROW_POSITION);
    table.refresh();
    List<FileScanTask> tasks = RowEditsTables.tasks(table, table.currentSnapshot());
    assertThat(tasks).hasSize(2);
    for (FileScanTask task : tasks) {
      List<Record> expected = icebergRows(table, task, projection);
      int row = 0;
      try (ParquetRowCursor cursor = open(table, task, projection)) {
        assertThat(cursor).isNotNull();
        while (cursor.next()) {
          for (int column = 0; column < 4; column++) {
            assertThat(cursor.get(column))
                .as("row %d, %s, file %s", row, projection.columns().get(column).name(), task.file().location())
                .isEqualTo(expected.get(row).get(column));
          }
          row += 1;
        }
      }
      assertThat(row).isEqualTo(expected.size());
    }
  }

  // ---------------------------------------------------------------------------------------------

  private static Table table(Path dir, String pageVersion, String codec) {
    return table(dir, pageVersion, codec, 262_144);
  }

  private static Table table(Path dir, String pageVersion, String codec, int rowGroupBytes) {
    Table table =
        RowEditsTables.create(
            dir,
            "values_" + pageVersion + "_" + codec,
            SCHEMA,
            PartitionSpec.unpartitioned(),
            2,
            true,
            Map.of(
                TableProperties.PARQUET_PAGE_VERSION, pageVersion,
                TableProperties.PARQUET_COMPRESSION, codec,
                TableProperties.PARQUET_PAGE_ROW_LIMIT, "1000",
                TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, Integer.toString(rowGroupBytes),
                TableProperties.PARQUET_DICT_SIZE_BYTES, "4096"));
    RowEdits.on(table).append(randomRows(new Random(pageVersion.hashCode() * 31L + codec.hashCode())));
    return table;
  }

  private static List<Record> randomRows(Random random) {
    List<Record> rows = new ArrayList<>(ROWS);
    for (int n = 0; n < ROWS; n++) {
      GenericRecord row = GenericRecord.create(SCHEMA);
      row.set(0, (long) n * 3 - 7_000);
      row.set(1, maybe(random, random.nextInt()));
      row.set(2, maybe(random, random.nextLong()));
      row.set(3, maybe(random, random.nextInt(50) == 0 ? Float.NaN : random.nextFloat() * 1e6f));
      row.set(4, maybe(random, random.nextGaussian() * 1e9));
      row.set(5, maybe(random, "tag-" + random.nextInt(5)));
      row.set(6, maybe(random, "value " + Long.toString(random.nextLong(), 36) + " é€" + n));
      row.set(7, maybe(random, random.nextBoolean()));
      row.set(8, maybe(random, LocalDate.of(2020, 1, 1).plusDays(random.nextInt(3_000))));
      row.set(9, maybe(random, LocalTime.ofNanoOfDay(random.nextInt(86_400_000) * 1_000_000L + 123_000)));
      row.set(10, maybe(random, LocalDateTime.of(2024, 5, 1, 0, 0).plusNanos(random.nextInt(1 << 30) * 1_000L)));
      row.set(11, maybe(random, OffsetDateTime.of(2024, 5, 1, 0, 0, 0, 0, ZoneOffset.UTC).plusSeconds(random.nextInt(1 << 28))));
      row.set(12, maybe(random, BigDecimal.valueOf(random.nextInt(1_000_000_000) - 500_000_000, 2)));
      row.set(13, maybe(random, BigDecimal.valueOf(random.nextLong() % 100_000_000_000_000_000L, 4)));
      row.set(14, maybe(random, new BigDecimal(new BigInteger(96, random).negate(), 5)));
      row.set(15, maybe(random, new UUID(random.nextLong(), random.nextLong())));
      byte[] fixed = new byte[3];
      random.nextBytes(fixed);
      row.set(16, maybe(random, fixed));
      byte[] binary = new byte[random.nextInt(12)];
      random.nextBytes(binary);
      row.set(17, maybe(random, ByteBuffer.wrap(binary)));
      rows.add(row);
    }
    return rows;
  }

  private static Object maybe(Random random, Object value) {
    return random.nextInt(10) == 0 ? null : value;
  }

  private static Schema withPosition(Schema schema) {
    List<Types.NestedField> columns = new ArrayList<>(schema.columns());
    columns.add(MetadataColumns.ROW_POSITION);
    return new Schema(columns);
  }

  private static FileScanTask onlyTask(Table table) {
    table.refresh();
    List<FileScanTask> tasks = RowEditsTables.tasks(table, table.currentSnapshot());
    assertThat(tasks).hasSize(1);
    return tasks.get(0);
  }

  private static ParquetRowCursor open(Table table, FileScanTask task, Schema projection) {
    return ParquetRowCursor.open(
        table.io().newInputFile(task.file()),
        task,
        projection,
        PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant));
  }

  /** The file's rows as Iceberg's generic Parquet reader gives them, in file order. */
  private static List<Record> icebergRows(Table table, FileScanTask task, Schema projection) {
    Map<Integer, ?> constants =
        PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant);
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> records =
        Parquet.read(table.io().newInputFile(task.file()))
            .project(projection)
            .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(projection, fileSchema, constants))
            .build()) {
      records.forEach(record -> rows.add(record.copy()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static void assertSameValue(Object actual, Object expected, int row, Schema projection, int column) {
    String where = "row " + row + ", column " + projection.columns().get(column).name();
    if (expected instanceof byte[]) {
      assertThat(actual).as(where).isInstanceOf(byte[].class);
      assertThat(Arrays.equals((byte[]) actual, (byte[]) expected)).as(where).isTrue();
    } else {
      assertThat(actual).as(where).isEqualTo(expected);
      if (expected != null) {
        assertThat(actual.getClass()).as(where).isEqualTo(expected.getClass());
      }
    }
  }
}
