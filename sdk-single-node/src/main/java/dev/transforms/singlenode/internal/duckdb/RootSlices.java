package dev.transforms.singlenode.internal.duckdb;

import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An {@link ArrowReader} of the rows of a root that stays the caller's, in batches of at most a given
 * number of rows. DuckDB scans each Arrow batch on one thread, so a large root handed over as one batch
 * would be written by one thread; slices let every thread take a share. Slices start at multiples of
 * the batch size (a multiple of 8, so validity bits need no shifting where Arrow can share buffers).
 * {@link #oneBatch} reads a root the reader owns as a single batch.
 */
public final class RootSlices extends ArrowReader {

  private final VectorSchemaRoot rows;
  private final int batchRows;
  private boolean owned;
  private int next;

  /**
   * Creates the reader.
   *
   * @param allocator where the reader's root is allocated
   * @param rows the rows, read while the reader is used, left open
   * @param batchRows the rows per batch, a positive multiple of 8
   */
  public RootSlices(BufferAllocator allocator, VectorSchemaRoot rows, int batchRows) {
    super(allocator);
    if (batchRows <= 0 || batchRows % 8 != 0) {
      throw new IllegalArgumentException("Rows per batch must be a positive multiple of 8: " + batchRows);
    }
    this.rows = rows;
    this.batchRows = batchRows;
  }

  /**
   * A reader of the rows of one root as a single batch (none when the root is empty); it takes
   * ownership of the root.
   *
   * @param allocator where the reader's root is allocated
   * @param rows the rows, closed with the reader
   */
  public static RootSlices oneBatch(BufferAllocator allocator, VectorSchemaRoot rows) {
    RootSlices reader = new RootSlices(allocator, rows, Integer.MAX_VALUE & ~7);
    reader.owned = true;
    return reader;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    VectorSchemaRoot root = getVectorSchemaRoot();
    int total = rows.getRowCount();
    if (next >= total) {
      root.setRowCount(0);
      return false;
    }
    int length = Math.min(batchRows, total - next);
    VectorSchemaRoot source = next == 0 && length == total ? rows : rows.slice(next, length);
    try (ArrowRecordBatch batch = new VectorUnloader(source).getRecordBatch()) {
      new VectorLoader(root).load(batch);
    } finally {
      if (source != rows) {
        source.close();
      }
    }
    next += length;
    return true;
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {
    if (owned) {
      rows.close(); // otherwise the rows belong to the caller
    }
  }

  @Override
  protected Schema readSchema() {
    return rows.getSchema();
  }
}
