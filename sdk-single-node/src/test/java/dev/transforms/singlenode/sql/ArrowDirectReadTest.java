package dev.transforms.singlenode.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.singlenode.internal.parquet.PagedColumnsRead;
import dev.transforms.singlenode.internal.plan.ReadStrategy;
import dev.transforms.singlenode.internal.plan.ReadPlanner;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.Transforms;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code arrow()} through the engine's page decoder gives the very root the engine's reader gives: the
 * same Arrow schema (types, nullability, field ids) and the same values in the same order, for every
 * primitive type, with position deletes applied after decoding; and it is not used where a filter
 * applies.
 */
public class ArrowDirectReadTest {

  @TempDir Path dir;

  /** Keeps what {@code arrow()} gave: its schema and its rows as text. */
  public static class Capture {
    static String schema;
    static String rows;

    @Transform(name = "capture")
    public void capture(@TableInput("/app/source") IcebergInput source, @TableOutput("/app/unused") IcebergOutput out) {
      VectorSchemaRoot root = source.arrow();
      schema = root.getSchema().toJson();
      rows = text(root);
    }

    /** Every value as text, byte arrays by content, one line per row after a header. */
    static String text(VectorSchemaRoot root) {
      StringBuilder out = new StringBuilder();
      root.getFieldVectors().forEach(v -> out.append(v.getName()).append('\t'));
      for (int row = 0; row < root.getRowCount(); row++) {
        out.append('\n');
        for (org.apache.arrow.vector.FieldVector vector : root.getFieldVectors()) {
          Object value = vector.getObject(row);
          out.append(value instanceof byte[] bytes ? java.util.Arrays.toString(bytes) : String.valueOf(value))
              .append('\t');
        }
      }
      return out.toString();
    }
  }

  private Transforms open(String properties) throws IOException {
    return DirectScanTest.open(dir, properties);
  }

  private static Table create(Transforms runner, Schema schema) {
    return DirectScanTest.create(runner, schema);
  }

