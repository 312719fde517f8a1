package dev.transforms.singlenode.internal.sql;

import dev.transforms.singlenode.arrow.ArrowSchemas;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;
import org.apache.arrow.vector.util.VectorSchemaRootAppender;
import org.duckdb.DuckDBResultSet;

/**
 * Reads the rows of a {@link DirectScan} into one Arrow root with DuckDB's Parquet reader, the
 * columns typed and tagged exactly as the engine's own reader gives them ({@link ArrowSchemas#toArrow}).
 * Rows keep the order of the files and of the rows in them.
 *
 * <p>DuckDB's Arrow export is checked column by column against the engine's Arrow type; where any
 * differs the read is given up (empty) and the caller reads with the engine's reader, so a type
 * DuckDB hands over differently can never change what a caller sees.
 */
public final class DuckDbArrowRead {

  /** Reads this class completed in this JVM, for tests that must know which path ran. */
  private static final java.util.concurrent.atomic.AtomicLong READS = new java.util.concurrent.atomic.AtomicLong();

  private DuckDbArrowRead() {}

  /**
   * The reads completed through DuckDB in this JVM.
   *
   * @return the count
   */
  public static long reads() {
    return READS.get();
  }

  /**
   * Reads every row of the scan.
   *
   * @param scan the files and schema
   * @param allocator where the root's memory is accounted
   * @return the rows, or empty when DuckDB's types differ from the engine's
   */
  public static Optional<VectorSchemaRoot> readAll(DirectScan scan, BufferAllocator allocator) {
    Schema wanted = ArrowSchemas.toArrow(scan.schema());
    int batch = (int) Math.max(1, Math.min(Integer.MAX_VALUE - 1, scan.rows()));
    try (Connection connection = DuckDbParquetWriter.connect();
        Statement st = connection.createStatement()) {
      st.execute("SET TimeZone = 'UTC'");
      try (ResultSet rows = st.executeQuery("SELECT * FROM " + scan.readParquet());
          ArrowReader reader = (ArrowReader) rows.unwrap(DuckDBResultSet.class).arrowExportStream(allocator, batch)) {
        VectorSchemaRoot exported = reader.getVectorSchemaRoot();
        if (!sameTypes(exported.getSchema(), wanted)) {
          return Optional.empty();
        }
        VectorSchemaRoot result = null;
        try {
          while (reader.loadNextBatch()) {
            if (result == null) {
              result = take(exported, wanted, allocator);
            } else {
              VectorSchemaRootAppender.append(false, result, exported);
            }
          }
          if (result == null) {
            result = VectorSchemaRoot.create(wanted, allocator);
            result.setRowCount(0);
          }
          VectorSchemaRoot done = result;
          result = null;
          READS.incrementAndGet();
          return Optional.of(done);
        } finally {
          if (result != null) {
            result.close();
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the Arrow batches DuckDB exported for " + scan.files(), e);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("DuckDB failed to read the Parquet files " + scan.files() + ": "
          + e.getMessage(), e);
    }
  }

  /** Moves the current batch's buffers into vectors of the engine's fields (names, nullability, field ids). */
  private static VectorSchemaRoot take(VectorSchemaRoot exported, Schema wanted, BufferAllocator allocator) {
    List<FieldVector> vectors = new ArrayList<>();
    List<Field> fields = wanted.getFields();
    try {
      for (int i = 0; i < fields.size(); i++) {
        TransferPair pair = exported.getVector(i).getTransferPair(fields.get(i), allocator);
        pair.transfer();
        vectors.add((FieldVector) pair.getTo());
      }
    } catch (RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
    VectorSchemaRoot root = new VectorSchemaRoot(fields, vectors, exported.getRowCount());
    return root;
  }

  private static boolean sameTypes(Schema exported, Schema wanted) {
    if (exported.getFields().size() != wanted.getFields().size()) {
      return false;
    }
    for (int i = 0; i < wanted.getFields().size(); i++) {
      Field got = exported.getFields().get(i);
      Field want = wanted.getFields().get(i);
      if (!got.getType().equals(want.getType()) || !got.getChildren().isEmpty() || !want.getChildren().isEmpty()) {
        return false;
      }
    }
    return true;
  }
}
