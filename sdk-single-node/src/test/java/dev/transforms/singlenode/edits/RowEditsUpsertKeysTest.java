package dev.transforms.singlenode.edits;

import static dev.transforms.singlenode.edits.RowEditsTest.SCHEMA;
import static dev.transforms.singlenode.edits.RowEditsTest.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which rows an upsert matches by: the table's identifier fields when no join columns are given, and
 * what happens when the table holds a matched key more than once (never a row dropped silently).
 */
class RowEditsUpsertKeysTest {
  private static final Schema KEYED = new Schema(SCHEMA.columns(), Set.of(1));

  @TempDir Path dir;

  private Table table(Schema schema, int formatVersion, boolean mergeOnRead, String deleteKind) {
    return RowEditsTables.create(
        dir,
        "t",
        schema,
        PartitionSpec.unpartitioned(),
        formatVersion,
        mergeOnRead,
        deleteKind == null ? Map.of() : Map.of(RowEdits.DELETE_KIND_PROPERTY, deleteKind));
  }

  /** The table's rows as sorted "id:name:qty" strings. */
  private static List<String> rows(Table table) {
    List<String> rows = new ArrayList<>();
    for (Record r : RowEditsTables.read(table)) {
      rows.add(r.getField("id") + ":" + r.getField("name") + ":" + r.getField("qty"));
    }
    rows.sort(null);
    return rows;
  }

  @Test
  void withoutJoinColumnsTheIdentifierFieldsAreTheKey() {
    Table table = table(KEYED, 2, false, null);
    RowEdits edits = RowEdits.on(table);
    edits.append(List.of(row(1, "a", 1), row(2, "b", 2)));

    UpsertResult result = edits.upsert(List.of(row(2, "B", 2), row(3, "c", 3)));

    assertThat(result.rowsUpdated()).isEqualTo(1);
    assertThat(result.rowsInserted()).isEqualTo(1);
    assertThat(rows(table)).containsExactly("1:a:1", "2:B:2", "3:c:3");

    UpsertResult insertOnly = edits.upsert(List.of(row(1, "x", 9), row(4, "d", 4)), UpsertOptions.skipUpdate());
    assertThat(insertOnly.rowsInserted()).isEqualTo(1);
    assertThat(rows(table)).containsExactly("1:a:1", "2:B:2", "3:c:3", "4:d:4");
  }

  @Test
  void withoutJoinColumnsOrIdentifierFieldsTheErrorNamesTheFix() {
    Table table = table(SCHEMA, 2, false, null);
    RowEdits edits = RowEdits.on(table);
    edits.append(List.of(row(1, "a", 1)));
    Long before = RowEditsTables.currentSnapshotId(table);

    assertThatThrownBy(() -> edits.upsert(List.of(row(1, "b", 1))))
        .isInstanceOf(InvalidRowEditException.class)
        .hasMessage(
            "Upsert into "
                + table.name()
                + " was given no join columns and the table has no identifier fields; pass the"
                + " columns that identify a row, such as upsert(rows, List.of(\"id\")), or declare"
                + " them once with table.updateSchema().setIdentifierFields(\"id\").commit(); the"
                + " table has columns [id: long (required), name: string, qty: int]");
    assertThat(RowEditsTables.currentSnapshotId(table)).isEqualTo(before);
  }

  @Test
  void joinColumnsMatchWhateverTheirCaseWhenAsked() {
    Table table = table(SCHEMA, 2, false, null);
    RowEdits edits = RowEdits.on(table);
    edits.append(List.of(row(1, "a", 1)));

    assertThatThrownBy(() -> edits.upsert(List.of(row(1, "b", 1)), List.of("ID")))
        .isInstanceOf(InvalidRowEditException.class)
        .hasMessageStartingWith("Join column 'ID' does not exist");
    UpsertResult result =
        edits.upsert(
            List.of(row(1, "b", 1)), List.of("ID"), UpsertOptions.builder().caseSensitive(false).build());
    assertThat(result.rowsUpdated()).isEqualTo(1);
    assertThat(rows(table)).containsExactly("1:b:1");
  }

