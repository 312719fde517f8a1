package dev.transforms.examples;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.spark.SparkTransformContext;
import dev.transforms.spark.TableTransformInput;
import dev.transforms.spark.TableTransformOutput;
import org.apache.spark.sql.SparkSession;

/**
 * Uses an input's Iceberg history: the {@code create_changelog_view} procedure turns its snapshots into
 * row changes (inserts, deletes, and updates as before/after pairs, matched on {@code id}), and the
 * {@code snapshots} metadata table lists each commit.
 *
 * <p>Both work through {@code identifier()}: the procedure takes it as a string literal
 * ({@code identifierLiteral()}), the metadata table is the identifier followed by {@code .snapshots}.
 */
public class ChangelogAndMetadata {

  /** The input whose history is read. */
  public static final String UPDATES = SparkRowEdits.UPDATES;
  /** Every row change of the input, one row per change. */
  public static final String CHANGES = "/Examples/iceberg/row-updates-changelog";
  /** One row per snapshot of the input. */
  public static final String SNAPSHOTS = "/Examples/iceberg/row-updates-snapshots";

  /**
   * Writes the input's changelog and its snapshot list.
   *
   * @param ctx the Spark context
   * @param updates the input
   * @param changes the changelog output
   * @param snapshots the snapshot list output
   */
  @Transform(description = "create_changelog_view and the snapshots metadata table of an input")
  public void changelogAndMetadata(SparkTransformContext ctx,
      @TableInput(UPDATES) TableTransformInput updates,
      @TableOutput(CHANGES) TableTransformOutput changes,
      @TableOutput(SNAPSHOTS) TableTransformOutput snapshots) {
    SparkSession spark = ctx.sparkSession();
    String view = "row_updates_changes";
    spark.sql("CALL " + updates.catalog() + ".system.create_changelog_view("
        + "table => " + updates.identifierLiteral() + ", "
        + "changelog_view => '" + view + "', "
        + "identifier_columns => array('id'))");
    changes.writeDataFrame(spark.sql("SELECT id, as_of, status, _change_type AS change_type,"
        + " _change_ordinal AS change_ordinal FROM " + view));
    snapshots.writeDataFrame(spark.sql("SELECT snapshot_id, parent_id, operation,"
        + " CAST(summary['added-records'] AS BIGINT) AS added_records,"
        + " CAST(summary['deleted-records'] AS BIGINT) AS deleted_records"
        + " FROM " + updates.identifier() + ".snapshots"));
  }
}
