package dev.transforms.spark;

import org.apache.iceberg.Table;
import org.apache.iceberg.spark.TimeTravel;
import org.apache.iceberg.spark.source.SparkTable;

/**
 * Iceberg tables as Spark tables, Spark 4.1 line: Iceberg's {@code SparkTable} of this line has no
 * eager-refresh flag (it never refreshes on its own) and makes a table on a branch with a factory.
 */
final class SparkTables {

  /**
   * A time-travel load of an output of the running transform ({@code VERSION AS OF}, {@code TIMESTAMP AS
   * OF}, {@link SnapshotReads}). Iceberg's catalog of Spark 4.1 loads time travel straight from its
   * Iceberg catalog, where a new output does not exist yet and an output's staged shape is not seen:
   * the load is made here, from the run's version of the table.
   *
   * @param table the run's version of the output
   * @param version a snapshot id, branch or tag
   * @return the table at that version
   */
  static java.util.Optional<SparkTable> atVersion(Table table, String version) {
    table.refresh();
    return java.util.Optional.of(SparkTable.create(table, TimeTravel.version(version)));
  }

  /**
   * As {@link #atVersion(Table, String)}, at a time.
   *
   * @param table the run's version of the output
   * @param timestampMicros microseconds since the epoch, as Spark passes them
   * @return the table at that time
   */
  static java.util.Optional<SparkTable> atTimestamp(Table table, long timestampMicros) {
    table.refresh();
    return java.util.Optional.of(SparkTable.create(table, TimeTravel.timestampMicros(timestampMicros)));
  }

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
