package dev.transforms.runtime.spi;

import dev.transforms.runtime.Advisory;
import dev.transforms.runtime.DatasetPath;
import java.util.Optional;

/**
 * The rules an engine can find a transform breaking, each with its stable identifier, the reason it
 * is a risk and the fix. The wording is the SDK's own; {@code docs/best-practices.md} lists each rule
 * beside the part of the review guide it enforces.
 */
public enum AdvisoryRule {

  /** Many projections stacked on one another, the mark of {@code withColumn} called in a loop. */
  WITHCOLUMN_LOOP("withcolumn-loop",
      "Every withColumn call stacks one more projection on the plan; dozens of them make analysis and "
          + "optimization slow and can overflow the stack.",
      "Build the columns in one select(...) or one withColumns(Map) call."),

  /** A join without any join condition between two sides that may hold more than one row. */
  CARTESIAN_PRODUCT("cartesian-product",
      "A join without a condition pairs every row of one side with every row of the other: the output "
          + "grows as the product of both sizes.",
      "Add the join condition; if the cross product is intended, use crossJoin on a side known to be "
          + "small, or set advisories = OFF on the transform."),

  /** {@code =} between two nullable key columns of the same name on both sides of a join. */
  NULL_UNSAFE_JOIN("null-unsafe-join",
      "With = a null key never matches, not even another null, so rows whose keys are null drop out of "
          + "the join without any error.",
      "Compare the keys with eqNullSafe (<=> in SQL) if null should match null, or filter the null keys "
          + "out explicitly if dropping them is intended."),

  /** A DataFrameWriter v1 {@code format("iceberg").save(...)} write into an Iceberg table. */
  V1_WRITE("v1-write",
      "The v1 writer's save() resolves its own table reference, which queries already running in the "
          + "session do not see refreshed.",
      "Write with the output handle's writeDataFrame, or df.writeTo(identifier).append() / "
          + "overwritePartitions()."),

  /** An overwrite of every row of a partitioned table issued in static partition-overwrite mode. */
  STATIC_OVERWRITE("static-overwrite",
      "In static overwrite mode an INSERT OVERWRITE without a PARTITION clause deletes every row of the "
          + "table, not only the partitions the new rows fall in.",
      "Leave spark.sql.sources.partitionOverwriteMode at dynamic (the SDK's default), use "
          + "writeTo(...).overwritePartitions() or MERGE INTO; to replace the whole table on purpose, "
          + "say so with .option(\"overwrite-mode\", \"static\")."),

  /** A CSV or JSON read whose schema Spark inferred by reading the files. */
  INFERRED_SCHEMA("inferred-schema",
      "Inferring a schema reads the files once more before the real read, and the types follow "
          + "whatever the files (or the sample) happened to hold.",
      "Pass the schema to the reader: spark.read().schema(structType) or a DDL string."),

  /** An action that brought many rows into the driver's memory. */
  DRIVER_COLLECT("driver-collect",
      "collect(), collectAsList(), toLocalIterator() and take() bring rows into the driver's memory; "
          + "large results make the driver run out of memory.",
      "Keep the rows distributed: write them to an output, or aggregate them before collecting."),

  /** A MERGE whose source is not known to hold one row per join key. */
  MERGE_SOURCE_NOT_UNIQUE("merge-source-not-unique",
      "MERGE fails when two source rows match one target row, and the source's plan does not show that "
          + "its join keys are unique.",
      "Deduplicate the source on the join keys first (GROUP BY the keys, dropDuplicates(keys), or a "
          + "window keeping one row per key)."),

  /** A write whose new data files are far below the table's target file size. */
  SMALL_FILES("small-files",
      "Many files far below write.target-file-size-bytes slow every later read and planning, and "
          + "need compaction.",
      "Write fewer, larger files: fewer partitions before the write (coalesce or the write distribution), "
          + "or partition the table more coarsely; compact with transforms maintain."),

  /** A single-node transform that read a large input whole into memory. */
  WHOLE_INPUT_IN_MEMORY("whole-input-in-memory",
      "arrow() and addedRows() hold every row of the input in memory at once, which fails or swaps when "
          + "the input outgrows the heap.",
      "Stream the input in batches with arrowReader(), or read only the columns and rows needed with "
          + "scan(filter, snapshot, columns).");

  private final String id;
  private final String reason;
  private final String fix;

  AdvisoryRule(String id, String reason, String fix) {
    this.id = id;
    this.reason = reason;
    this.fix = fix;
  }

  /**
   * The stable identifier.
   *
   * @return the identifier, such as {@code withcolumn-loop}
   */
  public String id() {
    return id;
  }

  /**
   * Why the pattern is a risk.
   *
   * @return the reason
   */
  public String reason() {
    return reason;
  }

  /**
   * What to do instead.
   *
   * @return the fix
   */
  public String fix() {
    return fix;
  }

  /**
   * An advisory of this rule.
   *
   * @param transform the transform that earned it
   * @param detail what was seen
   * @param dataset the dataset concerned, if known
   * @return the advisory
   */
  public Advisory advise(String transform, String detail, Optional<DatasetPath> dataset) {
    return new Advisory(transform, id, reason, fix, detail, dataset);
  }
}
