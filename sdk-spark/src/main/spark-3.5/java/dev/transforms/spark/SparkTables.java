package dev.transforms.spark;

import org.apache.iceberg.Table;
import org.apache.iceberg.spark.source.SparkTable;

/**
 * Iceberg tables as Spark tables, Spark 3.5 line: Iceberg's {@code SparkTable} constructors, told not
 * to refresh the table again (the callers have just refreshed it).
 */
final class SparkTables {

  private SparkTables() {}

  /** @return {@code table} as Spark reads and writes it: its current snapshot, {@code main} */
  static SparkTable of(Table table) {
    return new SparkTable(table, false);
  }

  /** @return {@code table} as Spark reads and writes it on {@code branch} */
  static SparkTable onBranch(Table table, String branch) {
    return new SparkTable(table, branch, false);
  }
}
