package dev.transforms.spark;

import org.apache.spark.sql.DataFrameReader;

/**
 * Reads of a table at a snapshot, Spark 4.1 line: Iceberg's {@code snapshot-id} option is refused on
 * this line ("no longer supported, use Spark built-in versionAsOf"), so the read uses Spark's own
 * {@code versionAsOf}, which makes Spark load the table with {@code loadTable(Identifier, String)}.
 */
final class SnapshotReads {

  private SnapshotReads() {}

  /** @return {@code reader}, set to read snapshot {@code snapshotId} of the table it loads */
  static DataFrameReader atSnapshot(DataFrameReader reader, long snapshotId) {
    return reader.option("versionAsOf", Long.toString(snapshotId));
  }
}
