package dev.transforms.spark;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** Reads of Iceberg tables the Spark handles share. */
final class TableReads {

  private TableReads() {}

  /** A SQL string literal holding a text, for procedure arguments. */
  static String literal(String text) {
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  /** A table as it was at a snapshot. */
  static Dataset<Row> atSnapshot(SparkSession session, String identifier, long snapshotId) {
    return SnapshotReads.atSnapshot(session.read(), snapshotId).table(identifier);
  }

  /** No rows, with the columns of a frame. */
  static Dataset<Row> emptyLike(SparkSession session, Dataset<Row> frame) {
    return session.createDataFrame(List.of(), frame.schema());
  }
}
