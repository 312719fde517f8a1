package dev.transforms.singlenode.internal.load;

import java.io.Closeable;
import java.io.IOException;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Rows of one file, read batch by batch into Arrow roots that the source owns. */
interface RowSource extends Closeable {

  /**
   * Reads the next rows that fit the columns; the others are recorded as bad rows.
   *
   * @return a root holding the rows (possibly none, when every row of the batch was bad), valid until
   *     the next call; null when the file has no more rows
   * @throws IOException if the file cannot be read
   */
  VectorSchemaRoot next() throws IOException;

  /** Rows read so far, good and bad. */
  long rows();

  /** Bytes of the file read so far. */
  long bytesRead();
}
