package dev.transforms.singlenode.internal.plan;

/**
 * How rows are written: the strategy chosen and why. A plan writes nothing; the writer runs it. The
 * reason is made only when asked (a writer plans every root it is given).
 *
 * @param write the strategy chosen
 * @param request the rows, as the planner saw them
 * @param notDuckDb why DuckDB does not write them; null when it does
 * @param <W> the rows and the files they go to
 */
public record WritePlan<W>(RootWrite<? super W> write, WriteRequest request, String notDuckDb) {

  /**
   * The strategy chosen.
   *
   * @return the strategy
   */
  public WriteStrategy strategy() {
    return write.strategy();
  }

  /**
   * Why, for logs and tests: {@code "engine, two lanes: 500,000 rows; DuckDB: turned off"}.
   *
   * @return the reason
   */
  public String reason() {
    String rows = request.batches() ? "an Arrow reader's batches" : String.format("%,d rows", request.rows());
    if (WritePlanner.PARTITIONED.equals(notDuckDb)) {
      return strategy().label() + ": " + notDuckDb;
    }
    return strategy().label() + ": " + rows + (notDuckDb == null ? "" : "; DuckDB: " + notDuckDb)
        + (request.batches() && notDuckDb != null ? ", each batch written as a root" : "");
  }
}
