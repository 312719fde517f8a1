package dev.transforms.singlenode.internal.arrowcpp;

import dev.transforms.singlenode.arrow.ArrowSchemas;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.dataset.file.FileFormat;
import org.apache.arrow.dataset.file.FileSystemDatasetFactory;
import org.apache.arrow.dataset.jni.NativeMemoryPool;
import org.apache.arrow.dataset.scanner.ScanOptions;
import org.apache.arrow.dataset.scanner.Scanner;
import org.apache.arrow.dataset.source.Dataset;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.types.Types;

/**
 * The rows of one Parquet data file decoded by Arrow C++ (arrow-dataset) in batches, each batch with
 * the engine's fields and one more boolean column, {@link #KEEP}, false at the positions a
 * copy-on-write rewrite leaves out. DuckDB filters on it and encodes the new file
 * ({@link DuckDbFileRewrite}): Arrow C++ decodes while DuckDB's threads encode the batches before, where
 * DuckDB's own reader decodes a row group (Iceberg's are 128 MB) on one thread and encodes on that
 * same thread. The memory held is a few batches, not the file.
 *
 * <p>A batch is decoded by the DuckDB thread that asks for it (the Arrow C stream is read under
 * DuckDB's lock), so batches follow one another in the file's order and the positions are counted
 * as they come.
 */
final class ArrowDatasetKeptRows extends ArrowReader {

  /** The name of the column that says whether a row is kept; no Iceberg column may have it. */
  static final String KEEP = "transforms_rewrite_keeps_row";

  private final FileSystemDatasetFactory factory;
  private final Dataset dataset;
  private final Scanner scanner;
  private final ArrowReader batches;
  private final int[] order;
  private final Schema schema;
  private final long[] dropped;
  private int nextDropped;
  private long position;

  private ArrowDatasetKeptRows(BufferAllocator allocator, FileSystemDatasetFactory factory, Dataset dataset,
      Scanner scanner, ArrowReader batches, int[] order, Schema schema, long[] dropped) {
    super(allocator);
    this.factory = factory;
    this.dataset = dataset;
    this.scanner = scanner;
    this.batches = batches;
    this.order = order;
    this.schema = schema;
    this.dropped = dropped;
  }

  /**
   * Opens the file, or gives up (empty, nothing left open) when its columns are not the engine's: a
   * column missing (added after the file was written), of another Arrow type, or of another field id.
   * Call only when {@link ArrowDatasetRead#ready}.
   *
   * @param file the local Parquet file
   * @param columns the columns to read, all of them found by name in the file
   * @param dropped the positions to mark as not kept, sorted
   * @param batchRows the rows per batch
   * @param allocator where the batches' memory is accounted
   * @return the reader, to be closed by the caller
   */
  static Optional<ArrowDatasetKeptRows> open(Path file, List<Types.NestedField> columns, long[] dropped,
      int batchRows, BufferAllocator allocator) {
    if (columns.stream().anyMatch(c -> c.name().equals(KEEP))) {
      return Optional.empty();
    }
    Schema wanted = ArrowSchemas.toArrow(new org.apache.iceberg.Schema(columns));
    String[] names = columns.stream().map(Types.NestedField::name).toArray(String[]::new);
    List<AutoCloseable> opened = new ArrayList<>();
    try {
      FileSystemDatasetFactory factory = new FileSystemDatasetFactory(allocator, NativeMemoryPool.getDefault(),
          FileFormat.PARQUET, file.toUri().toString());
      opened.add(0, factory);
      Dataset dataset = factory.finish();
      opened.add(0, dataset);
      Scanner scanner = dataset.newScan(new ScanOptions.Builder(batchRows).columns(Optional.of(names)).build());
      opened.add(0, scanner);
      ArrowReader batches = scanner.scanBatches();
      opened.add(0, batches);
      int[] order = ArrowDatasetRead.positions(batches.getVectorSchemaRoot().getSchema(), columns, wanted);
      if (order == null) {
        AutoCloseables.close(opened);
        return Optional.empty();
      }
      List<Field> fields = new ArrayList<>(wanted.getFields());
      fields.add(new Field(KEEP, FieldType.notNullable(ArrowType.Bool.INSTANCE), null));
      return Optional.of(new ArrowDatasetKeptRows(allocator, factory, dataset, scanner, batches, order,
          new Schema(fields), dropped));
    } catch (Exception e) {
      try {
        AutoCloseables.close(opened);
      } catch (Exception other) {
        e.addSuppressed(other);
      }
      throw e instanceof RuntimeException runtime ? runtime
          : new IllegalStateException("Arrow C++ could not open " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    VectorSchemaRoot out = getVectorSchemaRoot();
    if (!batches.loadNextBatch()) {
      out.setRowCount(0);
      return false;
    }
    VectorSchemaRoot in = batches.getVectorSchemaRoot();
    int rows = in.getRowCount();
    try (BitVector keep = keepColumn(rows)) {
      List<FieldVector> vectors = new ArrayList<>(order.length + 1);
      for (int at : order) {
        vectors.add(in.getVector(at));
      }
      vectors.add(keep);
      VectorSchemaRoot batch = new VectorSchemaRoot(schema.getFields(), vectors, rows);
      try (ArrowRecordBatch record = new VectorUnloader(batch).getRecordBatch()) {
        new VectorLoader(out).load(record); // shares the buffers, which the scanner's next batch releases
      }
    }
    position += rows;
    return true;
  }

  /** True for every row of the batch but those at the dropped positions that fall in it. */
  private BitVector keepColumn(int rows) {
    BitVector keep = new BitVector(schema.getFields().get(order.length), allocator);
    try {
      keep.allocateNew(rows);
      // every bit set, validity and value, then the dropped rows' values cleared
      keep.getValidityBuffer().setOne(0, keep.getValidityBuffer().capacity());
      keep.getDataBuffer().setOne(0, keep.getDataBuffer().capacity());
      while (nextDropped < dropped.length && dropped[nextDropped] < position + rows) {
        if (dropped[nextDropped] >= position) {
          keep.set((int) (dropped[nextDropped] - position), 0);
        }
        nextDropped++;
      }
      keep.setValueCount(rows);
      return keep;
    } catch (RuntimeException e) {
      keep.close();
      throw e;
    }
  }

  /**
   * The rows read so far, every batch's: the file's row count once the reader is at its end.
   *
   * @return the count
   */
  long rowsRead() {
    return position;
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() throws IOException {
    try {
      AutoCloseables.close(batches, scanner, dataset, factory);
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("Cannot close Arrow C++'s reader: " + e.getMessage(), e);
    }
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
