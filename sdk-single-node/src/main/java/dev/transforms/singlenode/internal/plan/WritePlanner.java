package dev.transforms.singlenode.internal.plan;

import java.util.List;

/**
 * Chooses how {@code writeTable} writes Arrow rows: the one place that knows when each {@link WriteStrategy
 * write strategy} applies. The writer offers the strategy objects ({@link RootWrite}); a plan ({@link
 * WritePlan}) names the one chosen and why, and writes nothing.
 *
 * <table>
 *   <caption>What the planner chooses</caption>
 *   <tr><th>rows</th><th>strategy</th><th>otherwise</th></tr>
 *   <tr><td>a whole Arrow reader, unpartitioned table</td><td>DuckDB, if it takes them</td><td>each batch
 *       planned as a root</td></tr>
 *   <tr><td>a root of {@link #DUCKDB_MIN_ROWS} rows or more, unpartitioned table</td><td>DuckDB, if it takes
 *       it</td><td>as below</td></tr>
 *   <tr><td>a root of {@link #TWO_LANE_MIN_ROWS} rows or more, unpartitioned table</td><td>engine, two
 *       lanes</td><td>as below</td></tr>
 *   <tr><td>anything else</td><td>engine, row by row</td><td>-</td></tr>
 * </table>
 *
 * <p>A planner is immutable: {@link #standard()} has the thresholds above; tests change them on a copy.
 */
public final class WritePlanner {

  /**
   * Roots with at least this many rows are written to unpartitioned tables by two threads into two files
   * (halves of at least 200,000 rows, so that tables are not split into small files).
   */
  public static final int TWO_LANE_MIN_ROWS = 400_000;

  /**
   * Roots with at least this many rows are written by DuckDB when it takes them; smaller ones go through
   * the Java writer, which gathers consecutive small roots into one file.
   */
  public static final int DUCKDB_MIN_ROWS = 100_000;

  /** Why rows are not DuckDB's: a partitioned table. */
  static final String PARTITIONED = "a partitioned table: rows go to the files of their partitions";

  /** Why rows are not DuckDB's: a root under the threshold. */
  static final String FEW_ROWS = "fewer rows than DuckDB writes";

  private static final WritePlanner STANDARD = new WritePlanner(DUCKDB_MIN_ROWS, TWO_LANE_MIN_ROWS);

  private final int duckDbMinRows;
  private final int twoLaneMinRows;

  private WritePlanner(int duckDbMinRows, int twoLaneMinRows) {
    this.duckDbMinRows = duckDbMinRows;
    this.twoLaneMinRows = twoLaneMinRows;
  }

  /**
   * The planner of every writer unless given other thresholds.
   *
   * @return the standard planner
   */
  public static WritePlanner standard() {
    return STANDARD;
  }

  /**
   * A copy with other thresholds, for tests.
   *
   * @param duckDbRows the rows from which a root is written by DuckDB
   * @param twoLaneRows the rows from which a root is written in two lanes ({@code Integer.MAX_VALUE}: never)
   * @return the copy
   */
  public WritePlanner withMinRows(int duckDbRows, int twoLaneRows) {
    return new WritePlanner(duckDbRows, twoLaneRows);
  }

  /**
   * The rows from which a root is written by DuckDB.
   *
   * @return the threshold
   */
  public int duckDbMinRows() {
    return duckDbMinRows;
  }

  /**
   * The rows from which a root is written in two lanes.
   *
   * @return the threshold
   */
  public int twoLaneMinRows() {
    return twoLaneMinRows;
  }

  /**
   * Plans the write of some rows.
   *
   * @param request the rows, as the planner sees them
   * @param work the rows and the files they go to, for the strategies to judge
   * @param strategies the strategies the writer offers, one of each kind
   * @param <W> the rows and the files they go to
   * @return the plan; for a reader's batches that DuckDB does not take, the engine's, meaning each batch is
   *     planned as a root
   */
  public <W> WritePlan<W> plan(WriteRequest request, W work, List<? extends RootWrite<? super W>> strategies) {
    if (request.partitioned()) {
      return new WritePlan<>(find(strategies, WriteStrategy.ENGINE), request, PARTITIONED);
    }
    String notDuckDb = request.batches() || request.rows() >= duckDbMinRows
        ? find(strategies, WriteStrategy.DUCKDB).declines(work).orElse(null)
        : FEW_ROWS;
    if (notDuckDb == null) {
      return new WritePlan<>(find(strategies, WriteStrategy.DUCKDB), request, null);
    } else if (!request.batches() && request.rows() >= twoLaneMinRows) {
      return new WritePlan<>(find(strategies, WriteStrategy.ENGINE_TWO_LANES), request, notDuckDb);
    }
    return new WritePlan<>(find(strategies, WriteStrategy.ENGINE), request, notDuckDb);
  }

  private static <W> RootWrite<? super W> find(List<? extends RootWrite<? super W>> strategies,
      WriteStrategy strategy) {
    for (RootWrite<? super W> write : strategies) {
      if (write.strategy() == strategy) {
        return write;
      }
    }
    throw new IllegalArgumentException("The writer offers no " + strategy.label() + " strategy");
  }
}
