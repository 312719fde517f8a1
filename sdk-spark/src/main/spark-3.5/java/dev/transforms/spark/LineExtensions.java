package dev.transforms.spark;

import org.apache.spark.sql.SparkSessionExtensions;

/**
 * What the SDK's session extensions add on the Spark 3.5 line: nothing. (The Spark 4.1 line adds a
 * planner strategy for a Spark 4.1 defect; see its {@code LineExtensions}.)
 */
final class LineExtensions {

  private LineExtensions() {}

  /** Adds this line's extensions: none. */
  static void apply(SparkSessionExtensions extensions) {}
}
