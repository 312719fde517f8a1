package dev.transforms.spark;

import org.apache.iceberg.Table;
import org.apache.iceberg.spark.source.SparkTable;

/**
 * Iceberg tables as Spark tables, Spark 3.5 line: Iceberg's {@code SparkTable} constructors, told not
 * to refresh the table again (the callers have just refreshed it).
 */
final class SparkTables {

  /**
   * A time-travel load of an output of the running transform ({@code VERSION AS OF}, {@code TIMESTAMP AS
   * OF}, {@link SnapshotReads}). Empty on this line: Iceberg's catalog of Spark 3.5 loads time travel
   * through {@code loadTable(Identifier)}, which {@link TransformsSparkCatalog} answers with the run's
   * version of the table.
   *
   * @param table the run's version of the output
   * @param version a snapshot id, branch or tag
   * @return empty: let Iceberg load it
   */
  static java.util.Optional<SparkTable> atVersion(Table table, String version) {
    return java.util.Optional.empty();
  }

  /**
   * As {@link #atVersion(Table, String)}, at a time.
   *
   * @param table the run's version of the output
   * @param timestampMicros microseconds since the epoch, as Spark passes them
   * @return empty: let Iceberg load it
   */
  static java.util.Optional<SparkTable> atTimestamp(Table table, long timestampMicros) {
    return java.util.Optional.empty();
  }

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
