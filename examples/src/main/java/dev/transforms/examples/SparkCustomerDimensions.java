package dev.transforms.examples;

import dev.transforms.api.Incremental;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.spark.SparkApplyChanges;
import dev.transforms.spark.SparkTransformContext;
import dev.transforms.spark.TableTransformInput;
import dev.transforms.spark.TableTransformOutput;

/**
 * {@link CustomerDimensions} on Spark: the latest row of each customer (type 1) and every version of each
 * customer (type 2), incremental over the upserts and deletes of their source, with the same rows as
 * the single-node dimensions.
 */
public class SparkCustomerDimensions {

  /** The latest row of each customer, kept by Spark. */
  public static final String LATEST = "/Examples/cdc/customers-latest-spark";
  /** Every version of each customer, kept by Spark. */
  public static final String HISTORY = "/Examples/cdc/customers-history-spark";

  /**
   * Type 1.
   *
   * @param ctx the context
   * @param customers the source
   * @param latest the dimension
   */
  @Transform(description = "the latest row of each customer (SCD type 1, Spark)")
  @Incremental(changes = true)
  public void latestSpark(SparkTransformContext ctx, @TableInput(CustomerDimensions.CUSTOMERS) TableTransformInput customers,
      @TableOutput(LATEST) TableTransformOutput latest) {
    SparkApplyChanges.scd1("id").sequenceBy("updated_at").applyTo(ctx, customers, latest);
  }

  /**
   * Type 2.
   *
   * @param ctx the context
   * @param customers the source
   * @param history the dimension
   */
  @Transform(description = "every version of each customer (SCD type 2, Spark)")
  @Incremental(changes = true)
  public void historySpark(SparkTransformContext ctx, @TableInput(CustomerDimensions.CUSTOMERS) TableTransformInput customers,
      @TableOutput(HISTORY) TableTransformOutput history) {
    SparkApplyChanges.scd2("id").sequenceBy("updated_at").applyTo(ctx, customers, history);
  }
}
