package dev.transforms.runtime.internal.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.InvalidLoadException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableDeclarationTest {

  @TempDir Path dir;

  @Test
  void declaredColumnsBecomeAnIcebergSchemaInOrder() {
    TableDeclaration declaration = TableDeclaration.parse(
        "order_id LONG not null, amount decimal(10, 2), `unit price` double, status string, as_of date, "
            + "created_at timestamp, paid_at timestamptz, n int, ok boolean, id uuid, blob binary, at time",
        "--schema");
    Schema expected = new Schema(
        Types.NestedField.required(1, "order_id", Types.LongType.get()),
        Types.NestedField.optional(2, "amount", Types.DecimalType.of(10, 2)),
        Types.NestedField.optional(3, "unit price", Types.DoubleType.get()),
        Types.NestedField.optional(4, "status", Types.StringType.get()),
        Types.NestedField.optional(5, "as_of", Types.DateType.get()),
        Types.NestedField.optional(6, "created_at", Types.TimestampType.withoutZone()),
        Types.NestedField.optional(7, "paid_at", Types.TimestampType.withZone()),
        Types.NestedField.optional(8, "n", Types.IntegerType.get()),
        Types.NestedField.optional(9, "ok", Types.BooleanType.get()),
        Types.NestedField.optional(10, "id", Types.UUIDType.get()),
        Types.NestedField.optional(11, "blob", Types.BinaryType.get()),
        Types.NestedField.optional(12, "at", Types.TimeType.get()));
    assertThat(declaration.schema().sameSchema(expected)).as(declaration.schema().toString()).isTrue();
    assertThat(declaration.partitionBy()).isEmpty();
  }

  @Test
  void aSchemaFileHoldsAColumnALineCommentsAndItsPartitioning() throws Exception {
    Path file = dir.resolve("orders.schema");
    Files.writeString(file, """
        # orders, one row per order
        order_id  bigint not null   # the key
        created_at timestamp
        amount    decimal(10,2)

        partitioned by days(created_at), bucket(4, order_id)
        """);
    TableDeclaration declaration = TableDeclaration.read(file);
    assertThat(declaration.schema().columns()).extracting(Types.NestedField::name)
        .containsExactly("order_id", "created_at", "amount");
    assertThat(declaration.partitionBy()).contains("days(created_at), bucket(4, order_id)");
    assertThat(declaration.origin()).isEqualTo("schema file " + file);
    PartitionSpec spec = PartitionDeclaration.toSpec(declaration.partitionBy().get(), declaration.schema(), "x");
    assertThat(spec.fields()).extracting(f -> f.transform().toString()).containsExactly("day", "bucket[4]");
  }

  @Test
  void mistakesNameTheColumnAndWhereTheyAre() {
    assertThatThrownBy(() -> TableDeclaration.parse("id long, amount decimal(10", "--schema"))
        .isInstanceOf(InvalidLoadException.class)
        .hasMessage("Cannot read the schema of --schema at character 27: expected ',' or ')' in the type of column "
            + "amount");
    assertThatThrownBy(() -> TableDeclaration.parse("id long, name varchar", "--schema"))
        .hasMessageContaining("character 15: column name has type 'varchar', which a declaration does not know; "
            + "types are boolean, int, long");
    assertThatThrownBy(() -> TableDeclaration.parse("id long, id string", "--schema"))
        .hasMessageContaining("column id is declared twice");
    assertThatThrownBy(() -> TableDeclaration.parse("id long not nul", "--schema"))
        .hasMessageContaining("expected 'not null' after the type of column id");
    assertThatThrownBy(() -> TableDeclaration.parse("id", "--schema")).hasMessageContaining("column id has no type");
    assertThatThrownBy(() -> TableDeclaration.parse("amount decimal(40,2)", "--schema"))
        .hasMessageContaining("decimal(40,2) is out of range");
    assertThatThrownBy(() -> TableDeclaration.parse("  # nothing yet", "--schema"))
        .hasMessageContaining("declares no column");
    assertThatThrownBy(() -> TableDeclaration.parse(" , id long", "--schema"))
        .hasMessageContaining("at character 2: a comma before the first column: an empty column");
    assertThatThrownBy(() -> TableDeclaration.parse("id long,, name string", "--schema"))
        .hasMessageContaining("two commas with no column between them");
    assertThatThrownBy(() -> TableDeclaration.parse("id long partitioned by id", "--schema"))
        .hasMessageContaining("unexpected 'partitioned by id' after column id");
  }

  @Test
  void aSchemaFileErrorNamesItsLine() throws Exception {
    Path file = dir.resolve("bad.schema");
    Files.writeString(file, "id long\nname strnig\n");
    assertThatThrownBy(() -> TableDeclaration.read(file))
        .hasMessage("Cannot read the schema of schema file " + file + " at line 2, character 6: column name has type "
            + "'strnig', which a declaration does not know; types are " + TableDeclaration.TYPE_NAMES);
  }

  @Test
  void partitionFieldsMustNameColumnsAndKnownTransforms() {
    Schema schema = TableDeclaration.parse("id long, name string, created_at timestamp", "--schema").schema();
    assertThat(PartitionDeclaration.toSpec("name, months(created_at), truncate(3, `name`)", schema, "p").fields())
        .extracting(f -> f.transform().toString()).containsExactly("identity", "month", "truncate[3]");
    assertThat(PartitionDeclaration.toSpec(" ", schema, "p").isUnpartitioned()).isTrue();
    assertThatThrownBy(() -> PartitionDeclaration.toSpec("days(created)", schema, "--partition-by"))
        .isInstanceOf(InvalidLoadException.class)
        .hasMessage("Partition field 'days(created)' of --partition-by names column created, which the schema does not "
            + "have; columns: [id, name, created_at]");
    assertThatThrownBy(() -> PartitionDeclaration.toSpec("weeks(created_at)", schema, "--partition-by"))
        .hasMessageContaining("uses transform weeks, which Iceberg does not have");
    assertThatThrownBy(() -> PartitionDeclaration.toSpec("bucket(id)", schema, "--partition-by"))
        .hasMessageContaining("bucket takes a number first, such as bucket(16, id)");
    assertThatThrownBy(() -> PartitionDeclaration.toSpec("days(name)", schema, "--partition-by"))
        .hasMessageContaining("does not apply to its columns").hasMessageContaining("Invalid source type string for transform: day");
  }
}
