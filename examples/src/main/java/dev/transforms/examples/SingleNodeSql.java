package dev.transforms.examples;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;

/**
 * Joins two inputs and aggregates them with SQL on a single node (DuckDB, no Spark), into an output
 * partitioned by status: how many people have each status, the range of their dates, and their names.
 *
 * <p>Each input is a SQL table named after its parameter: {@code rowUpdates} is {@code row_updates},
 * {@code people} is {@code people}. Their live rows are read at the snapshot the build pinned.
 */
public class SingleNodeSql {

  /** The statuses by id, and the dates they were seen. */
  public static final String UPDATES = SparkRowEdits.UPDATES;
  /** The names by id. */
  public static final String PEOPLE = SnapshotComparison.SOURCE;
  /** One row per status, partitioned by status. */
  public static final String SUMMARY = "/Examples/iceberg/status-summary-sql";

  /**
   * Writes one row per status.
   *
   * @param ctx the context, for the SQL session
   * @param rowUpdates the statuses by id (table {@code row_updates})
   * @param people the names by id (table {@code people})
   * @param summary the output, partitioned by status
   */
  @Transform(description = "join and aggregate with SQL on a single node (DuckDB), into a partitioned output")
  public void statusSummary(SingleNodeTransformContext ctx,
      @TableInput(UPDATES) IcebergInput rowUpdates,
      @TableInput(PEOPLE) IcebergInput people,
      @TableOutput(SUMMARY) IcebergOutput summary) {
    summary.partitionedBy(spec -> spec.identity("status")).writeTable(ctx.sql().query("""
        SELECT u.status,
               count(*)::BIGINT                     AS people,
               min(u.as_of)                         AS first_seen,
               max(u.as_of)                         AS last_seen,
               string_agg(p.name, ',' ORDER BY p.name) AS names
        FROM row_updates u
        JOIN people p ON p.id = u.id
        GROUP BY u.status
        """));
  }
}
