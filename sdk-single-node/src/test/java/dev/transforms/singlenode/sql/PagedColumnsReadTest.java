package dev.transforms.singlenode.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.singlenode.internal.plan.ReadStrategy;
import dev.transforms.singlenode.internal.plan.ReadPlanner;
import dev.transforms.Transforms;
import dev.transforms.singlenode.arrow.ArrowBatchReader;
import dev.transforms.singlenode.arrow.ArrowRecords;
import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.arrow.ArrowTableWriter;
import dev.transforms.singlenode.internal.parquet.ArrowColumnPages;
import dev.transforms.singlenode.internal.parquet.PagedColumnPlan;
import dev.transforms.singlenode.internal.plan.DirectScan;
import dev.transforms.singlenode.internal.parquet.PagedColumnsRead;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compare.Range;
import org.apache.arrow.vector.compare.RangeEqualsVisitor;
import org.apache.arrow.vector.compare.VectorEqualsVisitor;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.iceberg.shaded.org.apache.parquet.io.LocalInputFile;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code arrow()} reads decode columns page by page on two threads ({@link PagedColumnsRead},
 * {@link ArrowColumnPages}) and give the very root the engine's own reader gives: every primitive type
 * (booleans, decimals of 16 bytes), nulls, plain pages after a dictionary grew too large, dictionaries
 * whose pages other threads decode, several row groups, files without an offset index, small reads, and
 * what it leaves to the engine.
 */
public class PagedColumnsReadTest {

  private static final int ROWS = 240_000;

  @TempDir Path dir;

  private Transforms runner;

  @AfterEach
  void closeTheRunner() {
    if (runner != null) {
      runner.close();
    }
  }

