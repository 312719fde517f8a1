package dev.transforms.history;

import dev.transforms.api.Incremental;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.spark.IncrementalTransformInput;
import dev.transforms.spark.SparkApplyChanges;
import dev.transforms.spark.SparkTransformContext;
import dev.transforms.spark.TableTransformInput;
import dev.transforms.spark.TableTransformOutput;

/**
 * The incremental variants of {@link Downstream} on Spark: added rows, raw changes and both slowly changing
 * dimensions. Their full twins are the single-node ones, which must give the same rows.
 */
public class SparkDownstream {

  /** {@code spark-added}: the added rows of every build. */
  public static final String ADDED = "/History/spark-added";
  /** {@code spark-changes}: the changes every build read, raw. */
  public static final String CHANGES = "/History/spark-changes";
  /** {@code spark-scd1}: the latest row of each id. */
  public static final String SCD1 = "/History/spark-scd1";
  /** {@code spark-scd2}: every version of each id. */
  public static final String SCD2 = "/History/spark-scd2";

  /**
   * Added rows: appended on an incremental build, every row on a full one.
   *
   * @param in the input
   * @param out the output
   */
  @Transform(name = "spark-added")
  @Incremental
  public void added(@TableInput(Downstream.INPUT) IncrementalTransformInput in,
      @TableOutput(value = ADDED, onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS) TableTransformOutput out) {
    out.writeDataFrame(in.dataframe());
  }

  /**
   * The changes each build read.
   *
   * @param in the input
   * @param out the output
   */
  @Transform(name = "spark-changes")
  @Incremental(changes = true)
  public void changes(@TableInput(Downstream.INPUT) TableTransformInput in,
      @TableOutput(value = CHANGES, onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS) TableTransformOutput out) {
    out.writeDataFrame(in.changes());
  }

  /**
   * Slowly changing dimension type 1.
   *
   * @param ctx the context
   * @param in the input
   * @param out the output
   */
  @Transform(name = "spark-scd1")
  @Incremental(changes = true)
  public void scd1(SparkTransformContext ctx, @TableInput(Downstream.INPUT) TableTransformInput in,
      @TableOutput(value = SCD1, onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS) TableTransformOutput out) {
    SparkApplyChanges.scd1("id").sequenceBy("seq").applyTo(ctx, in, out);
  }

  /**
   * Slowly changing dimension type 2.
   *
   * @param ctx the context
   * @param in the input
   * @param out the output
   */
  @Transform(name = "spark-scd2")
  @Incremental(changes = true)
  public void scd2(SparkTransformContext ctx, @TableInput(Downstream.INPUT) TableTransformInput in,
      @TableOutput(value = SCD2, onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS) TableTransformOutput out) {
    SparkApplyChanges.scd2("id").sequenceBy("seq").applyTo(ctx, in, out);
  }
}
