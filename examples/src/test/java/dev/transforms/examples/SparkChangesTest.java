package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.ResolvedTable;
import dev.transforms.singlenode.Changelog;
import dev.transforms.spark.SparkChanges;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import org.apache.iceberg.Table;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random MERGE, UPDATE, DELETE and INSERT statements of Spark on copy-on-write and merge-on-read
 * tables: after each, the changes {@link SparkChanges} reads equal those of the single-node {@link
 * Changelog} (checked against an in-memory model by ChangelogOracleTest), and on copy-on-write tables
 * those of Iceberg's own {@code create_changelog_view}.
 */
@TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
class SparkChangesTest {

  TestWarehouse warehouse;

  @ParameterizedTest
  @ValueSource(strings = {"merge-on-read", "copy-on-write"})
  void sparkChangesEqualTheSingleNodeChangelogAfterEveryStatement(String mode) {
    SparkSession spark = warehouse.sparkSession();
    ResolvedTable resolved = warehouse.resolve("/Examples/cdc/spark-changes");
    String table = resolved.sparkIdentifier();
    spark.sql("CREATE NAMESPACE IF NOT EXISTS " + resolved.sparkNamespace());
    spark.sql("CREATE TABLE " + table + " (id BIGINT NOT NULL, name STRING, n INT) USING iceberg TBLPROPERTIES ("
        + "'format-version' = '2', 'write.delete.mode' = '" + mode + "', 'write.update.mode' = '" + mode
        + "', 'write.merge.mode' = '" + mode + "')");
    spark.sql("INSERT INTO " + table + " SELECT id, concat('n', id), CAST(id % 3 AS INT) FROM range(0, 40)");
    Random random = new Random(mode.length());
    long nextId = 40;
    for (int step = 0; step < 5; step++) {
      long before = warehouse.table("/Examples/cdc/spark-changes").currentSnapshot().snapshotId();
      switch (step % 4) {
        case 0 -> spark.sql("MERGE INTO " + table + " t USING (SELECT * FROM VALUES (" + random.nextInt(40) + "L, 'm"
            + step + "', 1), (" + (nextId++) + "L, 'new', 2) AS s(id, name, n)) s ON t.id = s.id "
            + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
        case 1 -> spark.sql("UPDATE " + table + " SET name = 'u" + step + "' WHERE n = " + random.nextInt(3)
            + " AND id < " + (10 + random.nextInt(20)));
        case 2 -> spark.sql("DELETE FROM " + table + " WHERE id = " + random.nextInt(40) + " OR id = "
            + random.nextInt(40));
        default -> spark.sql("INSERT INTO " + table + " VALUES (" + (nextId++) + ", 'i', 0)");
      }
      Table iceberg = warehouse.table("/Examples/cdc/spark-changes");
      long after = iceberg.currentSnapshot().snapshotId();
      List<String> spark1 = lines(SparkChanges.between(spark, table, iceberg, OptionalLong.of(before), after,
          List.of("id")).collectAsList());
      List<String> single = Changelog.of(iceberg).between(OptionalLong.of(before), after).identifiedBy("id").changes()
          .stream().map(c -> c.row().getField("id") + "," + c.row().getField("name") + "," + c.row().getField("n")
              + "," + c.type() + "," + c.ordinal() + "," + c.snapshotId()).sorted().toList();
      assertThat(spark1).as("%s, step %d", mode, step).isEqualTo(single);
      if (mode.equals("copy-on-write")) {
        spark.sql("CALL " + resolved.catalog() + ".system.create_changelog_view(table => '" + resolved.procedureTableName()
            + "', options => map('start-snapshot-id', '" + before + "', 'end-snapshot-id', '" + after
            + "'), identifier_columns => array('id'), changelog_view => 'iceberg_changes')");
        List<String> iceberg1 = lines(spark.sql("SELECT id, name, n, _change_type, _change_ordinal, "
            + "_commit_snapshot_id FROM iceberg_changes").collectAsList());
        assertThat(spark1).as("%s, step %d, against create_changelog_view", mode, step).isEqualTo(iceberg1);
      }
    }
    List<String> whole = lines(SparkChanges.between(spark, table, warehouse.table("/Examples/cdc/spark-changes"),
        OptionalLong.empty(), warehouse.table("/Examples/cdc/spark-changes").currentSnapshot().snapshotId(),
        List.of("id")).collectAsList());
    assertThat(whole).hasSizeGreaterThan(40);
  }

  private static List<String> lines(List<Row> rows) {
    List<String> out = new ArrayList<>();
    for (Row row : rows) {
      out.add(row.getAs("id") + "," + row.getAs("name") + "," + row.getAs("n") + "," + row.getAs("_change_type")
          + "," + row.getAs("_change_ordinal") + "," + row.getAs("_commit_snapshot_id"));
    }
    out.sort(null);
    return out;
  }
}
