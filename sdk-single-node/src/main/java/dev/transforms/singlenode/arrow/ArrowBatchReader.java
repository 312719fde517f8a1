package dev.transforms.singlenode.arrow;

import dev.transforms.singlenode.internal.plan.ReadChain;
import dev.transforms.singlenode.internal.plan.ReadPlanner;
import dev.transforms.singlenode.internal.read.PageDecoderRead;
import dev.transforms.singlenode.internal.threads.BackgroundThreads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

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
 * <p>Where the read planner gives a scan to the page decoder (no row filter, Parquet files), the files
 * are decoded one by one, each into a root of its live rows that the batches are cut from, while the
 * next file is decoded on a background thread (its bytes fetched ahead on object storage): the rows of
 * two files are in memory at most, whatever the table's size. A file the decoder gives up on is read
 * by the engine's row reader, as every file of any other scan is, one batch at a time.
 *
 * <p>Memory: the reader allocates its root from the allocator given at creation and owns it. The
 * caller must not close the root, must copy (or transfer) whatever it wants to keep before the next
 * {@code loadNextBatch()}, and must close the reader, which frees the root and closes any open data
 * file. Each batch is in buffers of its own: a consumer that retained the buffers of the previous
 * batch (as the Arrow C data interface does for the batches it exports) still sees its values.
 */
public final class ArrowBatchReader extends ArrowReader {
  private final org.apache.arrow.vector.types.pojo.Schema arrowSchema;
  private final Schema projected;
  private final ScanRecords records;
  private final int batchSize;
  private final boolean decodeFiles;
  private final ReadPlanner planner; // the planner of each file's decoding, when files are decoded
  private ArrowValueWriters.RowWriter writer;
  private long rowsRead;

  // files decoded whole: the next file's index, the file served now and where its next batch starts
  private int nextFile;
  private VectorSchemaRoot decoded;
  private int decodedAt;
  private Future<VectorSchemaRoot> ahead; // the file after it, decoding on a background thread

  ArrowBatchReader(
      BufferAllocator allocator,
      org.apache.arrow.vector.types.pojo.Schema arrowSchema,
      Schema projected,
      ScanRecords records,
      int batchSize,
      ReadPlanner decoding) {
    super(allocator);
    this.arrowSchema = arrowSchema;
    this.projected = projected;
    this.records = records;
    this.batchSize = batchSize;
    this.decodeFiles = decoding != null;
    this.planner = decoding;
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
    int rowCount = decodeFiles ? nextDecodedBatch() : nextRecordBatch();
    rowsRead += rowCount;
    return rowCount > 0;
  }

  /** Cuts the next batch from the file decoded now, decoding the next file when it is used up. */
  private int nextDecodedBatch() throws IOException {
    VectorSchemaRoot root = getVectorSchemaRoot();
    while (decoded == null || decodedAt == decoded.getRowCount()) {
      closeDecoded();
      decoded = nextFile();
      decodedAt = 0;
      if (decoded == null) {
        root.getFieldVectors().forEach(FieldVector::clear);
        root.setRowCount(0);
        return 0;
      }
    }
    int rows = Math.min(batchSize, decoded.getRowCount() - decodedAt);
    List<FieldVector> from = decoded.getFieldVectors();
    List<FieldVector> to = root.getFieldVectors();
    for (int c = 0; c < to.size(); c++) {
      BatchSlice.cut(from.get(c), to.get(c), decodedAt, rows);
    }
    root.setRowCount(rows);
    decodedAt += rows;
    return rows;
  }

  /**
   * The next file's live rows; null after the last. The file after it is decoding meanwhile: on the
   * first call, both start at once, so that two files keep both cores busy from the start.
   */
  private VectorSchemaRoot nextFile() {
    List<FileScanTask> tasks = records.tasks();
    if (ahead == null && nextFile < tasks.size()) {
      FileScanTask first = tasks.get(nextFile++);
      ahead = BackgroundThreads.call(() -> readFile(first));
    }
    if (ahead == null) {
      return null;
    }
    Future<VectorSchemaRoot> waiting = ahead;
    ahead = null;
    if (nextFile < tasks.size()) {
      FileScanTask after = tasks.get(nextFile++);
      ahead = BackgroundThreads.call(() -> readFile(after));
    }
    return BackgroundThreads.await(waiting);
  }

  /** One file's live rows: decoded, or read row by row where the decoder gives up on it. */
  private VectorSchemaRoot readFile(FileScanTask task) {
    Optional<VectorSchemaRoot> root = ReadChain.run(planner, planner.planTask(records.table(), task, projected,
        PageDecoderRead.INSTANCE), task.file().location(), allocator);
    if (root.isPresent()) {
      return root.get();
    }
    VectorSchemaRoot rows = VectorSchemaRoot.create(arrowSchema, allocator);
    try (CloseableIterable<Record> live = records.recordsOf(task)) {
      ArrowTableReader.allocate(rows, (int) Math.max(1, Math.min(task.file().recordCount(), Integer.MAX_VALUE - 1)));
      ArrowValueWriters.RowWriter rowWriter =
          new ArrowValueWriters.RowWriter(rows, projected.asStruct(), records.projection().asStruct());
      int count = 0;
      for (Record record : live) {
        rowWriter.write(count++, record);
      }
      rows.setRowCount(count);
      return rows;
    } catch (IOException e) {
      rows.close();
      throw new UncheckedIOException("Cannot read " + task.file().location(), e);
    } catch (RuntimeException | Error e) {
      rows.close();
      throw e;
    }
  }

  private void closeDecoded() {
    if (decoded != null) {
      decoded.close();
      decoded = null;
    }
  }

  /** Writes the next records of the scan into the root, one by one. */
  private int nextRecordBatch() throws IOException {
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
    return rowCount;
  }

  /**
   * Returns the total size of the data files opened so far, in bytes (Arrow's notion of bytes read
   * is approximated by the files' sizes, deletes not counted).
   *
   * @return bytes of data files opened
   */
  @Override
  public long bytesRead() {
    if (!decodeFiles) {
      return records.bytesOpened();
    }
    long bytes = 0;
    List<FileScanTask> tasks = records.tasks();
    for (int i = 0; i < Math.min(nextFile, tasks.size()); i++) {
      bytes += tasks.get(i).file().fileSizeInBytes();
    }
    return bytes;
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
    try {
      if (ahead != null) {
        Future<VectorSchemaRoot> waiting = ahead;
        ahead = null;
        try {
          BackgroundThreads.await(waiting).close();
        } catch (RuntimeException e) {
          // the file being decoded failed: nothing of it is left to free
        }
      }
      closeDecoded();
    } finally {
      records.close();
    }
  }

  @Override
  protected org.apache.arrow.vector.types.pojo.Schema readSchema() {
    return arrowSchema;
  }
}