  @ParameterizedTest
  @CsvSource({"2, false, ", "2, true, position", "3, true, position", "2, true, equality"})
  void duplicateKeysInTheTableFailNamingUpToTenAndChangeNothing(
      int formatVersion, boolean mergeOnRead, String deleteKind) {
    Table table = table(SCHEMA, formatVersion, mergeOnRead, deleteKind);
    RowEdits edits = RowEdits.on(table);
    List<Record> twice = new ArrayList<>();
    for (int id = 0; id < 12; id += 1) {
      twice.add(row(id, "a", id));
      twice.add(row(id, id == 0 ? "b" : "a", id));
    }
    edits.append(twice);
    edits.append(List.of(row(0, "c", 0), row(20, "u", 20)));
    Long before = RowEditsTables.currentSnapshotId(table);
    List<String> contents = rows(table);

    List<Record> source = new ArrayList<>();
    for (int id = 0; id < 12; id += 1) {
      source.add(row(id, "z", id));
    }
    source.add(row(20, "v", 20));
    assertThatThrownBy(() -> edits.upsert(source, List.of("id")))
        .isInstanceOf(InvalidRowEditException.class)
        .hasMessage(
            "Upsert into table "
                + table.name()
                + " matched keys that the table holds in more than one row, on join columns [id]:"
                + " id=0 (3 rows), id=1 (2 rows), id=2 (2 rows), id=3 (2 rows), id=4 (2 rows),"
                + " id=5 (2 rows), id=6 (2 rows), id=7 (2 rows), id=8 (2 rows), id=9 (2 rows)"
                + " and 2 more keys. Nothing was changed; deduplicate the table, or pass"
                + " UpsertOptions.builder().updateEveryMatchingRow(true) to replace every matching"
                + " row, as SQL MERGE does");
    assertThat(RowEditsTables.currentSnapshotId(table)).isEqualTo(before);
    assertThat(rows(table)).isEqualTo(contents);
  }

  @ParameterizedTest
  @CsvSource({"2, false, ", "2, true, position", "3, true, position", "3, true, equality"})
  void updateEveryMatchingRowReplacesEachDuplicateAsSqlMergeDoes(
      int formatVersion, boolean mergeOnRead, String deleteKind) {
    Table table = table(SCHEMA, formatVersion, mergeOnRead, deleteKind);
    RowEdits edits = RowEdits.on(table);
    edits.append(List.of(row(1, "a", 1), row(1, "b", 1), row(2, "b", 2), row(3, "c", 3)));
    edits.append(List.of(row(1, "x", 1), row(2, "b", 2)));

    UpsertResult result =
        edits.upsert(
            List.of(row(1, "x", 1), row(2, "q", 2), row(4, "d", 4)),
            List.of("id"),
            UpsertOptions.builder().updateEveryMatchingRow(true).build());

    // id 1: two rows differ and are replaced, one already equals the source; id 2: both replaced
    assertThat(result.rowsUpdated()).isEqualTo(4);
    assertThat(result.rowsInserted()).isEqualTo(1);
    assertThat(rows(table))
        .containsExactly("1:x:1", "1:x:1", "1:x:1", "2:q:2", "2:q:2", "3:c:3", "4:d:4");
  }

  @Test
  void duplicatesThatAreOnlyMatchedWithoutUpdatesAreLeftAlone() {
    Table table = table(SCHEMA, 2, true, null);
    RowEdits edits = RowEdits.on(table);
    edits.append(List.of(row(1, "a", 1), row(1, "b", 1)));

    UpsertResult result =
        edits.upsert(List.of(row(1, "z", 1), row(2, "n", 2)), List.of("id"), UpsertOptions.skipUpdate());

    assertThat(result.rowsInserted()).isEqualTo(1);
    assertThat(rows(table)).containsExactly("1:a:1", "1:b:1", "2:n:2");
  }
}
