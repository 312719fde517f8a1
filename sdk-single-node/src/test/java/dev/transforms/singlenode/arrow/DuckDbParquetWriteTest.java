package dev.transforms.singlenode.arrow;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.TransformsException;
import dev.transforms.singlenode.internal.duckdb.DuckDbWritePlan;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.iceberg.shaded.org.apache.parquet.io.LocalInputFile;
import org.apache.iceberg.shaded.org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.iceberg.shaded.org.apache.parquet.schema.MessageType;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveType;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data files written by DuckDB (the native path of {@link ArrowTableWriter}) read back through
 * Iceberg's generic reader to the rows written, carry field ids and the Parquet types Iceberg's spec
 * asks for, and have the same column metrics (sizes excepted) as the Java writer's files of the same
 * rows. Tables DuckDB cannot write go through the Java writer; a failure leaves no file.
 */
class DuckDbParquetWriteTest {
  static final Schema ALL =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "flag", Types.BooleanType.get()),
          optional(3, "small", Types.IntegerType.get()),
          optional(4, "ratio", Types.FloatType.get()),
          optional(5, "score", Types.DoubleType.get()),
          optional(6, "price", Types.DecimalType.of(9, 2)),
          optional(7, "amount", Types.DecimalType.of(18, 4)),
          optional(8, "huge", Types.DecimalType.of(38, 10)),
          optional(9, "day", Types.DateType.get()),
          optional(10, "at_time", Types.TimeType.get()),
          optional(11, "local_ts", Types.TimestampType.withoutZone()),
          optional(12, "utc_ts", Types.TimestampType.withZone()),
          optional(13, "name", Types.StringType.get()),
          optional(14, "payload", Types.BinaryType.get()),
          optional(15, "key", Types.UUIDType.get()));

  private static final int ROWS = 3_000;

  @TempDir Path dir;
  @RegisterExtension final LeakCheckedAllocator memory = new LeakCheckedAllocator();
  private BufferAllocator allocator;

  @BeforeEach
  void useAllocator() {
    allocator = memory.get();
  }

  static List<Record> rows(int from, int to) {
    List<Record> rows = new ArrayList<>();
    BigDecimal hugeMax = new BigDecimal(new BigInteger("9".repeat(38)), 10);
    for (int i = from; i < to; i++) {
      boolean edge = i % 97 == 0;
      Float ratio = switch (i % 11) {
        case 0 -> null;
        case 1 -> Float.NaN;
        case 2 -> edge ? Float.POSITIVE_INFINITY : -0.0f;
        default -> i / 3.0f;
      };
      Double score = switch (i % 13) {
        case 0 -> null;
        case 1 -> Double.NaN;
        case 2 -> edge ? Double.NEGATIVE_INFINITY : Double.MAX_VALUE;
        default -> -i * 1.25;
      };
      rows.add(
          TableFixtures.record(
              ALL,
              edge ? Long.MIN_VALUE + i : (long) i,
              i % 5 == 0 ? null : i % 2 == 0,
              i % 7 == 0 ? null : (edge ? Integer.MAX_VALUE : i - 1_000),
              ratio,
              score,
              i % 3 == 0 ? null : BigDecimal.valueOf(edge ? 999_999_999L : -i * 37L, 2),
              i % 4 == 0 ? null : BigDecimal.valueOf(edge ? 999_999_999_999_999_999L : i * 100_003L, 4),
              i % 6 == 0 ? null : (edge ? hugeMax.negate() : BigDecimal.valueOf(i, 10).add(BigDecimal.TEN.pow(20))),
              i % 8 == 0 ? null : (edge ? LocalDate.of(1, 1, 1) : LocalDate.of(2026, 1, 1).plusDays(i % 900 - 450)),
              i % 9 == 0 ? null : (edge ? LocalTime.MAX.withNano(999_999_000) : LocalTime.ofSecondOfDay(i * 17 % 86_400).plusNanos(i * 1_000L)),
              i % 10 == 0 ? null : LocalDateTime.of(1969, 12, 31, 23, 59, 59).plusNanos(i * 1_001_000L),
              i % 12 == 0 ? null : OffsetDateTime.of(2026, 3, 29, 1, 0, 0, 0, ZoneOffset.UTC).plusSeconds(i * 61L).plusNanos(i * 1_000L),
              i % 14 == 0 ? null : (i % 14 == 1 ? "" : (edge ? "ünïcødé ✓ " + "x".repeat(40) : "name-" + (i * 7919 % 1000))),
              i % 15 == 0 ? null : ByteBuffer.wrap(i % 15 == 1 ? new byte[0] : ("p" + i).getBytes(StandardCharsets.UTF_8)),
              i % 16 == 0 ? null : new UUID(i * 0x9E3779B97F4A7C15L, -i)));
    }
    return rows;
  }

  private List<DataFile> write(Table table, List<Record> rows, boolean duckDb) {
    try (VectorSchemaRoot root = ArrowRecords.toRoot(rows, table.schema(), allocator);
        ArrowTableWriter writer =
            ArrowTableWriter.builder(table).duckDbParquet(duckDb).duckDbMinRows(1).build()) {
      writer.write(root);
      List<DataFile> files = writer.complete();
      assertThat(writer.rowsWritten()).isEqualTo(rows.size());
      return files;
    }
  }

  @Test
  void everyTypeRoundTripsWithTheJavaWritersMetrics() throws IOException {
    List<Record> rows = rows(0, ROWS);
    Table duck = TableFixtures.create(dir, "duck", ALL, PartitionSpec.unpartitioned(), 2);
    List<DataFile> files = write(duck, rows, true);
    assertThat(files).hasSize(1);
    DataFile got = files.get(0);
    assertThat(createdBy(got)).containsIgnoringCase("duckdb");
    TableFixtures.commit(duck, files);
    assertThat(TableFixtures.readGenerics(duck)).containsExactlyElementsOf(rows);

    Table java = TableFixtures.create(dir, "java", ALL, PartitionSpec.unpartitioned(), 2);
    List<DataFile> expected = write(java, rows, false);
    assertThat(expected).hasSize(1);
    DataFile want = expected.get(0);
    assertThat(createdBy(want)).doesNotContainIgnoringCase("duckdb");
    assertThat(got.recordCount()).isEqualTo(want.recordCount());
    assertThat(got.valueCounts()).isEqualTo(want.valueCounts());
    assertThat(got.nullValueCounts()).isEqualTo(want.nullValueCounts());
    assertThat(got.nanValueCounts()).isEqualTo(want.nanValueCounts());
    assertThat(got.lowerBounds()).isEqualTo(want.lowerBounds());
    assertThat(got.upperBounds()).isEqualTo(want.upperBounds());
    assertThat(got.columnSizes().keySet()).isEqualTo(want.columnSizes().keySet());
    assertThat(got.sortOrderId()).isEqualTo(want.sortOrderId());
    assertThat(got.specId()).isEqualTo(want.specId());
    assertThat(got.format()).isEqualTo(want.format());
    assertThat(got.keyMetadata()).isEqualTo(want.keyMetadata());
    assertThat(got.splitOffsets()).isNotEmpty();
    assertThat(got.fileSizeInBytes()).isEqualTo(Files.size(Path.of(got.location())));
  }

  @Test
  void aLargeRootGoesToDuckDbInSlicesAndKeepsItsOrderAndMetrics() {
    int rows = 2 * DuckDbWrite.BATCH_ROWS + 1_234;
    List<Record> records = rows(0, rows);
    Table duck = TableFixtures.create(dir, "large", ALL, PartitionSpec.unpartitioned(), 2);
    List<DataFile> files = write(duck, records, true);
    assertThat(files).hasSize(1);
    assertThat(createdBy(files.get(0))).containsIgnoringCase("duckdb");
    TableFixtures.commit(duck, files);
    assertThat(TableFixtures.readGenerics(duck)).containsExactlyElementsOf(records);
    Table java = TableFixtures.create(dir, "large_java", ALL, PartitionSpec.unpartitioned(), 2);
    DataFile want;
    try (VectorSchemaRoot root = ArrowRecords.toRoot(records, ALL, allocator);
        ArrowTableWriter writer = ArrowTableWriter.builder(java).duckDbParquet(false)
            .twoLaneMinRows(Integer.MAX_VALUE).build()) {
      writer.write(root);
      want = writer.complete().get(0);
    }
    DataFile got = files.get(0);
    assertThat(got.recordCount()).isEqualTo(rows);
    assertThat(got.valueCounts()).isEqualTo(want.valueCounts());
    assertThat(got.nullValueCounts()).isEqualTo(want.nullValueCounts());
    assertThat(got.nanValueCounts()).isEqualTo(want.nanValueCounts());
    assertThat(got.lowerBounds()).isEqualTo(want.lowerBounds());
    assertThat(got.upperBounds()).isEqualTo(want.upperBounds());
    assertThat(got.splitOffsets()).as("one offset per row group of 122,880 rows").hasSize(3);
  }

  @Test
  void theFooterHoldsFieldIdsAndTheTypesOfIcebergsSpec() throws IOException {
    Table duck = TableFixtures.create(dir, "types", ALL, PartitionSpec.unpartitioned(), 2);
    DataFile file = write(duck, rows(0, 500), true).get(0);
    MessageType parquet = footer(file).getFileMetaData().getSchema();
    List<Integer> ids = new ArrayList<>();
    parquet.getFields().forEach(f -> ids.add(f.getId() == null ? null : f.getId().intValue()));
    assertThat(ids).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);

    assertThat(primitive(parquet, "price").getPrimitiveTypeName()).isEqualTo(PrimitiveTypeName.INT32);
    assertThat(primitive(parquet, "amount").getPrimitiveTypeName()).isEqualTo(PrimitiveTypeName.INT64);
    assertThat(primitive(parquet, "huge").getPrimitiveTypeName())
        .isEqualTo(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY);
    assertThat(primitive(parquet, "huge").getTypeLength()).isEqualTo(16);
    assertThat(primitive(parquet, "key").getPrimitiveTypeName())
        .isEqualTo(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY);
    assertThat(primitive(parquet, "key").getTypeLength()).isEqualTo(16);
    assertThat(primitive(parquet, "key").getLogicalTypeAnnotation())
        .isEqualTo(LogicalTypeAnnotation.uuidType());
    assertThat(primitive(parquet, "at_time").getLogicalTypeAnnotation())
        .isEqualTo(LogicalTypeAnnotation.timeType(false, LogicalTypeAnnotation.TimeUnit.MICROS));
    assertThat(primitive(parquet, "local_ts").getLogicalTypeAnnotation())
        .isEqualTo(LogicalTypeAnnotation.timestampType(false, LogicalTypeAnnotation.TimeUnit.MICROS));
    assertThat(primitive(parquet, "utc_ts").getLogicalTypeAnnotation())
        .isEqualTo(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS));
    assertThat(primitive(parquet, "name").getLogicalTypeAnnotation())
        .isEqualTo(LogicalTypeAnnotation.stringType());
    assertThat(primitive(parquet, "payload").getPrimitiveTypeName()).isEqualTo(PrimitiveTypeName.BINARY);
    assertThat(primitive(parquet, "payload").getLogicalTypeAnnotation()).isNull();
  }

  @Test
  void aReaderIsSplitIntoFilesAtTheSizeLimitInRowOrder() throws IOException {
    Table table = TableFixtures.create(dir, "reader", ALL, PartitionSpec.unpartitioned(), 2);
    List<Record> rows = rows(0, 3_000);
    List<DataFile> files;
    try (ArrowReader reader = new RootsReader(allocator, List.of(
            ArrowRecords.toRoot(rows.subList(0, 1_000), ALL, allocator),
            ArrowRecords.toRoot(rows.subList(1_000, 2_000), ALL, allocator),
            ArrowRecords.toRoot(rows.subList(2_000, 3_000), ALL, allocator)));
        ArrowTableWriter writer = ArrowTableWriter.builder(table).targetFileSizeBytes(1).build()) {
      writer.write(reader);
      files = writer.complete();
      assertThat(writer.rowsWritten()).isEqualTo(3_000);
    }
    assertThat(files).extracting(DataFile::recordCount).containsExactly(1_000L, 1_000L, 1_000L);
    for (DataFile file : files) {
      assertThat(createdBy(file)).containsIgnoringCase("duckdb");
    }
    TableFixtures.commit(table, files);
    assertThat(TableFixtures.readGenerics(table)).containsExactlyElementsOf(rows);
  }

  @Test
  void aNullInARequiredColumnFailsAndLeavesNoFile() throws IOException {
    Table table = TableFixtures.create(dir, "required", ALL, PartitionSpec.unpartitioned(), 2);
    List<Record> rows = rows(0, ROWS);
    rows.get(2_500).set(0, null);
    try (VectorSchemaRoot root = ArrowRecords.toRoot(rows, ALL, allocator);
        ArrowTableWriter writer = ArrowTableWriter.builder(table).duckDbMinRows(1).build()) {
      assertThatThrownBy(() -> writer.write(root))
          .isInstanceOf(TransformsException.class)
          .hasMessageContaining("Column 'id'")
          .hasMessageContaining("row 2500");
      assertThat(parquetFiles("required")).as("the failed file is deleted at once").isEmpty();
    }
    assertThat(table.currentSnapshot()).isNull();
  }

  @Test
  void abortDeletesTheFilesDuckDbWrote() throws IOException {
    Table table = TableFixtures.create(dir, "aborted", ALL, PartitionSpec.unpartitioned(), 2);
    try (VectorSchemaRoot root = ArrowRecords.toRoot(rows(0, 100), ALL, allocator);
        ArrowTableWriter writer = ArrowTableWriter.builder(table).duckDbMinRows(1).build()) {
      writer.write(root);
      writer.write(root);
      assertThat(parquetFiles("aborted")).hasSize(2);
      writer.abort();
    }
    assertThat(parquetFiles("aborted")).isEmpty();
  }

  @Test
  void tablesDuckDbCannotWriteGoThroughTheJavaWriter() throws IOException {
    Schema fixed = new Schema(required(1, "id", Types.LongType.get()),
        optional(2, "code", Types.FixedType.ofLength(3)), optional(3, "wide", Types.DecimalType.of(20, 2)));
    List<Record> fixedRows = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      fixedRows.add(TableFixtures.record(fixed, (long) i, i % 4 == 0 ? null : new byte[] {1, (byte) i, 3},
          BigDecimal.valueOf(i, 2)));
    }
    Table fixedTable = TableFixtures.create(dir, "fixed", fixed, PartitionSpec.unpartitioned(), 2);
    List<DataFile> files = write(fixedTable, fixedRows, true);
    assertThat(createdBy(files.get(0))).doesNotContainIgnoringCase("duckdb");
    TableFixtures.commit(fixedTable, files);
    assertThat(TableFixtures.readGenerics(fixedTable)).containsExactlyElementsOf(fixedRows);

    List<Record> rows = rows(0, 500);
    Table partitioned = TableFixtures.create(dir, "partitioned", ALL,
        PartitionSpec.builderFor(ALL).identity("flag").build(), 2);
    files = write(partitioned, rows, true);
    assertThat(files).hasSize(3).allSatisfy(f -> assertThat(createdBy(f)).doesNotContainIgnoringCase("duckdb"));

    Schema nested = new Schema(required(1, "id", Types.LongType.get()),
        optional(2, "tags", Types.ListType.ofOptional(3, Types.StringType.get())));
    Table nestedTable = TableFixtures.create(dir, "nested", nested, PartitionSpec.unpartitioned(), 2);
    List<Record> nestedRows = List.of(TableFixtures.record(nested, 1L, List.of("a", "b")),
        TableFixtures.record(nested, 2L, null));
    files = write(nestedTable, nestedRows, true);
    assertThat(createdBy(files.get(0))).doesNotContainIgnoringCase("duckdb");
    TableFixtures.commit(nestedTable, files);
    assertThat(TableFixtures.readGenerics(nestedTable)).containsExactlyElementsOf(nestedRows);

    Table lz4 = TableFixtures.create(dir, "lz4", ALL, PartitionSpec.unpartitioned(), 2,
        Map.of(TableProperties.PARQUET_COMPRESSION, "lz4"));
    assertThat(DuckDbWritePlan.of(lz4, FileFormat.PARQUET)).as("DuckDB's lz4 is not Parquet's LZ4").isEmpty();
    assertThat(DuckDbWritePlan.of(lz4, FileFormat.AVRO)).isEmpty();
    Table v3 = TableFixtures.create(dir, "v3", ALL, PartitionSpec.unpartitioned(), 3);
    assertThat(DuckDbWritePlan.of(v3, FileFormat.PARQUET)).as("row lineage").isEmpty();
    assertThat(DuckDbWritePlan.of(off(), FileFormat.PARQUET)).isPresent();

    Table off = TableFixtures.create(dir, "off", ALL, PartitionSpec.unpartitioned(), 2);
    assertThat(createdBy(write(off, rows, false).get(0))).doesNotContainIgnoringCase("duckdb");
  }

  @Test
  void theTablesCodecAndLevelAreUsed() throws IOException {
    Table snappy = TableFixtures.create(dir, "snappy", ALL, PartitionSpec.unpartitioned(), 2,
        Map.of(TableProperties.PARQUET_COMPRESSION, "snappy"));
    DataFile file = write(snappy, rows(0, 500), true).get(0);
    assertThat(createdBy(file)).containsIgnoringCase("duckdb");
    assertThat(footer(file).getBlocks().get(0).getColumns().get(0).getCodec().name()).isEqualTo("SNAPPY");
    Table zstd = TableFixtures.create(dir, "zstd", ALL, PartitionSpec.unpartitioned(), 2);
    file = write(zstd, rows(0, 500), true).get(0);
    assertThat(footer(file).getBlocks().get(0).getColumns().get(0).getCodec().name()).isEqualTo("ZSTD");
  }

  private Table off() {
    return TableFixtures.create(dir, "plain", ALL, PartitionSpec.unpartitioned(), 2);
  }

  private List<Path> parquetFiles(String table) throws IOException {
    try (Stream<Path> files = Files.walk(dir.resolve(table))) {
      return files.filter(path -> path.toString().endsWith(".parquet")).toList();
    }
  }

  private static PrimitiveType primitive(MessageType schema, String name) {
    return schema.getType(name).asPrimitiveType();
  }

  static ParquetMetadata footer(DataFile file) {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(Path.of(file.location())))) {
      return reader.getFooter();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static String createdBy(DataFile file) {
    return footer(file).getFileMetaData().getCreatedBy();
  }

  /** Roots handed out one per batch; closes them with the reader. */
  static final class RootsReader extends ArrowReader {
    private final List<VectorSchemaRoot> roots;
    private int next;

    RootsReader(BufferAllocator allocator, List<VectorSchemaRoot> roots) {
      super(allocator);
      this.roots = roots;
    }

    @Override
    public boolean loadNextBatch() {
      if (next == roots.size()) {
        return false;
      }
      try (ArrowRecordBatch batch = new VectorUnloader(roots.get(next++)).getRecordBatch()) {
        new VectorLoader(getVectorSchemaRoot()).load(batch);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {
      roots.forEach(VectorSchemaRoot::close);
    }

    @Override
    protected org.apache.arrow.vector.types.pojo.Schema readSchema() {
      return roots.get(0).getSchema();
    }
  }
}
