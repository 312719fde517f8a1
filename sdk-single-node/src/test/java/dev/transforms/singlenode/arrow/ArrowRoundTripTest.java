package dev.transforms.singlenode.arrow;

import static dev.transforms.singlenode.arrow.TableFixtures.record;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.TimeStampNanoTZVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class ArrowRoundTripTest {
  @TempDir Path dir;
  @RegisterExtension final LeakCheckedAllocator memory = new LeakCheckedAllocator();
  private BufferAllocator allocator;

  @BeforeEach
  void useAllocator() {
    allocator = memory.get();
  }

  static List<Record> allTypesRows(Schema schema) {
    List<Record> rows = new ArrayList<>();
    rows.add(
        record(
            schema,
            1L,
            true,
            42,
            1.5f,
            -2.25d,
            new BigDecimal("12345678.90"),
            new BigDecimal("-1234567890123456789012345678.0123456789"),
            LocalDate.of(2024, 2, 29),
            LocalTime.of(23, 59, 58, 123_456_000),
            LocalDateTime.of(2024, 1, 2, 3, 4, 5, 678_901_000),
            OffsetDateTime.of(2024, 1, 2, 3, 4, 5, 678_901_000, ZoneOffset.UTC),
            "héllo wörld ✓",
            UUID.fromString("123e4567-e89b-12d3-a456-426614174000"),
            new byte[] {1, 2, 3},
            ByteBuffer.wrap(new byte[] {9, 8, 7, 6})));
    rows.add(
        record(
            schema, 2L, null, null, null, null, null, null, null, null, null, null, null, null,
            null, null));
    rows.add(
        record(
            schema,
            3L,
            false,
            Integer.MIN_VALUE,
            Float.NaN,
            Double.MAX_VALUE,
            new BigDecimal("-0.01"),
            new BigDecimal("0E-10"),
            LocalDate.of(1969, 12, 31),
            LocalTime.MIDNIGHT,
            LocalDateTime.of(1900, 1, 1, 0, 0, 0, 1_000),
            OffsetDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000, ZoneOffset.UTC),
            "",
            new UUID(0, 0),
            new byte[] {0, 0, 0},
            ByteBuffer.wrap(new byte[0])));
    return rows;
  }

  @Test
  void roundTripsEveryPrimitiveTypeWithNulls() {
    Table table =
        TableFixtures.create(dir, "all_types", ArrowSchemasTest.ALL_TYPES, PartitionSpec.unpartitioned(), 2);
    List<Record> rows = allTypesRows(table.schema());
    TableFixtures.append(table, rows, allocator);

    // Iceberg's own reader sees exactly what we wrote
    assertThat(TableFixtures.readGenerics(table)).containsExactlyElementsOf(rows);

    try (VectorSchemaRoot root = ArrowTableReader.of(table).readAll(allocator)) {
      assertThat(root.getSchema()).isEqualTo(ArrowSchemas.toArrow(table.schema()));
      assertThat(root.getRowCount()).isEqualTo(3);
      assertThat(ArrowRecords.toRecords(root, table.schema())).containsExactlyElementsOf(rows);

      // values are in Arrow's own units
      TimeStampMicroTZVector utc = (TimeStampMicroTZVector) root.getVector("utc_ts");
      assertThat(utc.get(0)).isEqualTo(1_704_164_645_678_901L);
      assertThat(utc.getTimeZone()).isEqualTo("UTC");
      TimeStampMicroVector local = (TimeStampMicroVector) root.getVector("local_ts");
      assertThat(local.get(0)).isEqualTo(1_704_164_645_678_901L);
      assertThat(local.isNull(1)).isTrue();
      DecimalVector price = (DecimalVector) root.getVector("price");
      assertThat(price.getObject(0)).isEqualTo(new BigDecimal("12345678.90"));
      assertThat(root.getVector("name").getObject(0).toString()).isEqualTo("héllo wörld ✓");
    }
  }

  @Test
  void roundTripsNanosecondTimestampsInFormatV3() {
    Schema schema =
        new Schema(
            required(1, "id", Types.IntegerType.get()),
            optional(2, "local_ns", Types.TimestampNanoType.withoutZone()),
            optional(3, "utc_ns", Types.TimestampNanoType.withZone()));
    Table table = TableFixtures.create(dir, "nanos", schema, PartitionSpec.unpartitioned(), 3);
    List<Record> rows =
        List.of(
            record(
                schema,
                1,
                LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_456_789),
                OffsetDateTime.of(2024, 5, 6, 7, 8, 9, 123_456_789, ZoneOffset.UTC)),
            record(schema, 2, null, null));
    TableFixtures.append(table, rows, allocator);

    try (VectorSchemaRoot root = ArrowTableReader.of(table).readAll(allocator)) {
      assertThat(ArrowRecords.toRecords(root, schema)).containsExactlyElementsOf(rows);
      TimeStampNanoTZVector utc = (TimeStampNanoTZVector) root.getVector("utc_ns");
      assertThat(utc.get(0) % 1_000_000_000L).isEqualTo(123_456_789L);
    }
  }

  static List<Record> nestedRows(Schema schema) {
    Types.StructType address = schema.findType("address").asStructType();
    Types.StructType point =
        schema.findType("points").asListType().elementType().asStructType();

    Map<String, Double> scores = new LinkedHashMap<>();
    scores.put("math", 1.0);
    scores.put("art", null);
    Map<String, List<Long>> groups = new LinkedHashMap<>();
    groups.put("a", Arrays.asList(1L, null, 3L));
    groups.put("b", List.of());
    groups.put("c", Arrays.asList((Long) null));

    List<Record> rows = new ArrayList<>();
    rows.add(
        record(
            schema,
            1,
            structOf(address, "Main St", 12345),
            Arrays.asList("x", null, "y"),
            scores,
            List.of(structOf(point, 1.0, 2.0), structOf(point, 3.0, null)),
            groups));
    rows.add(record(schema, 2, null, null, null, null, null));
    rows.add(
        record(
            schema,
            3,
            structOf(address, "", null),
            List.of(),
            Map.of(),
            List.of(),
            Map.of()));
    return rows;
  }

  @Test
  void roundTripsNestedStructsListsAndMaps() {
    Table table =
        TableFixtures.create(dir, "nested", ArrowSchemasTest.NESTED, PartitionSpec.unpartitioned(), 2);
    List<Record> rows = nestedRows(table.schema());
    TableFixtures.append(table, rows, allocator);

    assertThat(TableFixtures.readGenerics(table)).containsExactlyElementsOf(rows);
    try (VectorSchemaRoot root = ArrowTableReader.of(table).readAll(allocator)) {
      assertThat(root.getRowCount()).isEqualTo(3);
      assertThat(ArrowRecords.toRecords(root, table.schema())).containsExactlyElementsOf(rows);
      assertThat(root.getVector("tags").getObject(0).toString()).isEqualTo("[\"x\",null,\"y\"]");
    }
    // batches of one row each go through the vector reset path
    try (ArrowBatchReader batches = ArrowTableReader.of(table).batchSize(1).openBatches(allocator)) {
      List<Record> read = new ArrayList<>();
      while (batches.loadNextBatch()) {
        read.addAll(ArrowRecords.toRecords(batches.getVectorSchemaRoot(), table.schema()));
      }
      assertThat(read).containsExactlyElementsOf(rows);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void writesArrowNativeTypesThatDifferFromTheReadTypes() {
    Schema schema =
        new Schema(
            required(1, "id", Types.IntegerType.get()),
            optional(2, "name", Types.StringType.get()),
            optional(3, "at", Types.TimestampType.withZone()));
    Table table = TableFixtures.create(dir, "native", schema, PartitionSpec.unpartitioned(), 2);

    org.apache.arrow.vector.types.pojo.Schema arrowSchema =
        new org.apache.arrow.vector.types.pojo.Schema(
            List.of(
                Field.nullable("name", ArrowType.LargeUtf8.INSTANCE),
                Field.notNullable("id", new ArrowType.Int(16, true)),
                Field.nullable("at", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "Europe/Paris"))));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(arrowSchema, allocator)) {
      root.allocateNew();
      SmallIntVector id = (SmallIntVector) root.getVector("id");
      LargeVarCharVector name = (LargeVarCharVector) root.getVector("name");
      TimeStampMilliTZVector at = (TimeStampMilliTZVector) root.getVector("at");
      id.setSafe(0, 7);
      name.setSafe(0, "seven".getBytes(StandardCharsets.UTF_8));
      at.setSafe(0, 1_000L);
      id.setSafe(1, -3);
      name.setNull(1);
      at.setNull(1);
      root.setRowCount(2);
      TableFixtures.commit(table, ArrowTableWriter.writeDataFiles(table, root));
    }

    assertThat(TableFixtures.readGenerics(table))
        .containsExactly(
            record(schema, 7, "seven", OffsetDateTime.of(1970, 1, 1, 0, 0, 1, 0, ZoneOffset.UTC)),
            record(schema, -3, null, null));
  }

  @Test
  void writesArrowUuidExtensionVectorsAndUnknownColumns() {
    Schema schema =
        new Schema(
            required(1, "id", Types.UUIDType.get()),
            optional(2, "nothing", Types.UnknownType.get()));
    Table table = TableFixtures.create(dir, "uuids", schema, PartitionSpec.unpartitioned(), 3);
    UUID value = UUID.fromString("00112233-4455-6677-8899-aabbccddeeff");

    org.apache.arrow.vector.types.pojo.Schema arrowSchema =
        new org.apache.arrow.vector.types.pojo.Schema(
            List.of(
                Field.notNullable("id", org.apache.arrow.vector.extension.UuidType.INSTANCE),
                Field.nullable("nothing", ArrowType.Null.INSTANCE)));
    assertThat(ArrowSchemas.toIceberg(arrowSchema).asStruct()).isEqualTo(schema.asStruct());
    try (VectorSchemaRoot root = VectorSchemaRoot.create(arrowSchema, allocator)) {
      org.apache.arrow.vector.UuidVector ids = (org.apache.arrow.vector.UuidVector) root.getVector("id");
      ids.getUnderlyingVector()
          .setSafe(
              0,
              ByteBuffer.allocate(16)
                  .putLong(value.getMostSignificantBits())
                  .putLong(value.getLeastSignificantBits())
                  .array());
      root.setRowCount(1);
      TableFixtures.commit(table, ArrowTableWriter.writeDataFiles(table, root));
    }

    assertThat(TableFixtures.readGenerics(table)).containsExactly(record(schema, value, null));
    try (VectorSchemaRoot root = ArrowTableReader.of(table).readAll(allocator)) {
      assertThat(root.getVector("nothing").getField().getType()).isEqualTo(ArrowType.Null.INSTANCE);
      assertThat(ArrowRecords.toRecords(root, schema)).containsExactly(record(schema, value, null));
    }
  }

  @Test
  void convertsRecordsToArrowAndBack() {
    Schema schema = ArrowSchemasTest.NESTED;
    List<Record> rows = nestedRows(schema);
    try (VectorSchemaRoot root = ArrowRecords.toRoot(rows, schema, allocator)) {
      assertThat(root.getRowCount()).isEqualTo(3);
      assertThat(ArrowRecords.toRecords(root, schema)).containsExactlyElementsOf(rows);
      assertThat(ArrowRecords.toRecord(root, schema, 2)).isEqualTo(rows.get(2));
      // a projection of the root reads only the columns asked for
      Schema idOnly = schema.select("id");
      assertThat(ArrowRecords.toRecord(root, idOnly, 0)).isEqualTo(record(idOnly, 1));
    }
  }

  @Test
  void readsTheIcebergSchemaOfAnEmptyTable() {
    Table table =
        TableFixtures.create(dir, "empty", ArrowSchemasTest.NESTED, PartitionSpec.unpartitioned(), 2);
    try (VectorSchemaRoot root = ArrowTableReader.of(table).readAll(allocator)) {
      assertThat(root.getRowCount()).isZero();
      assertThat(root.getSchema()).isEqualTo(ArrowSchemas.toArrow(table.schema()));
      for (FieldVector vector : root.getFieldVectors()) {
        assertThat(vector.getValueCount()).isZero();
      }
    }
  }

  private static Record structOf(Types.StructType type, Object... values) {
    GenericRecord record = GenericRecord.create(type);
    for (int i = 0; i < values.length; i++) {
      record.set(i, values[i]);
    }
    return record;
  }
}
