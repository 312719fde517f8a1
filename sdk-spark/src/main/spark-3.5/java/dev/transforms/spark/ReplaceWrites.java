package dev.transforms.spark;

import dev.transforms.api.TransformsException;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.WriteBuilder;

/**
 * The rows of a {@code REPLACE TABLE ... AS SELECT} (or {@code createOrReplace()}) on a staged output,
 * Spark 3.5: Spark appends them to the staged table, so the writer truncates the staging branch first.
 */
final class ReplaceWrites {

  private ReplaceWrites() {}

  /**
   * @param builder the staged table's write builder, for the statement's rows
   * @param table the table's name, for the error
   * @return a builder that replaces every row on the branch
   */
  static WriteBuilder truncating(WriteBuilder builder, String table) {
    if (!(builder instanceof SupportsTruncate truncating)) {
      throw new TransformsException("Table " + table + " cannot be overwritten on a branch");
    }
    return truncating.truncate();
  }
}
