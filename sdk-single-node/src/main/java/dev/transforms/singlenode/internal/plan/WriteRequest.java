package dev.transforms.singlenode.internal.plan;

/**
 * Rows a writer is given to write, as the {@link WritePlanner} sees them.
 *
 * @param rows the rows of the root; -1 for the batches of an Arrow reader, whose count is not known
 * @param partitioned whether the table is partitioned (its rows go to the files of their partitions)
 */
public record WriteRequest(int rows, boolean partitioned) {

  /**
   * Whether the rows are a whole Arrow reader's batches rather than one root.
   *
   * @return whether the request is a reader's
   */
  public boolean batches() {
    return rows < 0;
  }
}
