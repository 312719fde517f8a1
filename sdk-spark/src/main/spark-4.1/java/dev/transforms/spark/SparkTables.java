package dev.transforms.spark;

import org.apache.iceberg.Table;
import org.apache.iceberg.spark.source.SparkTable;

/**
 * Iceberg tables as Spark tables, Spark 4.1 line: Iceberg's {@code SparkTable} of this line has no
 * eager-refresh flag (it never refreshes on its own) and makes a table on a branch with a factory.
 */
final class SparkTables {

  private SparkTables() {}

  /** @return {@code table} as Spark reads and writes it: its current snapshot, {@code main} */
  static SparkTable of(Table table) {
    return new SparkTable(table);
  }

  /** @return {@code table} as Spark reads and writes it on {@code branch} */
  static SparkTable onBranch(Table table, String branch) {
    return SparkTable.create(table, branch);
  }
}
