package dev.transforms.singlenode.edits;

import static dev.transforms.singlenode.edits.RowEditsTest.SCHEMA;
import static dev.transforms.singlenode.edits.RowEditsTest.row;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** Bad input: each is refused with a message naming what to fix, and the table is unchanged. */
class RowEditsInputTest {
  private static final String COLUMNS = "[id: long (required), name: string, qty: int]";

  @TempDir Path dir;
  private Table table;
  private long snapshotId;
  private RowEdits edits;

  @BeforeEach
  void createTable() {
    table =
        RowEditsTables.create(dir, "t", SCHEMA, PartitionSpec.unpartitioned(), 2, true, Map.of());
    edits = RowEdits.on(table);
    edits.append(List.of(row(1, "a", 1), row(2, "b", 2)));
    snapshotId = table.currentSnapshot().snapshotId();
  }

  private void assertRefused(Executable edit, String message) {
    assertThatThrownBy(edit::execute)
        .isInstanceOf(InvalidRowEditException.class)
        .hasMessage(message);
    assertThat(RowEditsTables.currentSnapshotId(table)).isEqualTo(snapshotId);
    assertThat(RowEditsTables.read(table)).hasSize(2);
  }

  @Test
  void duplicateKeysInTheUpsertSourceAreNamed() {
    assertRefused(
        () ->
            edits.upsert(
                List.of(
                    row(1, "x", 1),
                    row(1, "y", 2),
                    row(2, "p", 1),
                    row(2, "q", 1),
                    row(2, "r", 1),
                    row(3, "c", 3)),
                List.of("id")),
        "Upsert source for table "
            + table.name()
            + " has duplicate keys on join columns [id]: id=1 (2 rows), id=2 (3 rows). Each key"
            + " must appear in at most one source row; deduplicate the rows first");
  }

  @Test
  void duplicateKeysOverSeveralColumnsAreNamedUpToFive() {
    List<Record> rows = new java.util.ArrayList<>();
    for (int i = 0; i < 7; i += 1) {
      rows.add(row(i, "n", i));
      rows.add(row(i, "n", 100 + i));
    }
    assertRefused(
        () -> edits.upsert(rows, List.of("id", "name")),
        "Upsert source for table "
            + table.name()
            + " has duplicate keys on join columns [id, name]: (id=0, name='n') (2 rows),"
            + " (id=1, name='n') (2 rows), (id=2, name='n') (2 rows), (id=3, name='n') (2 rows),"
            + " (id=4, name='n') (2 rows) and 2 more keys. Each key must appear in at most one"
            + " source row; deduplicate the rows first");
  }

  @Test
  void nullJoinKeysNameTheColumn() {
    assertRefused(
        () -> edits.upsert(List.of(row(5, "e", 5), row(6, null, 6)), List.of("id", "name")),
        "Upsert source row 1 has a null in join column 'name' of table "
            + table.name()
            + "; join columns must have a value in every source row");
  }

  @Test
  void unknownJoinColumnListsTheTableColumns() {
    assertRefused(
        () -> edits.upsert(List.of(row(5, "e", 5)), List.of("ident")),
        "Join column 'ident' does not exist in table "
            + table.name()
            + "; the table has columns "
            + COLUMNS);
  }

  @Test
  void nestedJoinColumnsAreRefused() {
    Schema nested =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "info", Types.StructType.of(optional(3, "code", Types.StringType.get()))));
    Table other =
        RowEditsTables.create(
            dir, "nested", nested, PartitionSpec.unpartitioned(), 2, true, Map.of());

    assertThatThrownBy(() -> RowEdits.on(other).upsert(List.of(), List.of("info.code")))
        .isInstanceOf(InvalidRowEditException.class)
        .hasMessage(
            "Join column 'info.code' of table "
                + other.name()
                + " is nested in a struct; join on top-level columns [id: long (required), info:"
                + " struct<3: code: optional string>]");
  }

  @Test
  void rowsThatDoNotFitTheSchemaListTheFields() {
    Schema other =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "name", Types.IntegerType.get()),
            optional(4, "extra", Types.StringType.get()));
    GenericRecord bad = GenericRecord.create(other);
    bad.set(0, 7L);
    bad.set(1, 7);
    String message =
        "Row 1 does not fit table "
            + table.name()
            + ": unexpected fields [extra: string]; wrong types [name: int (table has string)];"
            + " the row has fields [id: long (required), name: int, extra: string] and the table"
            + " has columns "
            + COLUMNS
            + ". Build rows with GenericRecord.create(table.schema()).";

    assertRefused(() -> edits.upsert(List.of(row(5, "e", 5), bad), List.of("id")), message);
    assertRefused(() -> edits.append(List.of(row(5, "e", 5), bad)), message);
    assertRefused(
        () -> edits.overwrite(List.of(row(5, "e", 5), bad), Expressions.alwaysTrue()), message);
  }

  @Test
  void rowsWithoutARequiredColumnAreRefused() {
    Schema noId = new Schema(optional(2, "name", Types.StringType.get()));
    GenericRecord record = GenericRecord.create(noId);
    record.set(0, "x");
    assertRefused(
        () -> edits.append(List.of(record)),
        "Row 0 does not fit table "
            + table.name()
            + ": missing required fields [id: long (required)]; the row has fields [name: string]"
            + " and the table has columns "
            + COLUMNS
            + ". Build rows with GenericRecord.create(table.schema()).");

    GenericRecord nullId = GenericRecord.create(SCHEMA);
    assertRefused(
        () -> edits.upsert(List.of(nullId), List.of("id")),
        "Row 0 for table "
            + table.name()
            + " has no value for required column 'id'; give it a value");
  }

  @Test
  void filtersOnUnknownColumnsListTheTableColumns() {
    assertRefused(
        () -> edits.delete(Expressions.equal("nope", 1)),
        "Filter ref(name=\"nope\") == 1 of delete does not fit table "
            + table.name()
            + ": Cannot find field 'nope' in struct: struct<1: id: required long, 2: name:"
            + " optional string, 3: qty: optional int>. The table has columns "
            + COLUMNS);
  }

  @Test
  void unknownTablePropertyValuesAreNamed() {
    table.updateProperties().set(RowEdits.DELETE_KIND_PROPERTY, "sometimes").commit();
    snapshotId = RowEditsTables.currentSnapshotId(table);
    assertRefused(
        () -> edits.delete(Expressions.equal("id", 1L)),
        "Table "
            + table.name()
            + " has "
            + RowEdits.DELETE_KIND_PROPERTY
            + "=sometimes; set it to 'position' or 'equality'");

    table.updateProperties().set(TableProperties.MERGE_MODE, "eventually").commit();
    assertRefused(
        () -> edits.upsert(List.of(row(1, "x", 1)), List.of("id")),
        "Table "
            + table.name()
            + " has write.merge.mode=eventually; set it to 'copy-on-write' or 'merge-on-read'");
  }

  @Test
  void upsertWithBothHalvesSkippedDoesNothing() {
    UpsertResult result =
        edits.upsert(
            List.of(row(1, "x", 1), row(9, "i", 9)),
            List.of("id"),
            UpsertOptions.builder()
                .whenMatchedUpdateAll(false)
                .whenNotMatchedInsertAll(false)
                .build());

    assertThat(result.rowsUpdated()).isZero();
    assertThat(result.rowsInserted()).isZero();
    assertThat(result.snapshotId()).isEmpty();
    assertThat(RowEditsTables.currentSnapshotId(table)).isEqualTo(snapshotId);
  }
}
