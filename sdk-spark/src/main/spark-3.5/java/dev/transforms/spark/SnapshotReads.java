package dev.transforms.spark;

import org.apache.spark.sql.DataFrameReader;

/**
 * Reads of a table at a snapshot, Spark 3.5 line: Iceberg's {@code snapshot-id} read option. Spark
 * resolves the table with {@code loadTable(Identifier)}, and the option picks the snapshot.
 */
final class SnapshotReads {

  private SnapshotReads() {}

  /** @return {@code reader}, set to read snapshot {@code snapshotId} of the table it loads */
  static DataFrameReader atSnapshot(DataFrameReader reader, long snapshotId) {
    return reader.option("snapshot-id", Long.toString(snapshotId));
  }
}
