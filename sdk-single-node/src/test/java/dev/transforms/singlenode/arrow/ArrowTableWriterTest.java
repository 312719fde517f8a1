package dev.transforms.singlenode.arrow;

import static dev.transforms.singlenode.arrow.TableFixtures.record;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.SchemaMismatchException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class ArrowTableWriterTest {
  static final Schema EVENTS =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "category", Types.StringType.get()),
          optional(3, "ts", Types.TimestampType.withZone()),
          optional(4, "note", Types.StringType.get()));

  @TempDir Path dir;
  @RegisterExtension final LeakCheckedAllocator memory = new LeakCheckedAllocator();
  private BufferAllocator allocator;

  @BeforeEach
  void useAllocator() {
    allocator = memory.get();
  }

  private static List<Record> events(int count) {
    List<Record> rows = new ArrayList<>();
    String[] categories = {"books", "games"};
    for (int i = 0; i < count; i++) {
      OffsetDateTime ts = OffsetDateTime.of(2024, 3, 1 + (i % 3), i % 24, 0, 0, 0, ZoneOffset.UTC);
      rows.add(record(EVENTS, (long) i, categories[i % 2], ts, i % 5 == 0 ? null : "n" + i));
    }
    Collections.shuffle(rows, new Random(7));
    return rows;
  }

  @Test
  void writesOneFilePerPartitionWithItsPartitionValues() {
    PartitionSpec spec = PartitionSpec.builderFor(EVENTS).identity("category").day("ts").build();
    Table table = TableFixtures.create(dir, "partitioned", EVENTS, spec, 2);
    List<Record> rows = events(60);

    List<DataFile> files;
    try (VectorSchemaRoot root = ArrowRecords.toRoot(rows, EVENTS, allocator);
        ArrowTableWriter writer = ArrowTableWriter.builder(table).build()) {
      writer.write(root);
      files = writer.complete();
      assertThat(writer.rowsWritten()).isEqualTo(60);
    }
    assertThat(table.currentSnapshot()).as("nothing is committed").isNull();

    // 2 categories x 3 days, rows in random order
    assertThat(files).hasSize(6);
    Map<String, Long> countsByPartition = new HashMap<>();
    for (DataFile file : files) {
      String category = file.partition().get(0, String.class);
      Integer day = file.partition().get(1, Integer.class);
      countsByPartition.put(category + "/" + LocalDate.ofEpochDay(day), file.recordCount());
      assertThat(file.specId()).isEqualTo(spec.specId());
      assertThat(file.location()).contains("category=" + category);
    }
    assertThat(countsByPartition)
        .containsOnlyKeys(
            "books/2024-03-01", "books/2024-03-02", "books/2024-03-03",
            "games/2024-03-01", "games/2024-03-02", "games/2024-03-03");
    assertThat(countsByPartition.values()).containsOnly(10L);

    TableFixtures.commit(table, files);
    assertThat(TableFixtures.readGenerics(table)).containsExactlyInAnyOrderElementsOf(rows);
    try (VectorSchemaRoot root = ArrowTableReader.of(table).readAll(allocator)) {
      assertThat(ArrowRecords.toRecords(root, EVENTS)).containsExactlyInAnyOrderElementsOf(rows);
    }
  }

  @Test
  void collectsColumnMetrics() {
    Table table = TableFixtures.create(dir, "metrics", EVENTS, PartitionSpec.unpartitioned(), 2);
    List<DataFile> files;
    try (VectorSchemaRoot root = ArrowRecords.toRoot(events(20), EVENTS, allocator)) {
      files = ArrowTableWriter.writeDataFiles(table, root);
    }
    DataFile file = files.get(0);
    assertThat(file.recordCount()).isEqualTo(20);
    assertThat(file.valueCounts()).containsEntry(1, 20L);
    assertThat(file.nullValueCounts()).containsEntry(4, 4L);
    assertThat(file.columnSizes()).containsKeys(1, 2, 3, 4);
    assertThat((Long) Conversions.fromByteBuffer(Types.LongType.get(), file.lowerBounds().get(1)))
        .isZero();
    assertThat((Long) Conversions.fromByteBuffer(Types.LongType.get(), file.upperBounds().get(1)))
        .isEqualTo(19L);
  }

  @Test
  void rollsToANewFileAtTheTargetSize() {
    Table table = TableFixtures.create(dir, "rolling", EVENTS, PartitionSpec.unpartitioned(), 2);
    List<DataFile> files;
    try (VectorSchemaRoot root = ArrowRecords.toRoot(events(10_000), EVENTS, allocator);
        ArrowTableWriter writer =
            ArrowTableWriter.builder(table).targetFileSizeBytes(4 * 1024).build()) {
      writer.write(root);
      files = writer.complete();
    }
    assertThat(files).hasSizeGreaterThan(1);
    assertThat(files.stream().mapToLong(DataFile::recordCount).sum()).isEqualTo(10_000);

    // the table property is the default
    table.updateProperties().set(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "4096").commit();
    try (VectorSchemaRoot root = ArrowRecords.toRoot(events(10_000), EVENTS, allocator)) {
      assertThat(ArrowTableWriter.writeDataFiles(table, root)).hasSize(files.size());
    }
  }

  @Test
  void writesEveryBatchOfAnArrowReader() throws IOException {
    Table source = TableFixtures.create(dir, "source", EVENTS, PartitionSpec.unpartitioned(), 2);
    List<Record> rows = events(100);
    TableFixtures.append(source, rows, allocator);
    Table target = TableFixtures.create(dir, "target", EVENTS, PartitionSpec.unpartitioned(), 2);

    try (ArrowBatchReader batches = ArrowTableReader.of(source).batchSize(16).openBatches(allocator);
        ArrowTableWriter writer = ArrowTableWriter.builder(target).build()) {
      writer.write(batches);
      TableFixtures.commit(target, writer.complete());
    }
    assertThat(TableFixtures.readGenerics(target)).containsExactlyInAnyOrderElementsOf(rows);
  }

  @Test
  void writesNullsForOptionalColumnsMissingFromTheArrowData() {
    Table table = TableFixtures.create(dir, "missing", EVENTS, PartitionSpec.unpartitioned(), 2);
    org.apache.arrow.vector.types.pojo.Schema arrowSchema =
        new org.apache.arrow.vector.types.pojo.Schema(
            List.of(
                Field.nullable("note", ArrowType.Utf8.INSTANCE),
                Field.notNullable("id", new ArrowType.Int(64, true))));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(arrowSchema, allocator)) {
      ((BigIntVector) root.getVector("id")).setSafe(0, 5L);
      ((VarCharVector) root.getVector("note")).setSafe(0, "hi".getBytes(StandardCharsets.UTF_8));
      root.setRowCount(1);
      TableFixtures.commit(table, ArrowTableWriter.writeDataFiles(table, root));
    }
    assertThat(TableFixtures.readGenerics(table)).containsExactly(record(EVENTS, 5L, null, null, "hi"));
  }

  @Test
  void rejectsMismatchedDataListingEveryColumnAndWritesNothing() throws IOException {
    Table table = TableFixtures.create(dir, "mismatch", EVENTS, PartitionSpec.unpartitioned(), 2);
    org.apache.arrow.vector.types.pojo.Schema arrowSchema =
        new org.apache.arrow.vector.types.pojo.Schema(
            List.of(
                Field.nullable("id", new ArrowType.Int(64, true)),
                Field.nullable("category", new ArrowType.Int(32, true)),
                Field.nullable("ts", ArrowType.Utf8.INSTANCE),
                Field.nullable("extra", ArrowType.Bool.INSTANCE)));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(arrowSchema, allocator);
        ArrowTableWriter writer = ArrowTableWriter.builder(table).build()) {
      root.setRowCount(0);
      assertThatThrownBy(() -> writer.write(root))
          .isInstanceOfSatisfying(
              SchemaMismatchException.class,
              e ->
                  assertThat(e.differences())
                      .hasSize(4)
                      .anySatisfy(d -> assertThat(d).contains("'id' is nullable"))
                      .anySatisfy(d -> assertThat(d).contains("'category' has Arrow type Int(32, true)"))
                      .anySatisfy(d -> assertThat(d).contains("'ts' has Arrow type Utf8"))
                      .anySatisfy(d -> assertThat(d).contains("'extra'")))
          .hasMessageContaining(table.name());
      assertThat(writer.complete()).isEmpty();
    }
  }

  @Test
  void rejectsNullsInRequiredColumnsThatArrowDidNotEnforce() {
    Table table = TableFixtures.create(dir, "nulls", EVENTS, PartitionSpec.unpartitioned(), 2);
    org.apache.arrow.vector.types.pojo.Schema arrowSchema =
        new org.apache.arrow.vector.types.pojo.Schema(
            List.of(Field.notNullable("id", new ArrowType.Int(64, true))));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(arrowSchema, allocator);
        ArrowTableWriter writer = ArrowTableWriter.builder(table).build()) {
      BigIntVector id = (BigIntVector) root.getVector("id");
      id.setSafe(0, 1L);
      id.setNull(1);
      root.setRowCount(2);
      assertThatThrownBy(() -> writer.write(root))
          .isInstanceOf(dev.transforms.api.TransformsException.class)
          .hasMessageContaining("Column 'id'")
          .hasMessageContaining("row 1");
    }
  }

  @Test
  void abortDeletesTheFilesWritten() {
    Table table = TableFixtures.create(dir, "abort", EVENTS, PartitionSpec.unpartitioned(), 2);
    List<DataFile> kept;
    try (VectorSchemaRoot root = ArrowRecords.toRoot(events(10), EVENTS, allocator)) {
      ArrowTableWriter writer = ArrowTableWriter.builder(table).targetFileSizeBytes(1).build();
      writer.write(root);
      writer.abort();
      assertThatThrownBy(() -> writer.write(root)).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(writer::complete).isInstanceOf(IllegalStateException.class);

      ArrowTableWriter other = ArrowTableWriter.builder(table).build();
      other.write(root);
      kept = other.complete();
      other.close(); // after complete, close keeps the files
    }
    try (var paths = Files.walk(dir.resolve("abort"))) {
      List<String> parquet =
          paths
              .map(Path::toString)
              .filter(p -> p.endsWith(".parquet"))
              .collect(Collectors.toList());
      assertThat(parquet).hasSize(1);
      String location = kept.get(0).location();
      assertThat(
              location.startsWith("file:")
                  ? Paths.get(java.net.URI.create(location))
                  : Paths.get(location))
          .exists();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void writesTimestampsWithoutZoneIntoDayPartitions() {
    Schema schema =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "at", Types.TimestampType.withoutZone()));
    Table table =
        TableFixtures.create(
            dir, "local", schema, PartitionSpec.builderFor(schema).day("at").build(), 2);
    List<Record> rows =
        LongStream.range(0, 4)
            .mapToObj(i -> record(schema, i, i == 3 ? null : LocalDateTime.of(2020, 1, 1 + (int) i, 12, 0)))
            .collect(Collectors.toList());
    try (VectorSchemaRoot root = ArrowRecords.toRoot(rows, schema, allocator)) {
      List<DataFile> files = ArrowTableWriter.writeDataFiles(table, root);
      assertThat(files).hasSize(4);
      assertThat(files)
          .extracting(f -> f.partition().get(0, Integer.class))
          .containsExactlyInAnyOrder(18262, 18263, 18264, null);
    }
  }
}
