package dev.transforms.runtime.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.SchemaChangePolicy;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The schema a build gives an output: full builds take the written columns and keep the ids of the
 * columns that keep their values; incremental builds change only what the policy allows and name
 * every other column.
 */
public class SchemaEvolutionTest {

  static final Schema TABLE = new Schema(java.util.List.of(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()),
      Types.NestedField.optional(3, "age", Types.IntegerType.get()),
      Types.NestedField.optional(4, "address", Types.StructType.of(
          Types.NestedField.optional(5, "zip", Types.StringType.get())))), Set.of(1));
  static final int LAST = 5;

  private static Schema written(Types.NestedField... fields) {
    return new Schema(fields);
  }

  @Test
  void aFullBuildKeepsTheIdsOfColumnsThatHoldTheirValuesAndGivesNewOnesToTheRest() {
    SchemaEvolution.Result result = SchemaEvolution.replace(TABLE, LAST, written(
        Types.NestedField.required(11, "ID", Types.LongType.get()),
        Types.NestedField.optional(12, "name", Types.IntegerType.get()),
        Types.NestedField.optional(13, "age", Types.LongType.get()),
        Types.NestedField.optional(14, "email", Types.StringType.get())));

    Schema schema = result.schema();
    assertThat(schema.findField("id").fieldId()).isEqualTo(1);
    assertThat(schema.findField("id").isRequired()).isTrue();
    assertThat(schema.identifierFieldIds()).containsExactly(1);
    assertThat(schema.findField("name").fieldId()).as("an int name is a new column").isEqualTo(6);
    assertThat(schema.findField("age").fieldId()).isEqualTo(3);
    assertThat(schema.findField("age").type()).isEqualTo(Types.LongType.get());
    assertThat(schema.findField("email").fieldId()).isEqualTo(7);
    assertThat(schema.findField("address")).isNull();
    assertThat(result.lastColumnId()).isEqualTo(7);
    assertThat(result.problems()).isEmpty();
    assertThat(result.diff().describe()).containsExactlyInAnyOrder(
        "name replaced: string became int (a new column; earlier rows keep the old one in their snapshots)",
        "age widened from int to long",
        "email added (string)",
        "address dropped (struct<5: zip: optional string>)");
  }

  @Test
  void aNarrowerTypeIsWrittenIntoTheTablesWiderColumnAndChangesNothing() {
    SchemaEvolution.Result result = SchemaEvolution.replace(TABLE, LAST, written(
        Types.NestedField.required(1, "id", Types.IntegerType.get()),
        Types.NestedField.optional(2, "name", Types.StringType.get()),
        Types.NestedField.optional(3, "age", Types.IntegerType.get()),
        Types.NestedField.optional(4, "address", Types.StructType.of(
            Types.NestedField.optional(5, "zip", Types.StringType.get())))));
    assertThat(result.changes()).isFalse();
    assertThat(result.schema().findField("id").type()).isEqualTo(Types.LongType.get());
  }

  @Test
  void nestedFieldsKeepTheirIdsByName() {
    SchemaEvolution.Result result = SchemaEvolution.replace(TABLE, LAST, written(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "address", Types.StructType.of(
            Types.NestedField.optional(3, "city", Types.StringType.get()),
            Types.NestedField.optional(4, "zip", Types.StringType.get())))));
    Types.StructType address = result.schema().findField("address").type().asStructType();
    assertThat(result.schema().findField("address").fieldId()).isEqualTo(4);
    assertThat(address.field("zip").fieldId()).isEqualTo(5);
    assertThat(address.field("city").fieldId()).isEqualTo(6);
    assertThat(result.diff().describe()).contains("address.city added (string)", "name dropped (string)",
        "age dropped (int)");
  }

  @Test
  void underPolicyFailAnIncrementalBuildNamesEveryColumnThatDiffers() {
    SchemaEvolution.Result result = SchemaEvolution.evolve(TABLE, LAST, written(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "name", Types.StringType.get()),
        Types.NestedField.optional(3, "shout", Types.StringType.get()),
        Types.NestedField.optional(4, "address", Types.StructType.of(
            Types.NestedField.optional(5, "zip", Types.StringType.get())))),
        SchemaChangePolicy.FAIL, PartitionSpec.unpartitioned());
    assertThat(result.problems()).containsExactly(
        "age: in the table (int) but not in the rows; policy fail changes nothing (append_new_columns writes it as "
            + "null, sync_all_columns drops it)",
        "shout: not in the table (rows string); policy fail adds no columns (append_new_columns or "
            + "sync_all_columns would)");
  }

  @Test
  void appendNewColumnsAddsThemAsOptionalAtTheEndAndWidensNothing() {
    SchemaEvolution.Result result = SchemaEvolution.evolve(TABLE, LAST, written(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.required(2, "shout", Types.StringType.get()),
        Types.NestedField.optional(3, "age", Types.IntegerType.get())),
        SchemaChangePolicy.APPEND_NEW_COLUMNS, PartitionSpec.unpartitioned());
    assertThat(result.problems()).isEmpty();
    assertThat(result.schema().columns()).extracting(Types.NestedField::name)
        .containsExactly("id", "name", "age", "address", "shout");
    assertThat(result.schema().findField("shout").isOptional()).isTrue();
    assertThat(result.diff().describe()).containsExactly("shout added (string)");

    SchemaEvolution.Result widened = SchemaEvolution.evolve(TABLE, LAST, written(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(3, "age", Types.LongType.get())),
        SchemaChangePolicy.APPEND_NEW_COLUMNS, PartitionSpec.unpartitioned());
    assertThat(widened.problems()).containsExactly(
        "age: table int, rows long; policy append_new_columns does not widen types (sync_all_columns would)");
  }

  @Test
  void syncAllColumnsDropsWidensAndRelaxesButKeepsPartitionSources() {
    PartitionSpec byName = PartitionSpec.builderFor(TABLE).identity("name").build();
    SchemaEvolution.Result result = SchemaEvolution.evolve(TABLE, LAST, written(
        Types.NestedField.optional(1, "id", Types.LongType.get()),
        Types.NestedField.optional(3, "age", Types.LongType.get())),
        SchemaChangePolicy.SYNC_ALL_COLUMNS, byName);
    assertThat(result.problems()).singleElement().asString().startsWith("name: not in the rows, and it cannot be "
        + "dropped: it is a partition source");

    SchemaEvolution.Result synced = SchemaEvolution.evolve(TABLE, LAST, written(
        Types.NestedField.optional(1, "id", Types.LongType.get()),
        Types.NestedField.optional(3, "age", Types.LongType.get())),
        SchemaChangePolicy.SYNC_ALL_COLUMNS, PartitionSpec.unpartitioned());
    assertThat(synced.problems()).isEmpty();
    assertThat(synced.schema().findField("id").isRequired()).as("an identifier field stays required").isTrue();
    assertThat(synced.diff().describe()).containsExactlyInAnyOrder("name dropped (string)",
        "age widened from int to long", "address dropped (struct<5: zip: optional string>)");

    SchemaEvolution.Result relaxed = SchemaEvolution.evolve(new Schema(TABLE.columns()), LAST, written(
        Types.NestedField.optional(1, "id", Types.LongType.get()),
        Types.NestedField.optional(3, "age", Types.LongType.get())),
        SchemaChangePolicy.SYNC_ALL_COLUMNS, PartitionSpec.unpartitioned());
    assertThat(relaxed.problems()).isEmpty();
    assertThat(relaxed.diff().describe()).containsExactlyInAnyOrder("id made optional", "name dropped (string)",
        "age widened from int to long", "address dropped (struct<5: zip: optional string>)");
  }

  @Test
  void noPolicyLetsAnIncrementalBuildReplaceAColumn() {
    for (SchemaChangePolicy policy : new SchemaChangePolicy[] {SchemaChangePolicy.FAIL,
        SchemaChangePolicy.APPEND_NEW_COLUMNS, SchemaChangePolicy.SYNC_ALL_COLUMNS}) {
      SchemaEvolution.Result result = SchemaEvolution.evolve(TABLE, LAST, written(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(3, "age", Types.StringType.get())), policy, PartitionSpec.unpartitioned());
      assertThat(result.problems()).as(policy.toString()).contains(
          "age: table int, rows string: not a widening, so only a full build can change the column's type");
    }
  }

  @Test
  void aPolicyRefusesTheChangesItDoesNotAllow() {
    Schema after = new Schema(
        Types.NestedField.optional(1, "id", Types.LongType.get()),
        Types.NestedField.optional(3, "age", Types.LongType.get()),
        Types.NestedField.required(6, "code", Types.StringType.get()));
    SchemaDiff diff = SchemaDiff.between(TABLE, after);
    assertThat(diff.refusedBy(SchemaChangePolicy.SYNC_ALL_COLUMNS)).containsExactly(
        "code: a required column (string) cannot be added by an incremental build, since earlier rows have no "
            + "value for it; make it optional, or build in full");
    assertThat(diff.refusedBy(SchemaChangePolicy.APPEND_NEW_COLUMNS)).hasSize(diff.changes().size());
    assertThat(SchemaDiff.between(TABLE, TABLE).isEmpty()).isTrue();
    Schema renamed = new Schema(TABLE.columns().stream().map(c -> c.fieldId() == 2
        ? Types.NestedField.optional(2, "full_name", Types.StringType.get()) : c).toList());
    assertThat(SchemaDiff.between(TABLE, renamed).describe()).containsExactly("name renamed to full_name");
  }

  @Test
  void aPartitionSourceThatIsGoneOrRetypedIsNamed() {
    PartitionSpec byAge = PartitionSpec.builderFor(TABLE).bucket("age", 4).build();
    Schema noAge = new Schema(TABLE.columns().stream().filter(c -> c.fieldId() != 3).toList());
    assertThat(SchemaEvolution.partitionProblems(byAge, noAge)).containsExactly(
        "age: the source of partition field age_bucket (bucket[4]), and the rows have no such column");
    assertThat(SchemaEvolution.partitionProblems(byAge, TABLE)).isEmpty();
  }
}
