package dev.transforms.singlenode.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs DuckDB reads straight from their Parquet files: the same column types and values as through
 * the engine's reader, columns found by field id, and the engine's reader wherever the files alone
 * would be wrong (deletes, a filter, a promoted type) or when the configuration turns it off.
 */
public class DirectScanTest {

  static final Schema PRIMITIVES = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "flag", Types.BooleanType.get()),
      Types.NestedField.optional(3, "small", Types.IntegerType.get()),
      Types.NestedField.optional(4, "big", Types.LongType.get()),
      Types.NestedField.optional(5, "ratio", Types.FloatType.get()),
      Types.NestedField.optional(6, "measure", Types.DoubleType.get()),
      Types.NestedField.optional(7, "price", Types.DecimalType.of(9, 2)),
      Types.NestedField.optional(8, "wide", Types.DecimalType.of(38, 10)),
      Types.NestedField.optional(9, "mid", Types.DecimalType.of(18, 4)),
      Types.NestedField.optional(10, "day", Types.DateType.get()),
      Types.NestedField.optional(11, "clock", Types.TimeType.get()),
      Types.NestedField.optional(12, "local_ts", Types.TimestampType.withoutZone()),
      Types.NestedField.optional(13, "instant", Types.TimestampType.withZone()),
      Types.NestedField.optional(14, "text", Types.StringType.get()),
      Types.NestedField.optional(15, "key", Types.UUIDType.get()),
      Types.NestedField.optional(16, "code", Types.FixedType.ofLength(4)),
      Types.NestedField.optional(17, "blob", Types.BinaryType.get()));

  @TempDir Path dir;

  @BeforeEach
  void reset() {
    Describe.sql = "SELECT * FROM source ORDER BY id";
    Describe.filter = null;
  }

  /** Records how the session holds {@code source}, its column types, and a query's rows as text. */
  public static class Describe {
    static String sql;
    static String filter;
    static String kind;
    static List<String> columns;
    static List<String> rows;

    @Transform(name = "describe")
    public void describe(SingleNodeTransformContext ctx, @TableInput("/app/source") IcebergInput source,
        @TableOutput("/app/unused") IcebergOutput unused) throws SQLException {
      if (filter != null) {
        ctx.sql().register("source", source, filter);
      }
      try (Statement st = ctx.sql().connection().createStatement()) {
        try (ResultSet kinds = st.executeQuery(
            "SELECT table_type FROM information_schema.tables WHERE table_name = 'source'")) {
          kind = kinds.next() ? kinds.getString(1) : null;
        }
        columns = new ArrayList<>();
        try (ResultSet described = st.executeQuery("DESCRIBE source")) {
          while (described.next()) {
            columns.add(described.getString("column_name") + " " + described.getString("column_type"));
          }
        }
        rows = new ArrayList<>();
        try (ResultSet result = st.executeQuery(sql)) {
          ResultSetMetaData meta = result.getMetaData();
          while (result.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
              row.append(i == 1 ? "" : " | ").append(result.getString(i));
            }
            rows.add(row.toString());
          }
        }
      }
    }
  }

  private Transforms open(String properties) throws IOException {
    return open(dir, properties);
  }

  /** A runner over {@code dir}'s warehouse with these extra configuration lines. */
  static Transforms open(Path dir, String properties) throws IOException {
    Path file = dir.resolve("transforms.properties");
    Files.writeString(file, "warehouse=" + dir.resolve("warehouse") + "\n" + properties);
    return Transforms.open(TransformsConfig.load(Optional.of(file), Optional.empty(), Map.of(), dir));
  }

  /** Creates {@code /app/source} with the schema, and {@code /app/unused} for the transforms' output. */
  static Table create(Transforms runner, Schema schema) {
    Catalog catalog = runner.catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("app"));
    catalog.createTable(TableIdentifier.of("app", "unused"), new Schema(
        Types.NestedField.optional(1, "x", Types.IntegerType.get())));
    return catalog.createTable(TableIdentifier.of("app", "source"), schema, PartitionSpec.unpartitioned());
  }

  /** Runs {@link Describe}, first with the direct read allowed, then with it turned off. */
  private record Both(String directKind, List<String> directColumns, List<String> directRows, String engineKind,
      List<String> engineColumns, List<String> engineRows) {}

  private Both describeBothWays() throws IOException {
    try (Transforms runner = open("")) {
      assertThat(dev.transforms.singlenode.Builds.forced(runner, Describe.class).results().get(0).error()).isEmpty();
    }
    String kind = Describe.kind;
    List<String> columns = Describe.columns;
    List<String> rows = Describe.rows;
    try (Transforms runner = open("duckdb.parquet=false\n")) {
      assertThat(dev.transforms.singlenode.Builds.forced(runner, Describe.class).results().get(0).error()).isEmpty();
    }
    return new Both(kind, columns, rows, Describe.kind, Describe.columns, Describe.rows);
  }

  @Test
  void everyPrimitiveTypeReadsAsThroughTheEngine() throws IOException {
    try (Transforms runner = open("")) {
      Table table = create(runner, PRIMITIVES);
      List<Record> rows = new ArrayList<>();
      rows.add(SqlTables.row(PRIMITIVES, 1L, true, -5, 1L << 40, 1.5f, -2.25, new BigDecimal("1234567.89"),
          new BigDecimal("1234567890123456789012345678.0123456789"), new BigDecimal("12345678901234.5678"),
          LocalDate.of(2026, 2, 28), LocalTime.of(23, 59, 58, 123_456_000),
          LocalDateTime.of(2026, 3, 29, 2, 30, 0, 1000),
          OffsetDateTime.of(2026, 3, 29, 1, 30, 0, 999_999_000, ZoneOffset.UTC), "héllo, \"world\"",
          UUID.fromString("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"), new byte[] {1, 2, 3, 4},
          ByteBuffer.wrap(new byte[] {0, -1, 127})));
      rows.add(SqlTables.row(PRIMITIVES, 2L, false, Integer.MIN_VALUE, Long.MAX_VALUE, Float.MAX_VALUE,
          Double.MIN_VALUE, new BigDecimal("-0.01"), new BigDecimal("-0.0000000001"), new BigDecimal("-0.0001"),
          LocalDate.of(1, 1, 1), LocalTime.MIDNIGHT, LocalDateTime.of(1900, 1, 1, 0, 0),
          OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC), "", new UUID(0, 0), new byte[] {0, 0, 0, 0},
          ByteBuffer.wrap(new byte[0])));
      rows.add(SqlTables.row(PRIMITIVES, 3L));
      SqlTables.append(table, rows);
    }
    Both both = describeBothWays();
    assertThat(both.directKind()).isEqualTo("VIEW");
    assertThat(both.engineKind()).isEqualTo("BASE TABLE");
    assertThat(both.directColumns()).hasSize(PRIMITIVES.columns().size()).isEqualTo(both.engineColumns());
    assertThat(both.directRows()).hasSize(3).isEqualTo(both.engineRows());
    assertThat(both.directRows().get(0)).contains("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", "1234567.89",
        "héllo, \"world\"");
    assertThat(both.directRows().get(2)).startsWith("3 | null | null");
  }

  @Test
  void columnsAreFoundByFieldIdAcrossRenamesAndAddedColumns() throws IOException {
    Schema schema = new Schema(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "name", Types.StringType.get()));
    try (Transforms runner = open("")) {
      Table table = create(runner, schema);
      SqlTables.append(table, List.of(SqlTables.row(schema, 1L, "one"), SqlTables.row(schema, 2L, "two")));
      table.updateSchema().renameColumn("name", "label").addColumn("score", Types.IntegerType.get()).commit();
      Schema now = table.schema();
      SqlTables.append(table, List.of(SqlTables.row(now, 3L, "three", 30)));
    }
    Describe.sql = "SELECT id, label, score FROM source ORDER BY id";
    Both both = describeBothWays();
    assertThat(both.directKind()).isEqualTo("VIEW");
    assertThat(both.directRows()).containsExactly("1 | one | null", "2 | two | null", "3 | three | 30")
        .isEqualTo(both.engineRows());
    assertThat(both.directColumns()).isEqualTo(both.engineColumns());
  }

  @Test
  void aPromotedTypeDeletesOrAFilterGoThroughTheEngine() throws IOException {
    Schema schema = new Schema(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "amount", Types.IntegerType.get()));
    try (Transforms runner = open("")) {
      Table table = create(runner, schema);
      SqlTables.append(table, List.of(SqlTables.row(schema, 1L, 10), SqlTables.row(schema, 2L, 20)));
      table.updateSchema().updateColumn("amount", Types.LongType.get()).commit();
      SqlTables.append(table, List.of(SqlTables.row(table.schema(), 3L, 30L)));
    }
    Describe.sql = "SELECT id, amount FROM source ORDER BY id";
    Both promoted = describeBothWays();
    assertThat(promoted.directKind()).as("files may hold the narrower type").isEqualTo("BASE TABLE");
    assertThat(promoted.directRows()).containsExactly("1 | 10", "2 | 20", "3 | 30");
    assertThat(promoted.directColumns()).contains("amount BIGINT");

    Schema plain = new Schema(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "kind", Types.StringType.get()));
    Path warehouse = dir.resolve("warehouse");
    deleteTree(warehouse);
    DataFile file;
    try (Transforms runner = open("")) {
      Table table = create(runner, plain);
      file = SqlTables.append(table, List.of(SqlTables.row(plain, 1L, "a"), SqlTables.row(plain, 2L, "b"),
          SqlTables.row(plain, 3L, "c")));
    }
    Describe.sql = "SELECT id FROM source ORDER BY id";
    try (Transforms runner = open("")) {
      assertThat(dev.transforms.singlenode.Builds.forced(runner, Describe.class).results().get(0).error()).isEmpty();
    }
    assertThat(Describe.kind).isEqualTo("VIEW");
    Describe.filter = "id >= 2";
    try (Transforms runner = open("")) {
      assertThat(dev.transforms.singlenode.Builds.forced(runner, Describe.class).results().get(0).error()).isEmpty();
    }
    assertThat(Describe.kind).as("a filter is applied by the engine's reader").isEqualTo("BASE TABLE");
    assertThat(Describe.rows).containsExactly("2", "3");
    Describe.filter = null;
    try (Transforms runner = open("")) {
      SqlTables.deletePositions(runner.catalog("local").loadTable(TableIdentifier.of("app", "source")), file, 1);
      assertThat(dev.transforms.singlenode.Builds.forced(runner, Describe.class).results().get(0).error()).isEmpty();
    }
    assertThat(Describe.kind).as("the files alone would show the deleted row").isEqualTo("BASE TABLE");
    assertThat(Describe.rows).containsExactly("1", "3");
  }

  @Test
  void theConfigurationTurnsItOffAndRefusesAnythingButTrueOrFalse() throws IOException {
    try (Transforms runner = open("")) {
      create(runner, PRIMITIVES);
      SqlTables.append(runner.catalog("local").loadTable(TableIdentifier.of("app", "source")),
          List.of(SqlTables.row(PRIMITIVES, 1L)));
    }
    Both both = describeBothWays();
    assertThat(both.directKind()).isEqualTo("VIEW");
    assertThat(both.engineKind()).isEqualTo("BASE TABLE");
    assertThat(catchThrowable(() -> open("duckdb.parquet=yes\n")))
        .hasMessageContaining("'duckdb.parquet'").hasMessageContaining("true or false");
  }

  private static void deleteTree(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return;
    }
    try (var paths = Files.walk(folder)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
