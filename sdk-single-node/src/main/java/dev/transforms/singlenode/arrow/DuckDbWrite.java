package dev.transforms.singlenode.arrow;

import dev.transforms.singlenode.internal.duckdb.DuckDbParquetWriter;
import dev.transforms.singlenode.internal.duckdb.RootSlices;
import dev.transforms.singlenode.internal.plan.RootWrite;
import dev.transforms.singlenode.internal.plan.WriteStrategy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * {@link WriteStrategy#DUCKDB DuckDB's Parquet writer}, over the Arrow data as it is (Arrow's C data
 * interface): a root, handed over in slices of {@link #BATCH_ROWS} rows so that DuckDB's threads share it,
 * or every batch of a reader, each file kept as soon as it is complete. It takes rows when the writer has a
 * DuckDB plan for the table ({@code duckdb.parquet}, DuckDB on the class path, an unpartitioned local
 * Parquet table, see {@code DuckDbWritePlan}) and their Arrow types need no conversion; a root must also fit
 * in one file (its Arrow size at most twice the target file size).
 */
final class DuckDbWrite implements RootWrite<RowsToWrite> {

  /**
   * Rows per batch a root is handed to DuckDB in: DuckDB scans a batch on one thread, so slices let its
   * threads share a large root. DuckDB's row group size.
   */
  static final int BATCH_ROWS = 122_880;

  /** DuckDB's write; it holds no state. */
  static final DuckDbWrite INSTANCE = new DuckDbWrite();

  private DuckDbWrite() {}

  @Override
  public WriteStrategy strategy() {
    return WriteStrategy.DUCKDB;
  }

  @Override
  public Optional<String> declines(RowsToWrite work) {
    WriteTarget target = work.target();
    if (target.duckDb() == null || target.partitioned()) {
      return Optional.of("turned off, not on the class path, or the table is not one it writes");
    } else if (work.allocator() == null || !target.duckDb().accepts(work.root().getSchema())) {
      return Optional.of("a column it does not write as Iceberg specifies, or no column");
    } else if (work.batches() == null && bufferSize(work.root()) > target.duckDbByteLimit()) {
      return Optional.of("the root is larger than one file");
    }
    return Optional.empty();
  }

  @Override
  public long write(RowsToWrite work) {
    IcebergFileWriter.Unpartitioned unpartitioned = (IcebergFileWriter.Unpartitioned) work.target().writer();
    unpartitioned.closeCurrent();
    if (work.batches() != null) {
      return write(work.target(), unpartitioned, work.batches(), work);
    }
    try (RootSlices slices = new RootSlices(work.allocator(), work.root(), BATCH_ROWS)) {
      return write(work.target(), unpartitioned, slices, work);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes every batch of a reader with DuckDB, keeping each file as soon as it is complete. */
  private static long write(WriteTarget target, IcebergFileWriter.Unpartitioned unpartitioned, ArrowReader batches,
      RowsToWrite work) {
    long[] rows = {0};
    DuckDbParquetWriter.write(
        target.duckDb(),
        batches,
        work.allocator(),
        () -> target.fileFactory().newOutputFile().encryptingOutputFile().location(),
        target.duckDbByteLimit(),
        file -> {
          unpartitioned.keep(file);
          rows[0] += file.recordCount();
        });
    return rows[0];
  }

  private static long bufferSize(VectorSchemaRoot root) {
    long bytes = 0;
    for (FieldVector vector : root.getFieldVectors()) {
      bytes += vector.getBufferSize();
    }
    return bytes;
  }
}
