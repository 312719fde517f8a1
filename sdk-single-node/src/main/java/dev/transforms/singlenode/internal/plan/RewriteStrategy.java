package dev.transforms.singlenode.internal.plan;

/**
 * The ways a copy-on-write rewrites one data file (its rows minus some), in the order
 * {@link RewritePlanner} asks them; each is a class implementing {@link FileRewrite}. Every one writes the
 * kept rows in their order, with the table's
 * field ids and the metrics Iceberg's writer records, wherever the table's {@code FileIO} keeps its
 * files; they differ only in speed (and the page copy keeps the copied file's codec).
 *
 * <table>
 *   <caption>The rewrite strategies</caption>
 *   <tr><th>strategy</th><th>when</th><th>why</th></tr>
 *   <tr><td>{@link #PAGE_COPY}</td><td>a file of 400,000 rows or more whose change finds its dropped rows
 *       by a few columns; flat columns, pages of version 1 in zstd, snappy, gzip or none, whoever wrote
 *       them (page index or not), on local disk or object storage</td><td>copies the pages that hold no dropped row as they are and re-encodes the
 *       others in their own encoding: pure Java, faster than decoding and encoding the file even where
 *       every page is touched</td></tr>
 *   <tr><td>{@link #ENGINE_TWO_LANES}</td><td>as page copy, where it does not apply: another codec (lz4,
 *       brotli), nested columns, pages of version 2 or other encodings</td><td>two threads each encode half of the
 *       kept rows</td></tr>
 *   <tr><td>{@link #ENGINE}</td><td>always: small files, changes that decide on whole rows, row
 *       lineage, equality deletes</td><td>the reference: one pass over whole rows</td></tr>
 * </table>
 */
public enum RewriteStrategy {
  /** Copies the pages that hold no dropped row ({@code internal.parquet.PageCopyStrategy}). */
  PAGE_COPY("page copy"),
  /** The engine's writer in two lanes, after a probe found the dropped rows ({@code edits.TwoLaneRewrite}). */
  ENGINE_TWO_LANES("engine, two lanes"),
  /** The engine's writer, one pass over whole rows ({@code edits.OnePassRewrite}). */
  ENGINE("engine");

  private final String label;

  RewriteStrategy(String label) {
    this.label = label;
  }

  /**
   * The name logs and reasons use.
   *
   * @return the label, such as {@code "page copy"}
   */
  public String label() {
    return label;
  }
}
