package dev.transforms.singlenode.edits;

import static dev.transforms.singlenode.edits.RowEditsTest.SCHEMA;
import static dev.transforms.singlenode.edits.RowEditsTest.contents;
import static dev.transforms.singlenode.edits.RowEditsTest.row;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Edits across schema and partition evolution, and value forms that denote the same value. */
class RowEditsEvolutionTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "v{0} merge-on-read={1}")
  @CsvSource({"2, false", "2, true", "3, false", "3, true"})
  void editsSeeFilesWrittenBeforeAColumnWasAdded(int formatVersion, boolean mergeOnRead) {
    Table table =
        RowEditsTables.create(
            dir, "t", SCHEMA, PartitionSpec.unpartitioned(), formatVersion, mergeOnRead, Map.of());
    RowEdits.on(table).append(List.of(row(1, "a", 1), row(2, "b", 2), row(3, "c", 3)));
    table.updateSchema().addColumn("note", Types.StringType.get()).commit();

    Schema evolved = table.schema();
    GenericRecord changed = GenericRecord.create(evolved);
    changed.set(0, 2L);
    changed.set(1, "b");
    changed.set(2, 2);
    changed.set(3, "noted");
    GenericRecord unchanged = GenericRecord.create(evolved);
    unchanged.set(0, 3L);
    unchanged.set(1, "c");
    unchanged.set(2, 3);
    UpsertResult result = RowEdits.on(table).upsert(List.of(changed, unchanged), List.of("id"));
    long deleted = RowEdits.on(table).delete(Expressions.isNull("note"));

    assertThat(result.rowsUpdated()).isEqualTo(1);
    assertThat(result.rowsInserted()).isZero();
    assertThat(deleted).isEqualTo(2);
    List<Record> rows = RowEditsTables.read(table);
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).getField("id")).isEqualTo(2L);
    assertThat(rows.get(0).getField("note")).isEqualTo("noted");
  }

  @ParameterizedTest(name = "v{0} merge-on-read={1}")
  @CsvSource({"2, false", "2, true", "3, false", "3, true"})
  void editsReachFilesOfAnEarlierPartitionSpec(int formatVersion, boolean mergeOnRead) {
    Table table =
        RowEditsTables.create(
            dir, "t", SCHEMA, PartitionSpec.unpartitioned(), formatVersion, mergeOnRead, Map.of());
    RowEdits.on(table).append(List.of(row(1, "a", 1), row(2, "b", 2), row(3, "c", 3)));
    table.updateSpec().addField("name").commit();
    RowEdits.on(table).append(List.of(row(4, "a", 4), row(5, "b", 5)));

    RowEdits.on(table).upsert(List.of(row(1, "a", 10), row(4, "a", 40)), List.of("id"));
    RowEdits.on(table).delete(Expressions.equal("name", "b"));
    RowEdits.on(table).delete(Expressions.equal("id", 3L));

    assertThat(contents(table)).isEqualTo(Map.of(1L, "a/10", 4L, "a/40"));
  }

  @ParameterizedTest(name = "merge-on-read={0}")
  @CsvSource({"false", "true"})
  void valuesInAnotherJavaFormAreNotChanges(boolean mergeOnRead) {
    Schema schema =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "amount", Types.DecimalType.of(10, 2)),
            optional(3, "at", Types.TimestampType.withZone()),
            optional(4, "data", Types.BinaryType.get()),
            optional(5, "code", Types.FixedType.ofLength(2)));
    Table table =
        RowEditsTables.create(
            dir, "t", schema, PartitionSpec.unpartitioned(), 3, mergeOnRead, Map.of());
    OffsetDateTime at = OffsetDateTime.of(2024, 5, 1, 12, 0, 0, 0, ZoneOffset.UTC);
    RowEdits.on(table)
        .append(
            List.of(
                record(
                    schema,
                    1L,
                    new BigDecimal("1.50"),
                    at,
                    ByteBuffer.wrap(new byte[] {1, 2}),
                    new byte[] {7, 8})));
    long snapshotId = table.currentSnapshot().snapshotId();

    Record sameValues =
        record(
            schema,
            1L,
            new BigDecimal("1.5"),
            at.withOffsetSameInstant(ZoneOffset.ofHours(2)),
            ByteBuffer.wrap(new byte[] {9, 1, 2}, 1, 2).slice(),
            new byte[] {7, 8});
    UpsertResult result = RowEdits.on(table).upsert(List.of(sameValues), List.of("id"));

    assertThat(result.rowsUpdated()).isZero();
    assertThat(result.rowsInserted()).isZero();
    assertThat(RowEditsTables.currentSnapshotId(table)).isEqualTo(snapshotId);

    Record changed = record(schema, 1L, new BigDecimal("1.51"), at, null, new byte[] {7, 8});
    assertThat(RowEdits.on(table).upsert(List.of(changed), List.of("id")).rowsUpdated())
        .isEqualTo(1);
    Map<Object, Object> amounts = new TreeMap<>();
    RowEditsTables.read(table).forEach(r -> amounts.put(r.get(0), r.get(1)));
    assertThat(amounts).isEqualTo(Map.of(1L, new BigDecimal("1.51")));
  }

  @ParameterizedTest(name = "merge-on-read={0}")
  @CsvSource({"false", "true"})
  void upsertJoinsOnDecimalAndTimestampKeys(boolean mergeOnRead) {
    Schema schema =
        new Schema(
            required(1, "amount", Types.DecimalType.of(10, 2)),
            required(2, "at", Types.TimestampType.withZone()),
            optional(3, "note", Types.StringType.get()));
    Table table =
        RowEditsTables.create(
            dir, "t", schema, PartitionSpec.unpartitioned(), 2, mergeOnRead, Map.of());
    OffsetDateTime at = OffsetDateTime.of(2024, 5, 1, 12, 0, 0, 0, ZoneOffset.UTC);
    RowEdits.on(table)
        .append(
            List.of(
                record(schema, new BigDecimal("1.50"), at, "old"),
                record(schema, new BigDecimal("2.00"), at, "other")));

    UpsertResult result =
        RowEdits.on(table)
            .upsert(
                List.of(
                    record(
                        schema,
                        new BigDecimal("1.5"),
                        at.withOffsetSameInstant(ZoneOffset.ofHours(-5)),
                        "new")),
                List.of("amount", "at"));

    assertThat(result.rowsUpdated()).isEqualTo(1);
    assertThat(result.rowsInserted()).isZero();
    Map<Object, Object> notes = new TreeMap<>();
    RowEditsTables.read(table).forEach(r -> notes.put(r.get(0), r.get(2)));
    assertThat(notes)
        .isEqualTo(Map.of(new BigDecimal("1.50"), "new", new BigDecimal("2.00"), "other"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "1.234, more than 2 digits after the point; round it first",
    "123456789.5, more than 10 digits"
  })
  void decimalsThatDoNotFitTheColumnAreRefused(String value, String problem) {
    Schema schema =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "amount", Types.DecimalType.of(10, 2)));
    Table table =
        RowEditsTables.create(dir, "t", schema, PartitionSpec.unpartitioned(), 2, false, Map.of());

    assertThatThrownBy(
            () -> RowEdits.on(table).append(List.of(record(schema, 1L, new BigDecimal(value)))))
        .isInstanceOf(InvalidRowEditException.class)
        .hasMessage(
            "Row 0 for table "
                + table.name()
                + " has "
                + value
                + " in column 'amount' of type decimal(10, 2): "
                + problem);
    assertThat(table.currentSnapshot()).isNull();
  }

  private static Record record(Schema schema, Object... values) {
    GenericRecord record = GenericRecord.create(schema);
    for (int i = 0; i < values.length; i += 1) {
      record.set(i, values[i]);
    }
    return record;
  }
}
