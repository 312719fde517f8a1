package dev.transforms.singlenode.arrow;

import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.iceberg.Schema;

/**
 * Streams the rows of an Iceberg table scan as Arrow batches; made by {@link
 * ArrowTableReader#openBatches}.
 *
 * <p>This is an ordinary Arrow {@link ArrowReader}: {@link #getVectorSchemaRoot()} returns the one
 * root that every call to {@link #loadNextBatch()} refills with up to the configured number of
 * rows, and that call returns {@code false} (leaving the root empty) once every row has been read.
 * It can therefore be handed to any code that consumes an {@code ArrowReader}, such as an Arrow IPC
 * writer or the Arrow C data interface.
 *
 * <p>Memory: the reader allocates its root from the allocator given at creation and owns it. The
 * caller must not close the root, must copy (or transfer) whatever it wants to keep before the next
 * {@code loadNextBatch()}, and must close the reader, which frees the root and closes any open data
 * file. Each batch is written to new buffers: a consumer that retained the buffers of the previous
 * batch (as the Arrow C data interface does for the batches it exports) still sees its values.
 */
public final class ArrowBatchReader extends ArrowReader {
  private final org.apache.arrow.vector.types.pojo.Schema arrowSchema;
  private final Schema projected;
  private final ScanRecords records;
  private final int batchSize;
  private ArrowValueWriters.RowWriter writer;
  private long rowsRead;

  ArrowBatchReader(
      BufferAllocator allocator,
      org.apache.arrow.vector.types.pojo.Schema arrowSchema,
      Schema projected,
      ScanRecords records,
      int batchSize) {
    super(allocator);
    this.arrowSchema = arrowSchema;
    this.projected = projected;
    this.records = records;
    this.batchSize = batchSize;
  }

  /**
   * Refills the root with the next rows.
   *
   * @return {@code true} if the root now holds at least one row; {@code false} once every row has
   *     been read
   * @throws IOException if the reader cannot be initialized or a file cannot be closed
   * @throws java.io.UncheckedIOException if a data or delete file cannot be read
   */
  @Override
  public boolean loadNextBatch() throws IOException {
    VectorSchemaRoot root = getVectorSchemaRoot();
    if (writer == null) {
      ArrowTableReader.allocate(root, (int) Math.max(1, Math.min(batchSize, records.maxRowCount())));
      this.writer =
          new ArrowValueWriters.RowWriter(
              root, projected.asStruct(), records.projection().asStruct());
    } else {
      // Fresh buffers for every batch rather than overwriting the last batch's: a consumer that still
      // holds the previous batch (DuckDB, through the Arrow C data interface, keeps it while it asks
      // for the next) keeps its data, released when the consumer lets go of it.
      // Variable-width columns start at the size the last batch reached, not growing again by doubling.
      int rows = (int) Math.max(1, Math.min(batchSize, records.maxRowCount()));
      for (FieldVector vector : root.getFieldVectors()) {
        long dataBytes = vector instanceof BaseVariableWidthVector text ? text.getDataBuffer().capacity() : 0;
        vector.clear();
        vector.setInitialCapacity(rows);
        if (dataBytes > 0) {
          ((BaseVariableWidthVector) vector).allocateNew(dataBytes, rows);
        } else {
          vector.allocateNew();
        }
      }
    }
    int rowCount = 0;
    while (rowCount < batchSize && records.hasNext()) {
      writer.write(rowCount, records.next());
      rowCount += 1;
    }
    root.setRowCount(rowCount);
    rowsRead += rowCount;
    return rowCount > 0;
  }

  /**
   * Returns the total size of the data files opened so far, in bytes (Arrow's notion of bytes read
   * is approximated by the files' sizes, deletes not counted).
   *
   * @return bytes of data files opened
   */
  @Override
  public long bytesRead() {
    return records.bytesOpened();
  }

  /**
   * Returns the number of rows loaded by all calls to {@link #loadNextBatch()} so far.
   *
   * @return rows read
   */
  public long rowsRead() {
    return rowsRead;
  }

  @Override
  protected void closeReadSource() throws IOException {
    records.close();
  }

  @Override
  protected org.apache.arrow.vector.types.pojo.Schema readSchema() {
    return arrowSchema;
  }
}
