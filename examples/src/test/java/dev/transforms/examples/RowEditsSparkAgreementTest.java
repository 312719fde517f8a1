package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Row edits made without Spark must read the same through Spark: position deletes, deletion vectors
 * and copy-on-write rewrites are all files Spark's Iceberg reader has to agree with.
 */
@TransformsTest
class RowEditsSparkAgreementTest {

  static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()),
      Types.NestedField.optional(3, "amount", Types.DoubleType.get()));

  TestWarehouse warehouse;

  @ParameterizedTest(name = "format v{0}, {1}")
  @CsvSource({"2, merge-on-read", "3, merge-on-read", "2, copy-on-write"})
  void sparkReadsExactlyWhatRowEditsLeft(int formatVersion, String mode) {
    String path = "/agreement/v" + formatVersion + "-" + mode;
    List<Row> seed = new ArrayList<>();
    for (long id = 1; id <= 200; id++) {
      seed.add(Row.of(id, id % 7 == 0 ? null : "n" + id, id * 1.0));
    }
    Table table = warehouse.createTable(path, SCHEMA, PartitionSpec.unpartitioned(), Map.of(
        TableProperties.FORMAT_VERSION, Integer.toString(formatVersion),
        TableProperties.DELETE_MODE, mode, TableProperties.UPDATE_MODE, mode, TableProperties.MERGE_MODE, mode),
        seed);

    RowEdits edits = RowEdits.on(table);
    List<Record> upserts = new ArrayList<>();
    for (long id = 190; id <= 210; id++) {
      upserts.add(record(id, "u" + id, -id * 1.0));
    }
    edits.upsert(upserts, List.of("id"));
    edits.delete("id < 30 OR name IS NULL");
    edits.overwrite(List.of(record(1000, "replacement", 0.5)), org.apache.iceberg.expressions.Expressions
        .and(org.apache.iceberg.expressions.Expressions.greaterThan("amount", 150.0),
            org.apache.iceberg.expressions.Expressions.lessThan("id", 170L)));
    edits.delete("id = 195");

    List<Row> expected = warehouse.rows(path);
    List<Row> fromSpark = new ArrayList<>();
    for (org.apache.spark.sql.Row row : warehouse.sparkSession()
        .sql("SELECT id, name, amount FROM " + warehouse.resolve(path).sparkIdentifier()).collectAsList()) {
      fromSpark.add(Row.of(row.getLong(0), row.isNullAt(1) ? null : row.getString(1),
          row.isNullAt(2) ? null : row.getDouble(2)));
    }
    assertThat(fromSpark).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(expected).hasSizeBetween(100, 200).contains(Row.of(1000L, "replacement", 0.5))
        .doesNotContain(Row.of(195L, "u195", -195.0));
  }

  private static Record record(long id, String name, double amount) {
    GenericRecord record = GenericRecord.create(SCHEMA);
    record.setField("id", id);
    record.setField("name", name);
    record.setField("amount", amount);
    return record;
  }
}
