package dev.transforms.singlenode.internal.duckdb;

import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/** An {@link ArrowReader} of the rows of one root, as a single batch (none when the root is empty). */
public final class OneBatchReader extends ArrowReader {

  private final VectorSchemaRoot rows;
  private boolean done;

  /**
   * Creates the reader; it takes ownership of the root.
   *
   * @param allocator where the reader's root is allocated
   * @param rows the rows, closed with the reader
   */
  public OneBatchReader(BufferAllocator allocator, VectorSchemaRoot rows) {
    super(allocator);
    this.rows = rows;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    VectorSchemaRoot root = getVectorSchemaRoot();
    if (done || rows.getRowCount() == 0) {
      root.setRowCount(0);
      return false;
    }
    done = true;
    try (ArrowRecordBatch batch = new VectorUnloader(rows).getRecordBatch()) {
      new VectorLoader(root).load(batch);
    }
    return true;
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {
    rows.close();
  }

  @Override
  protected Schema readSchema() {
    return rows.getSchema();
  }
}
