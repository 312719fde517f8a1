package dev.transforms.examples;

import dev.transforms.api.Incremental;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import dev.transforms.singlenode.edits.ApplyChanges;

/**
 * A customers table that is upserted and deleted from every day, kept as two dimensions on a single
 * node: the latest row of each customer (slowly changing dimension type 1) and every version of each
 * customer with the time it was valid (type 2). Both read only what changed in the input since their
 * last build, edits included ({@code @Incremental(changes = true)}), and edit only the customers those
 * changes touch.
 */
public class CustomerDimensions {

  /** The source: one row per customer, edited in place (merge-on-read or copy-on-write). */
  public static final String CUSTOMERS = "/Examples/cdc/customers";
  /** The latest row of each customer. */
  public static final String LATEST = "/Examples/cdc/customers-latest";
  /** Every version of each customer, with {@code valid_from}, {@code valid_to} and {@code is_current}. */
  public static final String HISTORY = "/Examples/cdc/customers-history";

  /**
   * Type 1: upserts and deletes each customer the input's changes touch.
   *
   * @param ctx the context
   * @param customers the source
   * @param latest the dimension
   */
  @Transform(description = "the latest row of each customer (SCD type 1)")
  @Incremental(changes = true)
  public void latest(SingleNodeTransformContext ctx, @TableInput(CUSTOMERS) IcebergInput customers,
      @TableOutput(LATEST) IcebergOutput latest) {
    ApplyChanges.scd1("id").sequenceBy("updated_at").applyTo(ctx, latest, customers.changes());
  }

  /**
   * Type 2: closes the current version of each customer an update or delete touches, and opens a new
   * one for each insert or update.
   *
   * @param ctx the context
   * @param customers the source
   * @param history the dimension
   */
  @Transform(description = "every version of each customer (SCD type 2)")
  @Incremental(changes = true)
  public void history(SingleNodeTransformContext ctx, @TableInput(CUSTOMERS) IcebergInput customers,
      @TableOutput(HISTORY) IcebergOutput history) {
    ApplyChanges.scd2("id").sequenceBy("updated_at").applyTo(ctx, history, customers.changes());
  }
}
