package dev.transforms.spark;

import org.apache.spark.sql.connector.write.WriteBuilder;

/**
 * The rows of a {@code REPLACE TABLE ... AS SELECT} (or {@code createOrReplace()}) on a staged output,
 * Spark 4.1: Spark writes them to the staged table as an overwrite of every row (it truncates the
 * builder itself; Iceberg's builder refuses a second overwrite), so the builder is left as it is.
 */
final class ReplaceWrites {

  private ReplaceWrites() {}

  /**
   * @param builder the staged table's write builder, for the statement's rows
   * @param table the table's name, for errors
   * @return {@code builder}: Spark truncates it
   */
  static WriteBuilder truncating(WriteBuilder builder, String table) {
    return builder;
  }
}
