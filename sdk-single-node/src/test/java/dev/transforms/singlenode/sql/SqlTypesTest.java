package dev.transforms.singlenode.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every Iceberg type the engine maps to Arrow, through DuckDB and back. */
public class SqlTypesTest {

  static final Types.StructType POINT = Types.StructType.of(
      Types.NestedField.optional(22, "a", Types.IntegerType.get()),
      Types.NestedField.optional(23, "b", Types.StringType.get()));
  static final Schema ALL = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "flag", Types.BooleanType.get()),
      Types.NestedField.optional(3, "small", Types.IntegerType.get()),
      Types.NestedField.optional(4, "big", Types.LongType.get()),
      Types.NestedField.optional(5, "ratio", Types.FloatType.get()),
      Types.NestedField.optional(6, "measure", Types.DoubleType.get()),
      Types.NestedField.optional(7, "price", Types.DecimalType.of(9, 2)),
      Types.NestedField.optional(8, "wide", Types.DecimalType.of(38, 10)),
      Types.NestedField.optional(9, "day", Types.DateType.get()),
      Types.NestedField.optional(10, "clock", Types.TimeType.get()),
      Types.NestedField.optional(11, "local_ts", Types.TimestampType.withoutZone()),
      Types.NestedField.optional(12, "instant", Types.TimestampType.withZone()),
      Types.NestedField.optional(13, "local_ns", Types.TimestampNanoType.withoutZone()),
      Types.NestedField.optional(14, "instant_ns", Types.TimestampNanoType.withZone()),
      Types.NestedField.optional(15, "text", Types.StringType.get()),
      Types.NestedField.optional(16, "key", Types.UUIDType.get()),
      Types.NestedField.optional(17, "code", Types.FixedType.ofLength(4)),
      Types.NestedField.optional(18, "blob", Types.BinaryType.get()),
      Types.NestedField.optional(19, "numbers", Types.ListType.ofOptional(20, Types.IntegerType.get())),
      Types.NestedField.optional(21, "point", POINT),
      Types.NestedField.optional(24, "attributes",
          Types.MapType.ofOptional(25, 26, Types.StringType.get(), Types.IntegerType.get())));
  static final UUID KEY = UUID.fromString("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0");

  @TempDir Path warehouse;
  Transforms runner;
  Catalog catalog;
  List<Record> source;

  @BeforeEach
  void setUp() {
    runner = Transforms.open(TransformsConfig.embedded(warehouse));
    catalog = runner.catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("types"));
    Table table = catalog.createTable(TableIdentifier.of("types", "all_types"), ALL, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.FORMAT_VERSION, "3"));
    GenericRecord point = GenericRecord.create(POINT);
    point.setField("a", 7);
    point.setField("b", "seven");
    source = new ArrayList<>();
    source.add(SqlTables.row(ALL, 1L, true, -5, 1L << 40, 1.5f, -2.25, new BigDecimal("1234567.89"),
        new BigDecimal("1234567890123456789012345678.0123456789"), LocalDate.of(2026, 2, 28),
        LocalTime.of(23, 59, 58, 123_456_000), LocalDateTime.of(2026, 3, 29, 2, 30, 0, 1000),
        OffsetDateTime.of(2026, 3, 29, 1, 30, 0, 999_999_000, ZoneOffset.UTC),
        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 123_456_789),
        OffsetDateTime.of(2262, 4, 11, 0, 0, 0, 1, ZoneOffset.UTC),
        "héllo, \"world\"", KEY, new byte[] {1, 2, 3, 4}, ByteBuffer.wrap(new byte[] {0, -1, 127}),
        List.of(1, 2, 3), point, Map.of("x", 1, "y", 2)));
    List<Integer> withNull = new ArrayList<>();
    withNull.add(null);
    withNull.add(4);
    source.add(SqlTables.row(ALL, 2L, false, Integer.MIN_VALUE, Long.MAX_VALUE, Float.MAX_VALUE, Double.MIN_VALUE,
        new BigDecimal("-0.01"), new BigDecimal("-0.0000000001"), LocalDate.of(1, 1, 1), LocalTime.MIDNIGHT,
        LocalDateTime.of(1900, 1, 1, 0, 0), OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC),
        LocalDateTime.of(2000, 1, 1, 0, 0), OffsetDateTime.of(2000, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC),
        "", new UUID(0, 0), new byte[] {0, 0, 0, 0}, ByteBuffer.wrap(new byte[0]), withNull,
        GenericRecord.create(POINT), Map.of()));
    source.add(SqlTables.row(ALL, 3L));
    SqlTables.append(table, source);
  }

  @AfterEach
  void tearDown() {
    runner.close();
  }

  /** Copies the table through DuckDB; {@link #sql} can be changed. */
  public static class Copy {
    static String sql = "SELECT * FROM all_types";

    @Transform(name = "copy")
    public void copy(SingleNodeTransformContext ctx, @TableInput("/types/all_types") IcebergInput allTypes,
        @TableOutput("/types/copy") IcebergOutput copy) {
      copy.writeTable(ctx.sql().query(sql));
    }
  }

  private Table copy() {
    return catalog.loadTable(TableIdentifier.of("types", "copy"));
  }

  private static List<Record> byId(List<Record> rows) {
    return rows.stream().sorted(Comparator.comparing(r -> (Long) r.getField("id"))).toList();
  }

  @Test
  void everyTypeRoundTripsIntoAnOutputOfTheSameSchema() {
    catalog.createTable(TableIdentifier.of("types", "copy"), ALL, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.FORMAT_VERSION, "3"));
    Copy.sql = "SELECT * FROM all_types";
    TransformResult result = SqlSessionTest.only(dev.transforms.singlenode.Builds.forced(runner, Copy.class));
    assertThat(result.error()).isEmpty();
    List<Record> copied = byId(SqlTables.read(copy()));
    List<Record> expected = byId(SqlTables.read(catalog.loadTable(TableIdentifier.of("types", "all_types"))));
    assertThat(copied).hasSize(3);
    for (int i = 0; i < 3; i++) {
      for (Types.NestedField column : ALL.columns()) {
        Object actual = copied.get(i).getField(column.name());
        Object wanted = expected.get(i).getField(column.name());
        if (actual instanceof byte[] bytes) {
          assertThat(bytes).as(column.name()).isEqualTo((byte[]) wanted);
        } else {
          assertThat(actual).as(column.name() + " of row " + (i + 1)).isEqualTo(wanted);
        }
      }
    }
  }

  @Test
  void aNewOutputTakesDuckDbsTypesWithPrecisionScaleAndZoneKept() {
    // nanosecond timestamps need a v3 table, which writeTable does not create: left out here
    Copy.sql = "SELECT * EXCLUDE (local_ns, instant_ns), instant_ns::TIMESTAMPTZ AS instant_us FROM all_types"
        + " WHERE key = '" + KEY + "'";
    TransformResult result = SqlSessionTest.only(dev.transforms.singlenode.Builds.forced(runner, Copy.class));
    assertThat(result.error()).isEmpty();
    Schema created = copy().schema();
    Map<String, Type> expected = Map.ofEntries(
        Map.entry("price", Types.DecimalType.of(9, 2)), Map.entry("wide", Types.DecimalType.of(38, 10)),
        Map.entry("local_ts", Types.TimestampType.withoutZone()), Map.entry("instant", Types.TimestampType.withZone()),
        Map.entry("instant_us", Types.TimestampType.withZone()), Map.entry("day", Types.DateType.get()),
        Map.entry("clock", Types.TimeType.get()),
        // DuckDB's UUID comes out as text, fixed as variable binary, when no table says otherwise
        Map.entry("key", Types.StringType.get()), Map.entry("code", Types.BinaryType.get()));
    expected.forEach((name, type) -> assertThat(created.findType(name)).as(name).isEqualTo(type));
    List<Record> rows = SqlTables.read(copy());
    assertThat(rows).singleElement().satisfies(r -> {
      assertThat(r.getField("key")).isEqualTo(KEY.toString());
      assertThat(r.getField("wide")).isEqualTo(new BigDecimal("1234567890123456789012345678.0123456789"));
      assertThat(r.getField("instant")).isEqualTo(OffsetDateTime.of(2026, 3, 29, 1, 30, 0, 999_999_000, ZoneOffset.UTC));
      assertThat(r.getField("instant_us")).isEqualTo(OffsetDateTime.of(2262, 4, 11, 0, 0, 0, 0, ZoneOffset.UTC));
    });
  }

  @Test
  void aTypeWithoutIcebergCounterpartIsRefusedNamingTheColumn() {
    Copy.sql = "SELECT id, INTERVAL 1 DAY AS waiting FROM all_types";
    String error = SqlSessionTest.errorText(SqlSessionTest.only(dev.transforms.singlenode.Builds.forced(runner, Copy.class)));
    assertThat(error).contains("'waiting'").contains("Interval");
    assertThat(catalog.tableExists(TableIdentifier.of("types", "copy"))).isFalse();
  }

  static final Schema TOTALS = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "total", Types.LongType.get()),
      Types.NestedField.optional(3, "amount", Types.DecimalType.of(12, 2)),
      Types.NestedField.optional(4, "key", Types.UUIDType.get()),
      Types.NestedField.optional(5, "code", Types.FixedType.ofLength(4)));

  /** Aggregates into an existing table whose types are narrower than DuckDB's. */
  public static class Totals {
    static String sql;

    @Transform(name = "totals")
    public void totals(SingleNodeTransformContext ctx, @TableInput("/types/all_types") IcebergInput allTypes,
        @TableOutput("/types/totals") IcebergOutput out) {
      out.writeTable(ctx.sql().query(sql));
    }
  }

  @Test
  void duckDbsWiderTypesFitAnExistingOutputWhenEveryValueFits() {
    Table totals = catalog.createTable(TableIdentifier.of("types", "totals"), TOTALS);
    // sum over integers is a HUGEINT, sum over decimal(9,2) a decimal(38,2); uuid comes back as text
    Totals.sql = "SELECT id, sum(small) AS total, sum(price) AS amount, any_value(key) AS key, any_value(code) AS code"
        + " FROM all_types GROUP BY id";
    TransformResult result = SqlSessionTest.only(dev.transforms.singlenode.Builds.forced(runner, Totals.class));
    assertThat(result.error()).isEmpty();
    List<Record> rows = byId(SqlTables.read(totals));
    assertThat(rows.get(0).getField("total")).isEqualTo(-5L);
    assertThat(rows.get(0).getField("amount")).isEqualTo(new BigDecimal("1234567.89"));
    assertThat(rows.get(0).getField("key")).isEqualTo(KEY);
    assertThat((byte[]) rows.get(0).getField("code")).containsExactly(1, 2, 3, 4);
    assertThat(rows.get(2).getField("total")).isNull();
    long published = totals.currentSnapshot().snapshotId();

    Totals.sql = "SELECT id, 100000000000000000000::HUGEINT AS total FROM all_types";
    assertThat(SqlSessionTest.errorText(SqlSessionTest.only(dev.transforms.singlenode.Builds.forced(runner, Totals.class))))
        .contains("column 'total': value 100000000000000000000 is out of the range of long");
    Totals.sql = "SELECT CASE WHEN id = 3 THEN NULL ELSE id END AS id FROM all_types";
    assertThat(SqlSessionTest.errorText(SqlSessionTest.only(dev.transforms.singlenode.Builds.forced(runner, Totals.class)))).contains("id");
    Totals.sql = "SELECT id, 'not a uuid' AS key FROM all_types";
    assertThat(SqlSessionTest.errorText(SqlSessionTest.only(dev.transforms.singlenode.Builds.forced(runner, Totals.class))))
        .contains("column 'key': value 'not a uuid' is not a UUID");
    totals.refresh();
    assertThat(totals.currentSnapshot().snapshotId()).isEqualTo(published);

    // A type no conversion fits, in a full build: the result's column replaces the table's.
    Totals.sql = "SELECT id, 1.5::DOUBLE AS total FROM all_types";
    TransformResult replaced = SqlSessionTest.only(dev.transforms.singlenode.Builds.forced(runner, Totals.class));
    assertThat(replaced.error()).isEmpty();
    totals.refresh();
    assertThat(totals.schema().findField("total").type()).isEqualTo(org.apache.iceberg.types.Types.DoubleType.get());
    assertThat(replaced.outputs().get(0).schemaChanges()).anyMatch(c -> c.startsWith("total replaced: long became double"));
  }
}
