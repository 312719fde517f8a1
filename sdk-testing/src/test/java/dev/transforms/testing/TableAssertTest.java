package dev.transforms.testing;

import static dev.transforms.testing.TransformsAssertions.assertThatTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

@TransformsTest
public class TableAssertTest {

  static final Schema PEOPLE = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()),
      Types.NestedField.optional(3, "joined", Types.DateType.get()),
      Types.NestedField.optional(4, "score", Types.DecimalType.of(5, 2)));

  TestWarehouse warehouse;

  @Test
  void rowsMatchInAnyOrderAndValuesAreConvertedToColumnTypes() {
    Table table = warehouse.createTable("/assert/match", PEOPLE,
        Row.of(1, "Ada", "2026-01-02", "9.5"), Row.of(2L, null, LocalDate.of(2026, 3, 4), null));
    assertThatTable(table)
        .hasColumns("id", "name", "joined", "score")
        .containsExactlyInAnyOrder(
            Row.of(2L, null, LocalDate.of(2026, 3, 4), null),
            Row.of(1L, "Ada", LocalDate.of(2026, 1, 2), new BigDecimal("9.50")))
        .hasSnapshotCount(1)
        .currentSnapshotHasOperation("append")
        .currentSnapshotSummaryContains("added-records", "2");
  }

  @Test
  void aRowMismatchShowsOnlyTheDifferingRows() {
    Table table = warehouse.createTable("/assert/mismatch", PEOPLE,
        Row.of(1, "Ada", "2026-01-02", "9.5"), Row.of(2, "Grace", "2026-03-04", null));
    assertThatThrownBy(() -> assertThatTable(table).containsExactlyInAnyOrder(
        Row.of(1L, "Ada", LocalDate.of(2026, 1, 2), new BigDecimal("9.50")),
        Row.of(3L, "Linus", LocalDate.of(2026, 3, 4), null)))
        .isInstanceOf(AssertionError.class)
        .hasMessage("""
            Expecting table local.assert.mismatch to contain exactly 2 rows in any order (columns [id, name, joined, score]), but it has 2 rows:
              expected but not found (1):
                (3, 'Linus', 2026-03-04, null)
              found but not expected (1):
                (2, 'Grace', 2026-03-04, null)""");
  }

  @Test
  void duplicatesCount() {
    Table table = warehouse.createTable("/assert/duplicates", PEOPLE,
        Row.of(1, "Ada", null, null), Row.of(1, "Ada", null, null));
    assertThatThrownBy(() -> assertThatTable(table).containsExactlyInAnyOrder(Row.of(1L, "Ada", null, null)))
        .hasMessageStartingWith("Expecting table local.assert.duplicates to contain exactly 1 row in any order "
            + "(columns [id, name, joined, score]), but it has 2 rows:")
        .hasMessageEndingWith("found but not expected (1):\n    (1, 'Ada', null, null)");
  }

  @Test
  void schemaPartitionSnapshotAndPropertyFailuresNameExpectedAndActual() {
    Schema schema = new Schema(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "created_at", Types.TimestampType.withoutZone()));
    Table table = warehouse.createTable("/assert/partitioned", schema,
        PartitionSpec.builderFor(schema).day("created_at").build(), Map.of("write.delete.mode", "merge-on-read"),
        List.of(Row.of(1, "2026-04-01T10:00:00")));
    assertThatTable(table).isPartitionedBy("day(created_at)").hasProperty("write.delete.mode", "merge-on-read")
        .hasSchema(schema);

    assertThatThrownBy(() -> assertThatTable(table).hasColumns("id"))
        .hasMessage("Expecting table local.assert.partitioned to have columns [id] but it has [id, created_at]");
    assertThatThrownBy(() -> assertThatTable(table).isPartitionedBy("identity(id)"))
        .hasMessage("Expecting table local.assert.partitioned to be partitioned by [identity(id)] but it is "
            + "partitioned by [day(created_at)]");
    assertThatThrownBy(() -> assertThatTable(table).hasSnapshotCount(3))
        .hasMessage("Expecting table local.assert.partitioned to have 3 snapshots but it has 1: [append]");
    assertThatThrownBy(() -> assertThatTable(table).currentSnapshotHasOperation("delete"))
        .hasMessage("Expecting the current snapshot of table local.assert.partitioned to be 'delete' but it is "
            + "'append' (history: [append])");
    assertThatThrownBy(() -> assertThatTable(table).currentSnapshotSummaryContains("added-records", "5"))
        .hasMessage("Expecting the current snapshot of table local.assert.partitioned to have summary "
            + "added-records=5 but it has added-records=1");
    assertThatThrownBy(() -> assertThatTable(table).hasProperty("write.delete.mode", "copy-on-write"))
        .hasMessage("Expecting table local.assert.partitioned to have property write.delete.mode=copy-on-write "
            + "but it is merge-on-read");
    assertThatThrownBy(() -> assertThatTable(table).hasProperty("nope", "x"))
        .hasMessage("Expecting table local.assert.partitioned to have property nope=x but it is not set");
    Schema other = new Schema(Types.NestedField.required(1, "id", Types.IntegerType.get()));
    assertThatThrownBy(() -> assertThatTable(table).hasSchema(other))
        .hasMessage("Expecting table local.assert.partitioned to have schema%n  id int not null%nbut it has%n"
            + "  id long not null, created_at timestamp", new Object[0]);
  }

  @Test
  void aTableFromCsvConvertsEachColumnAndTreatsEmptyAsNull() {
    Table table = warehouse.createTableFromCsv("/assert/csv", PEOPLE, "people.csv");
    assertThatTable(table).containsExactlyInAnyOrder(
        Row.of(1L, "Ada", LocalDate.of(2026, 1, 2), new BigDecimal("9.50")),
        Row.of(2L, "Grace, Admiral", LocalDate.of(2026, 3, 4), null),
        Row.of(3L, null, LocalDate.of(2026, 5, 6), new BigDecimal("7.25")));
    assertThat(warehouse.rows("/assert/csv")).hasSize(3);
  }

  @Test
  void fixtureMisuseNamesTheRowAndColumn() {
    assertThatThrownBy(() -> warehouse.createTable("/assert/bad", PEOPLE, Row.of(1, "Ada")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Row (1, 'Ada') has 2 values, but the table has 4 columns: [id, name, joined, score]");
    assertThatThrownBy(() -> warehouse.createTable("/assert/bad2", PEOPLE, Row.of("x", "Ada", null, null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Value 'x' of ('x', 'Ada', null, null) does not fit column id of type long");
    assertThatThrownBy(() -> warehouse.createTableFromCsv("/assert/bad3", PEOPLE, "missing.csv"))
        .hasMessage("CSV resource missing.csv is not on the test classpath; put it in src/test/resources/missing.csv");
    assertThat(warehouse.exists("/assert/bad2")).isFalse();
  }

  /** Copies its input whole: a full build, giving the output the input's columns. */
  public static class CopyPeople {
    @Transform(name = "copy-people")
    public void copy(@TableInput("/assert/people") IcebergInput in, @TableOutput("/assert/people-copy") IcebergOutput out) {
      out.writeTable(in.arrow());
    }
  }

  @Test
  void aSnapshotIsReadInTheColumnsItWasWrittenWith() {
    Schema ids = new Schema(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "name", Types.StringType.get()));
    warehouse.createTable("/assert/people", ids, Row.of(1, "Ada"), Row.of(2, "Grace"));
    warehouse.build(CopyPeople.class).assertSucceeded();
    long before = warehouse.table("/assert/people-copy").currentSnapshot().snapshotId();

    warehouse.table("/assert/people").updateSchema().addColumn("joined", Types.DateType.get()).commit();
    warehouse.append("/assert/people", Row.of(3, "Linus", "2026-03-04"));
    warehouse.build(CopyPeople.class).assertSucceeded();

    Table copy = warehouse.table("/assert/people-copy");
    assertThatTable(copy).hasColumns("id", "name", "joined")
        .containsExactlyInAnyOrder(Row.of(1L, "Ada", null), Row.of(2L, "Grace", null),
            Row.of(3L, "Linus", LocalDate.of(2026, 3, 4)))
        .containsExactlyInAnyOrderAtSnapshot(before, Row.of(1L, "Ada"), Row.of(2L, "Grace"));
    assertThatThrownBy(() -> assertThatTable(copy).containsExactlyInAnyOrderAtSnapshot(before,
        Row.of(1L, "Ada"), Row.of(3L, "Linus")))
        .hasMessage("Expecting table local.assert.people-copy at snapshot " + before
            + " to contain exactly 2 rows in any order (columns [id, name]), but it has 2 rows:\n"
            + "  expected but not found (1):\n    (3, 'Linus')\n  found but not expected (1):\n    (2, 'Grace')");
  }

  @Test
  void appendAddsASnapshot() {
    warehouse.createTable("/assert/append", PEOPLE, Row.of(1, "Ada", null, null));
    Table table = warehouse.append("/assert/append", Row.of(2, "Grace", null, null));
    assertThatTable(table).hasSnapshotCount(2).currentSnapshotSummaryContains("added-records", "1")
        .containsExactlyInAnyOrder(Row.of(1L, "Ada", null, null), Row.of(2L, "Grace", null, null));
    assertThatThrownBy(() -> assertThatTable(table).hasSnapshotCount(1))
        .hasMessage("Expecting table local.assert.append to have 1 snapshot but it has 2: [append, append]");
  }
}
