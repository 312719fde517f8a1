package dev.transforms.examples;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.spark.SparkTransformContext;
import dev.transforms.spark.TableTransformInput;
import dev.transforms.spark.TableTransformOutput;
import org.apache.spark.sql.SparkSession;

/**
 * Edits rows in place with Iceberg Spark SQL, without rewriting the whole table: the first build seeds
 * the output from the input; later builds upsert the input into it by {@code id} with MERGE INTO,
 * delete rows dated before April 2026, and archive stale rows.
 *
 * <p>The input has a unique, non-null {@code id}, a date {@code as_of} and a string {@code status}.
 * MERGE needs at most one source row per target row: a duplicate {@code id} in the input fails the
 * build, naming the output and the condition, and leaves the output untouched. The cut-off date and
 * status values are example business rules.
 */
public class SparkRowEdits {

  /** The input of row updates. */
  public static final String UPDATES = "/Examples/iceberg/row-updates";
  /** The edited output. */
  public static final String EDITED = "/Examples/iceberg/edited-spark";

  /**
   * Seeds, then merges, deletes and updates.
   *
   * @param ctx the Spark context
   * @param updates the row updates
   * @param output the edited table
   */
  @Transform(description = "MERGE, DELETE and UPDATE in place with Iceberg Spark SQL")
  public void editRowsSpark(SparkTransformContext ctx,
      @TableInput(UPDATES) TableTransformInput updates,
      @TableOutput(EDITED) TableTransformOutput output) {
    SparkSession spark = ctx.sparkSession();
    if (!spark.catalog().tableExists(output.identifier())) {
      output.writeDataFrame(updates.dataframe());
      return;
    }
    spark.sql("MERGE INTO " + output.identifier() + " AS target"
        + " USING " + updates.identifier() + " AS source"
        + " ON target.id = source.id"
        + " WHEN MATCHED THEN UPDATE SET *"
        + " WHEN NOT MATCHED THEN INSERT *");
    spark.sql("DELETE FROM " + output.identifier() + " WHERE as_of < DATE '2026-04-01'");
    spark.sql("UPDATE " + output.identifier() + " SET status = 'Archived' WHERE status = 'Stale'");
  }
}