  /** Captures {@code arrow()} as planned, then by the engine's reader; returns whether the page decoder read. */
  private boolean captureBothWays(List<String> direct, List<String> engine) throws Exception {
    long before = ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER);
    try (Transforms runner = open("")) {
      assertThat(runner.build(Capture.class).results().get(0).error()).isEmpty();
    }
    boolean decoded = ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER) == before + 1;
    direct.add(Capture.schema);
    direct.add(Capture.rows);
    // a build reads through the standard planner: its page decoder is turned off by its switch
    System.setProperty(PagedColumnsRead.SWITCH, "false");
    try (Transforms runner = open("")) {
      assertThat(runner.build(Capture.class).results().get(0).error()).isEmpty();
    } finally {
      System.clearProperty(PagedColumnsRead.SWITCH);
    }
    engine.add(Capture.schema);
    engine.add(Capture.rows);
    return decoded;
  }

  /** Most primitive types (the others in {@link #otherTypesAndDeletesStillGiveTheEnginesRoot}). */
  static final Schema COMMON = DirectScanTest.PRIMITIVES.select("id", "flag", "small", "ratio", "measure", "price",
      "mid", "wide", "day", "local_ts", "instant", "text", "blob");

  /** Rows of {@link #COMMON}: nulls every seventh row, NaN floats, empty strings, dates before 1970. */
  static List<Record> commonRows(int count) {
    List<Record> rows = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      boolean nulls = i % 7 == 3;
      rows.add(SqlTables.row(COMMON, i, nulls ? null : i % 2 == 0, nulls ? null : (int) (i * 31 - 5000),
          nulls ? null : (i % 11 == 0 ? Float.NaN : i / 3.0f), nulls ? null : -i / 7.0,
          nulls ? null : BigDecimal.valueOf(i * 101 - 50000, 2),
          nulls ? null : new BigDecimal("1234567890123456789012345678.0123456789").subtract(BigDecimal.valueOf(i)),
          nulls ? null : BigDecimal.valueOf(i * 7, 4),
          nulls ? null : LocalDate.of(1969, 12, 1).plusDays(i),
          nulls ? null : LocalDateTime.of(2026, 3, 29, 2, 30).plusSeconds(i * 997),
          nulls ? null : OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 1000, ZoneOffset.UTC).plusMinutes(i),
          i % 5 == 0 ? "" : "text-" + i + "-é", nulls ? null : ByteBuffer.wrap(new byte[] {(byte) i, 0, -1})));
    }
    return rows;
  }

  @Test
  void theCommonTypesReadThroughThePageDecoderToTheSameRoot() throws Exception {
    try (Transforms runner = open("")) {
      Table table = create(runner, COMMON);
      List<Record> rows = commonRows(3000);
      SqlTables.append(table, rows.subList(0, 1700));
      SqlTables.append(table, rows.subList(1700, 3000));
    }
    List<String> direct = new ArrayList<>();
    List<String> engine = new ArrayList<>();
    assertThat(captureBothWays(direct, engine)).as("the page decoder read the table").isTrue();
    assertThat(direct.get(0)).contains("PARQUET:field_id").isEqualTo(engine.get(0));
    assertThat(direct.get(1).lines().count()).isEqualTo(3001);
    // files may be planned in either order (manifests are read in parallel); rows within a file keep theirs
    assertThat(direct.get(1).lines().sorted().toList()).isEqualTo(engine.get(1).lines().sorted().toList());
    List<Long> firstFile = direct.get(1).lines().skip(1).map(line -> Long.parseLong(line.split("\t")[0]))
        .filter(id -> id < 1700).toList();
    assertThat(firstFile).hasSize(1700).isSorted();
  }

  @Test
  void aSelectionOfColumnsReadsThroughThePageDecoderToo() throws IOException {
    Table table;
    try (Transforms runner = open("")) {
      table = create(runner, COMMON);
      List<Record> rows = new ArrayList<>();
      for (long i = 0; i < 500; i++) {
        rows.add(SqlTables.row(COMMON, i, null, (int) i, null, null, null, null, null, null, null, null, "t" + i));
      }
      SqlTables.append(table, rows);
    }
    try (org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator()) {
      long before = ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER);
      dev.transforms.singlenode.arrow.ArrowTableReader reader =
          dev.transforms.singlenode.arrow.ArrowTableReader.of(table).select("text", "small");
      try (VectorSchemaRoot duck = reader.readAll(allocator);
          VectorSchemaRoot engine = reader.withNativeReads(false).readAll(allocator)) {
        assertThat(ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER)).isEqualTo(before + 1);
        assertThat(duck.getSchema()).isEqualTo(engine.getSchema());
        assertThat(duck.getSchema().getFields()).extracting(f -> f.getName()).containsExactly("small", "text");
        assertThat(Capture.text(duck)).isEqualTo(Capture.text(engine));
      }
      try (VectorSchemaRoot filtered = reader.filter(org.apache.iceberg.expressions.Expressions.lessThan("small", 10))
          .readAll(allocator)) {
        assertThat(ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER))
            .as("a filter stays with the engine's reader")
            .isEqualTo(before + 1);
        assertThat(filtered.getRowCount()).isEqualTo(10);
      }
    }
  }

  @Test
  void aLargeReadInUnitsOfPagesGivesTheSameRoot() throws IOException {
    Schema schema = DirectScanTest.PRIMITIVES.select("id", "small", "price", "day", "text");
    Table table;
    try (Transforms runner = open("")) {
      table = create(runner, schema);
      List<Record> rows = new ArrayList<>();
      for (long i = 0; i < 250_000; i++) {
        rows.add(SqlTables.row(schema, i, i % 9 == 0 ? null : (int) (i % 1000), BigDecimal.valueOf(i, 2),
            LocalDate.of(2000, 1, 1).plusDays(i % 9000), i % 4 == 0 ? null : "t" + i));
      }
      SqlTables.append(table, rows);
    }
    try (org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator()) {
      long before = ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER);
      dev.transforms.singlenode.arrow.ArrowTableReader reader = dev.transforms.singlenode.arrow.ArrowTableReader.of(table);
      try (VectorSchemaRoot duck = reader.readAll(allocator);
          VectorSchemaRoot engine = reader.withNativeReads(false).readAll(allocator)) {
        assertThat(ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER)).isEqualTo(before + 1);
        assertThat(duck.getRowCount()).isEqualTo(250_000);
        assertThat(duck.getSchema()).isEqualTo(engine.getSchema());
        assertThat(Capture.text(duck)).isEqualTo(Capture.text(engine));
      }
    }
  }

  @Test
  void otherTypesAndDeletesStillGiveTheEnginesRoot() throws Exception {
    Schema schema = new Schema(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "key", Types.UUIDType.get()),
        Types.NestedField.optional(3, "code", Types.FixedType.ofLength(3)),
        Types.NestedField.optional(4, "clock", Types.TimeType.get()));
    DataFile file;
    try (Transforms runner = open("")) {
      Table table = create(runner, schema);
      file = SqlTables.append(table, List.of(
          SqlTables.row(schema, 1L, java.util.UUID.fromString("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"),
              new byte[] {1, 2, 3}, java.time.LocalTime.of(23, 59, 58, 123_456_000)),
          SqlTables.row(schema, 2L, null, null, null),
          SqlTables.row(schema, 3L, new java.util.UUID(0, 1), new byte[] {0, 0, 0}, java.time.LocalTime.MIDNIGHT)));
    }
    List<String> direct = new ArrayList<>();
    List<String> engine = new ArrayList<>();
    assertThat(captureBothWays(direct, engine)).as("uuid, fixed and time decoded").isTrue();
    assertThat(direct).isEqualTo(engine);

    try (Transforms runner = open("")) {
      SqlTables.deletePositions(runner.catalog("local").loadTable(TableIdentifier.of("app", "source")), file, 1);
    }
    direct.clear();
    engine.clear();
    assertThat(captureBothWays(direct, engine)).as("the deleted row dropped after decoding").isTrue();
    assertThat(direct).isEqualTo(engine);
    assertThat(direct.get(1).lines().count()).isEqualTo(3);
  }
}
