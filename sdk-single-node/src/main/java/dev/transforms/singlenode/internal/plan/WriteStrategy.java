package dev.transforms.singlenode.internal.plan;

/**
 * The ways {@code writeTable} (an {@code ArrowTableWriter}) writes Arrow rows into new data files, in the
 * order {@link WritePlanner} asks them. Every one writes the table's schema, partitioning and column
 * metrics; they differ only in speed.
 *
 * <table>
 *   <caption>The write strategies</caption>
 *   <tr><th>strategy</th><th>when</th><th>why</th></tr>
 *   <tr><td>{@link #DUCKDB}</td><td>DuckDB and Arrow's C data interface on the class path, an unpartitioned
 *       local table written as Parquet, column types DuckDB writes as Iceberg specifies; a root of 100,000
 *       rows or more and at most twice the target file size in Arrow, or a whole {@code ArrowReader}</td>
 *       <td>2-3 times faster on 1M rows</td></tr>
 *   <tr><td>{@link #ENGINE_TWO_LANES}</td><td>a root of 400,000 rows or more into an unpartitioned table
 *       </td><td>two threads each encode half of the rows into a file of their own</td></tr>
 *   <tr><td>{@link #ENGINE}</td><td>always: partitioned tables, smaller roots</td><td>the reference:
 *       Iceberg's Java writer, row by row</td></tr>
 * </table>
 */
public enum WriteStrategy {
  /** DuckDB's Parquet writer over the Arrow data ({@code internal.duckdb.DuckDbParquetWriter}). */
  DUCKDB("DuckDB"),
  /** Iceberg's Java writer on two threads, half of the rows each ({@code arrow.TwoLaneWrite}). */
  ENGINE_TWO_LANES("engine, two lanes"),
  /** Iceberg's Java writer, row by row ({@code arrow.RowByRowWrite}). */
  ENGINE("engine");

  private final String label;

  WriteStrategy(String label) {
    this.label = label;
  }

  /**
   * The name logs and reasons use.
   *
   * @return the label, such as {@code "DuckDB"}
   */
  public String label() {
    return label;
  }
}
