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
 * <p>The input has a non-null {@code id}, a date {@code as_of} and a string {@code status}. MERGE takes
 * at most one source row per target row, so its source is the latest update of each {@code id}: the
 * row with the greatest {@code as_of} (then the greatest {@code status}), an undated row only when the
 * id has no dated one. Grouped by {@code id}, the source is one row per key in its plan too, so the
 * SDK's {@code merge-source-not-unique} advisory has nothing to say. The cut-off date and status values
 * are example business rules.
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
    // One row per id, its latest update: structs compare field by field, as_of first.
    String latest = "SELECT id, newest.as_of AS as_of, newest.status AS status"
        + " FROM (SELECT id, max(struct(as_of, status)) AS newest FROM " + updates.identifier() + " GROUP BY id)";
    spark.sql("MERGE INTO " + output.identifier() + " AS target"
        + " USING (" + latest + ") AS source"
        + " ON target.id = source.id"
        + " WHEN MATCHED THEN UPDATE SET *"
        + " WHEN NOT MATCHED THEN INSERT *");
    spark.sql("DELETE FROM " + output.identifier() + " WHERE as_of < DATE '2026-04-01'");
    spark.sql("UPDATE " + output.identifier() + " SET status = 'Archived' WHERE status = 'Stale'");
  }
}
