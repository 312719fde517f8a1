package dev.transforms.singlenode.internal.plan;

/**
 * The ways a snapshot is read into one Arrow root, in the order {@link ReadPlanner} asks them. Each
 * native one gives the root the engine's reader gives (types, field ids, values, rows in file order);
 * it is only faster.
 *
 * <table>
 *   <caption>The read strategies</caption>
 *   <tr><th>strategy</th><th>when</th><th>why</th></tr>
 *   <tr><td>{@link #PAGE_DECODER}</td><td>200,000 rows or more, two cores; columns it does not decode go to
 *       Arrow C++ when loaded</td><td>decodes each column in units of pages on two threads, so a file of
 *       one row group is not read at the pace of its heaviest column</td></tr>
 *   <tr><td>{@link #ARROW_CPP}</td><td>Arrow C++ loaded, no column read ever renamed</td><td>PyIceberg's own
 *       reader, about twice as fast as DuckDB at handing over Arrow</td></tr>
 *   <tr><td>{@link #DUCKDB}</td><td>DuckDB on the class path, types it exports as the engine's</td><td>native
 *       decoding, columns found by field id</td></tr>
 *   <tr><td>{@link #ENGINE}</td><td>always: row filters, delete files, remote files, any type</td><td>the
 *       reference: applies deletes and filters, reads any file system</td></tr>
 * </table>
 */
public enum ReadStrategy {
  /** The engine's Parquet page decoder ({@code internal.parquet.PagedColumnsRead}). */
  PAGE_DECODER("page decoder"),
  /** Arrow C++'s Parquet reader ({@code internal.arrowcpp.ArrowDatasetRead}). */
  ARROW_CPP("Arrow C++"),
  /** DuckDB's Parquet reader ({@code internal.duckdb.DuckDbArrowRead}). */
  DUCKDB("DuckDB"),
  /** The engine's own reader ({@code arrow.ArrowTableReader} over {@code internal.read.LiveRows}). */
  ENGINE("engine");

  private final String label;

  ReadStrategy(String label) {
    this.label = label;
  }

  /**
   * The name logs and reasons use.
   *
   * @return the label, such as {@code "page decoder"}
   */
  public String label() {
    return label;
  }
}
