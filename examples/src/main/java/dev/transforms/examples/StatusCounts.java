package dev.transforms.examples;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;

/**
 * Counts the row updates of each status, with the last date each status was seen: an output whose
 * shape changed between two builds. Its first version wrote {@code status, people}; this one adds
 * {@code last_seen}. Nothing but the code changed: the next full build gives the output the new column
 * in the commit that publishes its rows, {@code status} and {@code people} keep their field ids, and the
 * table's earlier snapshots keep their own columns for time travel ({@code docs/changing-a-pipeline.md}).
 */
public class StatusCounts {

  /** The statuses by id, and the dates they were seen. */
  public static final String UPDATES = SparkRowEdits.UPDATES;
  /** One row per status. */
  public static final String COUNTS = "/Examples/iceberg/status-counts";

  /**
   * Writes one row per status.
   *
   * @param ctx the context, for the SQL session
   * @param rowUpdates the statuses by id (table {@code row_updates})
   * @param counts the output
   */
  @Transform(description = "a full build whose output gained a column (last_seen) since its first version")
  public void statusCounts(SingleNodeTransformContext ctx,
      @TableInput(UPDATES) IcebergInput rowUpdates,
      @TableOutput(COUNTS) IcebergOutput counts) {
    counts.writeTable(ctx.sql().query("""
        SELECT status, count(*)::BIGINT AS people, max(as_of) AS last_seen
        FROM row_updates
        GROUP BY status
        """));
  }
}
