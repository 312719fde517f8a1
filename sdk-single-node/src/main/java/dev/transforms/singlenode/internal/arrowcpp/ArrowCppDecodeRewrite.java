package dev.transforms.singlenode.internal.arrowcpp;

import dev.transforms.singlenode.internal.parquet.WrittenFile;
import dev.transforms.singlenode.internal.duckdb.DuckDbFileRewrite;
import dev.transforms.singlenode.internal.duckdb.DuckDbParquetWriter;
import dev.transforms.singlenode.internal.duckdb.SqlNames;
import dev.transforms.singlenode.internal.plan.FileRewrite;
import dev.transforms.singlenode.internal.plan.RewriteStrategy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.duckdb.DuckDBConnection;

/**
 * Copy-on-write of one Parquet data file decoded by Arrow C++ ({@link ArrowDatasetKeptRows}, which
 * marks the kept rows) and encoded by DuckDB on all cores. DuckDB's own reader decodes a row group on
 * one thread, and a file of Iceberg's is often one row group: Arrow C++ decodes it faster. Applies where
 * DuckDB rewrites the file ({@link DuckDbFileRewrite}) and Arrow C++ is loaded and reads every column as
 * the engine does.
 */
public final class ArrowCppDecodeRewrite implements FileRewrite {

  /** Rows per batch Arrow C++ decodes: DuckDB's row group, so each batch is one for a thread. */
  private static final int BATCH_ROWS = 122_880;

  /** Names the stream of each rewrite apart in the JVM's shared DuckDB database. */
  private static final AtomicLong STREAMS = new AtomicLong();

  private static final DuckDbFileRewrite ENCODER = new DuckDbFileRewrite();

  /** The strategy, for {@code RewritePlanner}'s table. */
  public ArrowCppDecodeRewrite() {}

  @Override
  public RewriteStrategy strategy() {
    return RewriteStrategy.ARROW_CPP_DECODE;
  }

  @Override
  public Optional<String> declines(Request request) {
    Optional<String> encoder = ENCODER.declines(request);
    if (encoder.isPresent()) {
      return encoder.map(why -> "DuckDB encodes, and is " + why);
    } else if (!ArrowDatasetRead.ready()) {
      return Optional.of("Arrow C++ is not loaded (or still loading)");
    }
    return ArrowDatasetRead.cannotRead(request.table(), request.schema().columns()).map(why -> "Arrow C++: " + why);
  }

  @Override
  public Optional<DataFile> rewrite(Request request, long[] dropped, String target, Path out) {
    Table table = request.table();
    String columns = request.schema().columns().stream().map(c -> SqlNames.quote(c.name()))
        .collect(Collectors.joining(", "));
    try (BufferAllocator allocator = DuckDbParquetWriter.unsafeAllocator();
        DuckDBConnection connection = DuckDbParquetWriter.connect();
        Statement st = connection.createStatement()) {
      st.execute("SET TimeZone = 'UTC'");
      Optional<ArrowDatasetKeptRows> opened = ArrowDatasetKeptRows.open(request.source(), request.schema().columns(),
          dropped, BATCH_ROWS, allocator);
      if (opened.isEmpty()) {
        return Optional.empty();
      }
      String stream = "rewrite_rows_" + STREAMS.incrementAndGet();
      long read;
      try (ArrowDatasetKeptRows rows = opened.get();
          ArrowArrayStream exported = ArrowArrayStream.allocateNew(allocator)) {
        Data.exportArrayStream(allocator, rows, exported);
        connection.registerArrowStream(stream, exported);
        st.execute("COPY (SELECT " + columns + " FROM " + stream + " WHERE " + SqlNames.quote(ArrowDatasetKeptRows.KEEP)
            + ") TO " + SqlNames.literal(out.toString()) + " (" + DuckDbParquetWriter.options(table, request.schema())
            + ")");
        read = rows.rowsRead();
      }
      DataFile written = WrittenFile.dataFile(table, request.spec(), request.partition(), target, out,
          DuckDbFileRewrite.floatMetrics(st, out, request.schema()));
      if (written.recordCount() != read - dropped.length) {
        throw new IllegalStateException("The rewrite of " + request.source() + " kept " + written.recordCount()
            + " of " + read + " rows read, leaving out " + dropped.length + " positions");
      }
      return Optional.of(written);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read back the file DuckDB wrote for " + table.name() + ": " + target, e);
    } catch (SQLException e) {
      throw new IllegalStateException("DuckDB failed to encode " + request.source() + " into " + target
          + " for table " + table.name() + ": " + e.getMessage(), e);
    }
  }
}
