package dev.transforms.singlenode.internal.plan;

/**
 * The ways a snapshot is read into one Arrow root, in the order {@link ReadPlanner} asks them. The
 * native one gives the root the engine's reader gives (types, field ids, values, rows in file order); it
 * is only faster.
 *
 * <table>
 *   <caption>The read strategies</caption>
 *   <tr><th>strategy</th><th>when</th><th>why</th></tr>
 *   <tr><td>{@link #PAGE_DECODER}</td><td>no row filter; Parquet files without equality deletes, on local disk or anywhere the
 *       table's {@code FileIO} reads (fetched in ranges ahead of decoding)
 *       (position deletes and deletion vectors are applied after decoding); flat columns of primitive
 *       types that every file holds as the table's type, found by field id (renames keep it); pages it
 *       decodes (plain and dictionary encodings, format 1 or 2, zstd, snappy, gzip or none)</td>
 *       <td>decodes every column in units of pages on two threads, so a file of one row group is not read
 *       at the pace of its heaviest column; pure Java</td></tr>
 *   <tr><td>{@link #ENGINE}</td><td>always: row filters, equality deletes, remote files, nested columns,
 *       any type or encoding</td><td>the reference: applies every delete and filter, reads any file
 *       system</td></tr>
 * </table>
 */
public enum ReadStrategy {
  /** The engine's Parquet page decoder ({@code internal.read.PageDecoderRead}, over {@code PagedColumnsRead}). */
  PAGE_DECODER("page decoder"),
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