  static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "flag", Types.BooleanType.get()),
      Types.NestedField.optional(3, "small", Types.IntegerType.get()),
      Types.NestedField.optional(4, "ratio", Types.FloatType.get()),
      Types.NestedField.optional(5, "measure", Types.DoubleType.get()),
      Types.NestedField.optional(6, "price", Types.DecimalType.of(9, 2)),
      Types.NestedField.optional(7, "mid", Types.DecimalType.of(18, 4)),
      Types.NestedField.optional(8, "wide", Types.DecimalType.of(38, 10)),
      Types.NestedField.optional(9, "day", Types.DateType.get()),
      Types.NestedField.optional(10, "local_ts", Types.TimestampType.withoutZone()),
      Types.NestedField.optional(11, "instant", Types.TimestampType.withZone()),
      Types.NestedField.optional(12, "text", Types.StringType.get()),
      Types.NestedField.optional(13, "status", Types.StringType.get()),
      Types.NestedField.optional(14, "blob", Types.BinaryType.get()),
      Types.NestedField.required(15, "code", Types.StringType.get()));

  private static final String[] STATUSES = {"new", "paid", "shipped", "a status longer than sixteen bytes", ""};

  /**
   * Rows with nulls in every optional column (at different rates, and runs of them), negative
   * decimals, strings of 0 to 40 bytes (longer than the decoder's 16-byte copies), non-ASCII text, a
   * low-cardinality column dictionary-encoded throughout and a high-cardinality one whose dictionary
   * overflows into plain pages.
   */
  static List<Record> rows(int count) {
    List<Record> rows = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      boolean nulls = i % 7 == 3 || (i >= 50_000 && i < 50_300);
      String text = i % 5 == 1 ? null : "t" + Long.toString(i * 2654435761L % 1_000_003, 36)
          + "é".repeat((int) (i % 3)) + "x".repeat((int) (i % 29));
      rows.add(SqlTables.row(SCHEMA, i, nulls ? null : i % 2 == 0, nulls ? null : (int) (i * 31 - 5000),
          nulls ? null : i / 3.0f, i % 11 == 0 ? null : -i / 7.0,
          nulls ? null : BigDecimal.valueOf(i * 101 - 5_000_000, 2),
          nulls ? null : BigDecimal.valueOf(-i * 7_000_003, 4),
          nulls ? null : new BigDecimal("1234567890123456789012345678.0123456789").subtract(BigDecimal.valueOf(i)),
          i % 13 == 0 ? null : LocalDate.of(1969, 12, 1).plusDays(i % 20_000),
          nulls ? null : LocalDateTime.of(2026, 3, 29, 2, 30).plusSeconds(i * 997),
          nulls ? null : OffsetDateTime.of(1960, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC).plusNanos(i * 1_000_123_000L),
          text, i % 17 == 0 ? null : STATUSES[(int) (i % STATUSES.length)],
          i % 9 == 0 ? null : ByteBuffer.wrap(("b" + i).getBytes(StandardCharsets.UTF_8)),
          "c" + (i % 1000)));
    }
    return rows;
  }

  /**
   * The table {@code /app/source}, written in one file by Iceberg's Java writer with small pages,
   * row groups of a few megabytes and a small dictionary, or by DuckDB.
   */
  private Table table(List<Record> rows, boolean duckDb) throws IOException {
    return table(rows, duckDb, 12 << 20);
  }

  private Table table(List<Record> rows, boolean duckDb, int rowGroupBytes) throws IOException {
    runner = DirectScanTest.open(dir, "");
    Table table = DirectScanTest.create(runner, SCHEMA);
    table.updateProperties()
        .set(TableProperties.PARQUET_PAGE_ROW_LIMIT, "4000")
        .set(TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, String.valueOf(rowGroupBytes))
        .set(TableProperties.PARQUET_DICT_SIZE_BYTES, "16384")
        .commit();
    append(table, rows, duckDb);
    return table;
  }

  private static void append(Table table, List<Record> rows, boolean duckDb) {
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = ArrowRecords.toRoot(rows, table.schema(), allocator);
        ArrowTableWriter writer = ArrowTableWriter.builder(table).duckDbParquet(duckDb).build()) {
      writer.write(root);
      List<DataFile> files = writer.complete();
      AppendFiles append = table.newAppend();
      files.forEach(append::appendFile);
      append.commit();
    }
  }

  /** Reads the table with the page decoder on and with the engine's reader; checks the roots are equal. */
  private static boolean sameRootBothWays(ArrowTableReader reader, long rows) {
    try (BufferAllocator allocator = new RootAllocator()) {
      long before = ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER);
      try (VectorSchemaRoot paged = reader.readAll(allocator);
          VectorSchemaRoot engine = reader.withNativeReads(false).readAll(allocator)) {
        boolean byPages = ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER) == before + 1;
        assertThat(paged.getRowCount()).isEqualTo(rows);
        assertThat(paged.getSchema()).isEqualTo(engine.getSchema());
        for (int c = 0; c < engine.getFieldVectors().size(); c++) {
          assertThat(VectorEqualsVisitor.vectorEquals(paged.getVector(c), engine.getVector(c)))
              .as("column %s", engine.getVector(c).getName()).isTrue();
        }
        if (byPages) {
          paged.getFieldVectors().forEach(PagedColumnsReadTest::nullsHoldZeros);
        }
        return byPages;
      }
    }
  }

  /**
   * The page decoder hands its vectors' memory out uncleared and writes every row: a null row's
   * fixed-width value must be zeros, not what the memory held before.
   */
  private static void nullsHoldZeros(org.apache.arrow.vector.FieldVector vector) {
    if (!(vector instanceof org.apache.arrow.vector.BaseFixedWidthVector fixed)
        || vector instanceof org.apache.arrow.vector.BitVector) {
      return;
    }
    int width = fixed.getTypeWidth();
    for (int row = 0; row < vector.getValueCount(); row++) {
      if (vector.isNull(row)) {
        for (int b = 0; b < width; b++) {
          assertThat(vector.getDataBuffer().getByte((long) row * width + b))
              .as("byte %d of null row %d of %s", b, row, vector.getName()).isZero();
        }
      }
    }
  }

  @Test
  void everyTypeTheDecoderReadsGivesTheEnginesRoot() throws IOException {
    Table table = table(rows(ROWS), false);
    DirectScan scan = DirectScan.plan(table, table.currentSnapshot().snapshotId()).orElseThrow();
    List<ArrowColumnPages> plans = PagedColumnPlan.plan(open(scan.paths()), table.schema().columns());
    assertThat(plans).extracting(plan -> plan.column().name())
        .as("every column, booleans and decimals of 16 bytes too").containsExactlyElementsOf(
            table.schema().columns().stream().map(Types.NestedField::name).toList());
    int rowGroups = 0;
    for (Path file : scan.paths()) {
      try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
        rowGroups += reader.getRowGroups().size();
      }
    }
    assertThat(plans.get(11).units()).as("the string column's row groups are cut into units of pages")
        .isGreaterThan(rowGroups);

    assertThat(sameRootBothWays(ArrowTableReader.of(table), ROWS)).as("the page decoder read the table").isTrue();
    assertThat(sameRootBothWays(ArrowTableReader.of(table).select("text", "instant", "mid"), ROWS))
        .as("the page decoder read a selection of its columns alone").isTrue();
  }

  @Test
  void rowGroupsSmallerThanAUnitAreOneUnitEach() throws IOException {
    Table table = table(rows(ROWS), false, 3 << 20);
    DirectScan scan = DirectScan.plan(table, table.currentSnapshot().snapshotId()).orElseThrow();
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(scan.paths().get(0)))) {
      assertThat(reader.getRowGroups()).as("row groups").hasSizeGreaterThan(2);
    }
    assertThat(sameRootBothWays(ArrowTableReader.of(table), ROWS)).isTrue();
  }

  @Test
  void filesWithoutAnOffsetIndexAreReadChunkByChunk() throws IOException {
    Table table = table(rows(ROWS), true);
    assertThat(sameRootBothWays(ArrowTableReader.of(table), ROWS)).as("the page decoder read DuckDB's file").isTrue();
  }

  @Test
  void severalFilesAreLaidEndToEndInTheirOrder() throws IOException {
    List<Record> rows = rows(ROWS);
    Table table = table(rows.subList(0, ROWS / 2), false);
    append(table, rows.subList(ROWS / 2, ROWS), true);
    assertThat(sameRootBothWays(ArrowTableReader.of(table), ROWS)).isTrue();
  }

  /**
   * Required columns of few values, dictionary-encoded throughout with no nulls, of every fixed width the
   * dictionary loops tell apart (ints, dates, longs, doubles, decimals stored as longs), beside one with
   * nulls: each is looked up by its ids as the engine reads it.
   */
  @Test
  void dictionaryColumnsWithoutNullsOfEveryWidthGiveTheEnginesValues() throws IOException {
    Schema schema = new Schema(Types.NestedField.required(1, "small", Types.IntegerType.get()),
        Types.NestedField.required(2, "day", Types.DateType.get()),
        Types.NestedField.required(3, "big", Types.LongType.get()),
        Types.NestedField.required(4, "measure", Types.DoubleType.get()),
        Types.NestedField.required(5, "mid", Types.DecimalType.of(18, 4)),
        Types.NestedField.optional(6, "maybe", Types.LongType.get()));
    runner = DirectScanTest.open(dir, "");
    Table table = DirectScanTest.create(runner, schema);
    table.updateProperties().set(TableProperties.PARQUET_PAGE_ROW_LIMIT, "4000").commit();
    List<Record> rows = new ArrayList<>();
    for (long i = 0; i < ROWS; i++) {
      long k = i * 7919 % 500; // 500 values, in no order
      rows.add(SqlTables.row(schema, (int) (k - 250), LocalDate.of(2020, 1, 1).plusDays(k),
          k * 1_000_000_007L - 99, k / 8.0 - 3, BigDecimal.valueOf(k * 123_456_789L - 7, 4),
          i % 3 == 0 ? null : k * -11));
    }
    append(table, rows, false);
    assertThat(sameRootBothWays(ArrowTableReader.of(table), ROWS)).as("the page decoder read it").isTrue();
  }

  @Test
  void aColumnPromotedFromIntToLongIsNotDecodedAsLongs() throws IOException {
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "count", Types.IntegerType.get()),
        Types.NestedField.optional(3, "text", Types.StringType.get()));
    runner = DirectScanTest.open(dir, "");
    Table table = DirectScanTest.create(runner, schema);
    List<Record> before = new ArrayList<>();
    for (long i = 0; i < ROWS; i++) {
      before.add(SqlTables.row(schema, i, i % 5 == 0 ? null : (int) -i, "r" + i));
    }
    append(table, before, false);
    table.updateSchema().updateColumn("count", Types.LongType.get()).commit();
    List<Record> after = new ArrayList<>();
    for (long i = ROWS; i < ROWS + 1000; i++) {
      after.add(SqlTables.row(table.schema(), i, i * 1_000_000_000L, "r" + i));
    }
    append(table, after, false);

    List<Path> files = filesOf(table);
    assertThat(files).hasSize(2);
    assertThat(PagedColumnPlan.plan(open(files), table.schema().columns()))
        .as("the older file holds ints").extracting(plan -> plan.column().name()).containsExactly("id", "text");
    // whichever reader reads it, the older file's ints come out as the engine's longs
    sameRootBothWays(ArrowTableReader.of(table), ROWS + 1000);
  }

  @Test
  void theSwitchTurnsThePageDecoderOff() throws IOException {
    Table table = table(rows(ROWS), false);
    System.setProperty(PagedColumnsRead.SWITCH, "false");
    try {
      assertThat(sameRootBothWays(ArrowTableReader.of(table), ROWS)).isFalse();
    } finally {
      System.clearProperty(PagedColumnsRead.SWITCH);
    }
  }

  @Test
  void stringsThatWouldTakeAQuarterOfTheHeapAreLeftToTheEngine() throws IOException {
    Table table = table(rows(ROWS), false);
    List<ArrowColumnPages> plans = PagedColumnPlan.plan(open(filesOf(table)), table.schema().columns());
    long staged = plans.stream().filter(ArrowColumnPages::staged).mapToLong(ArrowColumnPages::uncompressedBytes).sum();
    assertThat(staged).as("the strings' bytes").isPositive().isLessThan(Runtime.getRuntime().maxMemory() / 4);
    assertThat(plans.stream().filter(ArrowColumnPages::staged).map(plan -> plan.column().name()))
        .containsExactly("text", "status", "blob", "code");
    assertThat(sameRootBothWays(ArrowTableReader.of(table), ROWS)).isTrue();
  }

  /** The local paths of the table's data files, in the order a scan plans them. */
  private static List<Path> filesOf(Table table) throws IOException {
    List<Path> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        String location = task.file().location();
        files.add(location.startsWith("file:") ? Path.of(java.net.URI.create(location)) : Path.of(location));
      }
    }
    return files;
  }

  /**
   * Pages without a value: every optional column null for whole pages at the start (where the
   * dictionary-encoded pages are) and further on (where the plain pages are); each such row's value
   * must read as a null holding zeros.
   */
  @Test
  void pagesOfNullsOnlyReadAsNulls() throws IOException {
    List<Record> rows = rows(ROWS);
    for (int i = 0; i < ROWS; i++) {
      if (i < 12_000 || (i >= 100_000 && i < 120_000)) {
        for (int c = 1; c < SCHEMA.columns().size() - 1; c++) {
          rows.get(i).set(c, null);
        }
      }
    }
    assertThat(sameRootBothWays(ArrowTableReader.of(table(rows, false)), ROWS)).as("the page decoder read it")
        .isTrue();
  }

  /**
   * {@code arrowReader} cuts its batches from each decoded file: batches of a multiple of eight rows and of
   * any other size hold the rows of the whole read, in order, their strings' offsets starting at zero.
   */
  @Test
  void batchesHoldTheRowsOfTheWholeRead() throws IOException {
    Table table = table(rows(ROWS), false);
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot whole = ArrowTableReader.of(table).readAll(allocator)) {
      for (int size : new int[] {65_536, 10_001}) {
        long decoded = ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER);
        int read = 0;
        try (ArrowBatchReader batches = ArrowTableReader.of(table).batchSize(size).openBatches(allocator)) {
          while (batches.loadNextBatch()) {
            VectorSchemaRoot batch = batches.getVectorSchemaRoot();
            for (int c = 0; c < whole.getFieldVectors().size(); c++) {
              assertThat(new RangeEqualsVisitor(whole.getVector(c), batch.getVector(c))
                  .rangeEquals(new Range(read, 0, batch.getRowCount())))
                  .as("column %s of the batch at row %d of batches of %d", whole.getVector(c).getName(), read, size)
                  .isTrue();
            }
            assertThat(((VarCharVector) batch.getVector("text")).getOffsetBuffer().getInt(0)).isZero();
            read += batch.getRowCount();
          }
        }
        assertThat(read).isEqualTo(ROWS);
        assertThat(ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER)).as("the page decoder read it")
            .isEqualTo(decoded + 1);
      }
    }
  }

  @Test
  void smallReadsAreThePageDecodersToo() throws IOException {
    Table table = table(rows(1000), false);
    assertThat(sameRootBothWays(ArrowTableReader.of(table), 1000)).isTrue();
  }

  /** The files' bytes, closed when the JVM's test ends (the plans only read footers and headers). */
  private static List<dev.transforms.singlenode.internal.parquet.FileBytes> open(List<Path> files) throws IOException {
    List<dev.transforms.singlenode.internal.parquet.FileBytes> bytes = new java.util.ArrayList<>();
    for (Path file : files) {
      bytes.add(dev.transforms.singlenode.internal.parquet.FileBytes.local(file));
    }
    return bytes;
  }
}
