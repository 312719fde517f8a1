package dev.transforms.singlenode.internal.sql;

import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.internal.read.ColumnHalves;
import dev.transforms.singlenode.internal.threads.BackgroundThreads;
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
import org.apache.iceberg.types.Types;
import org.duckdb.DuckDBResultSet;

/**
 * Reads the rows of a {@link DirectScan} into one Arrow root with DuckDB's Parquet reader, the
 * columns typed and tagged exactly as the engine's own reader gives them ({@link ArrowSchemas#toArrow}).
 * Rows keep the order of the files and of the rows in them.
 *
 * <p>DuckDB's Arrow export is checked column by column against the engine's Arrow type; where any
 * differs the read is given up (empty) and the caller reads with the engine's reader, so a type
 * DuckDB hands over differently can never change what a caller sees.
 *
 * <p>DuckDB decodes one row group on one thread, and Iceberg's writers make large row groups; a read of
 * 200,000 rows or more is therefore two scans of the same files, each of about half
 * the columns (by a rough decoding weight), on two threads, whose vectors make up the one root. Both
 * keep the files' row order, so their rows line up; the row counts are checked.
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
    if (!canRead(scan.schema())) {
      return Optional.empty(); // known before reading: DuckDB hands these over as other Arrow types
    }
    // DuckDB decodes a row group on one thread, and Iceberg's row groups are large (128 MB): two scans
    // of the same files, each of about half the columns' weight, decode on two threads
    return counted(inHalves(scan, part -> readOne(
        new DirectScan(scan.files(), new org.apache.iceberg.Schema(part), scan.rows()), allocator)));
  }

  /**
   * The rows of a scan read by one reader of all its columns or, when {@link #halves} splits them, by
   * two readers of about half the columns each, on two threads, joined into one root. Either read
   * giving up gives the whole read up; a failure closes what the other read gave.
   *
   * @param scan the files, columns and rows
   * @param read reads some columns of the scan's rows
   * @return the rows, or empty when a read gave up
   */
  static Optional<VectorSchemaRoot> inHalves(DirectScan scan,
      java.util.function.Function<List<Types.NestedField>, Optional<VectorSchemaRoot>> read) {
    List<List<Types.NestedField>> halves = halves(scan.schema().columns(), scan.rows());
    if (halves.size() == 1) {
      return read.apply(halves.get(0));
    }
    java.util.concurrent.Future<Optional<VectorSchemaRoot>> later = BackgroundThreads.call(
        () -> read.apply(halves.get(1)));
    Optional<VectorSchemaRoot> a;
    try {
      a = read.apply(halves.get(0));
    } catch (RuntimeException | Error e) {
      try {
        BackgroundThreads.await(later).ifPresent(VectorSchemaRoot::close); // its memory goes too
      } catch (RuntimeException | Error other) {
        e.addSuppressed(other);
      }
      throw e;
    }
    Optional<VectorSchemaRoot> b;
    try {
      b = BackgroundThreads.await(later);
    } catch (RuntimeException | Error e) {
      a.ifPresent(VectorSchemaRoot::close);
      throw e;
    }
    return join(ArrowSchemas.toArrow(scan.schema()), a, b);
  }

  /**
   * The columns of a read split in two of about half the decoding weight each
   * ({@link ColumnHalves#split}), when the read is large enough; otherwise all the columns as one part.
   *
   * @param columns the columns to read
   * @param rows the rows to read
   * @return one or two lists of columns
   */
  static List<List<Types.NestedField>> halves(List<Types.NestedField> columns, long rows) {
    return rows < TWO_SCANS_MIN_ROWS ? List.of(columns) : ColumnHalves.split(columns);
  }

  /**
   * The root of two reads of the same rows, each of some of the columns, in the order of the wanted
   * fields; empty (both closed) when either read gave up or their row counts differ.
   *
   * @param wanted the fields of the result
   * @param a the read of the first columns
   * @param b the read of the others
   * @return the root
   */
  static Optional<VectorSchemaRoot> join(Schema wanted, Optional<VectorSchemaRoot> a, Optional<VectorSchemaRoot> b) {
    if (a.isEmpty() || b.isEmpty() || a.get().getRowCount() != b.get().getRowCount()) {
      a.ifPresent(VectorSchemaRoot::close);
      b.ifPresent(VectorSchemaRoot::close);
      return Optional.empty();
    }
    List<FieldVector> vectors = new ArrayList<>();
    for (Field field : wanted.getFields()) {
      FieldVector vector = a.get().getVector(field.getName());
      vectors.add(vector != null ? vector : b.get().getVector(field.getName()));
    }
    return Optional.of(new VectorSchemaRoot(wanted.getFields(), vectors, a.get().getRowCount()));
  }

  private static Optional<VectorSchemaRoot> counted(Optional<VectorSchemaRoot> read) {
    read.ifPresent(root -> READS.incrementAndGet());
    return read;
  }

  /**
   * Whether DuckDB's Arrow export gives every column of a schema as the engine's reader does, so that a
   * read is worth planning.
   *
   * @param schema the columns to read
   * @return whether {@link #readAll} can read them
   */
  public static boolean canRead(org.apache.iceberg.Schema schema) {
    return schema.columns().stream().allMatch(c -> exportedAsEngine(c.type()));
  }

  /**
   * Whether DuckDB's Arrow export gives a column of this type as the engine's reader does (checked
   * again on the exported schema). UUIDs come out as text, fixed-length binaries as variable-length
   * ones; time and the rest are left to the engine until a test shows them equal.
   */
  private static boolean exportedAsEngine(org.apache.iceberg.types.Type type) {
    return switch (type.typeId()) {
      case BOOLEAN, INTEGER, LONG, FLOAT, DOUBLE, DECIMAL, DATE, TIMESTAMP, STRING, BINARY -> true;
      default -> false;
    };
  }

  /** Rows at which {@link #readAll} reads with two scans of about half the columns each. */
  static final long TWO_SCANS_MIN_ROWS = 200_000;

  /** One DuckDB scan of the columns of {@code scan.schema()}. */
  private static Optional<VectorSchemaRoot> readOne(DirectScan scan, BufferAllocator allocator) {
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
        return Optional.of(gather(reader, () -> exported, wanted, allocator));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the Arrow batches DuckDB exported for " + scan.files(), e);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("DuckDB failed to read the Parquet files " + scan.files() + ": "
          + e.getMessage(), e);
    }
  }

  /**
   * Every batch of a reader in one root of the wanted fields: the first batch's buffers moved, the
   * others appended; an empty root when there is no batch. Nothing is left allocated on failure.
   *
   * @param reader the batches
   * @param current the reader's current batch with the wanted columns in order (called after each load)
   * @param wanted the fields of the result
   * @param allocator where the result is allocated
   * @return the root, the caller's to close
   * @throws IOException if a batch cannot be loaded
   */
  static VectorSchemaRoot gather(org.apache.arrow.vector.ipc.ArrowReader reader,
      java.util.function.Supplier<VectorSchemaRoot> current, Schema wanted, BufferAllocator allocator)
      throws IOException {
    VectorSchemaRoot result = null;
    try {
      while (reader.loadNextBatch()) {
        if (result == null) {
          result = take(current.get(), wanted, allocator);
        } else {
          VectorSchemaRootAppender.append(false, result, current.get());
        }
      }
      if (result == null) {
        result = VectorSchemaRoot.create(wanted, allocator);
        result.setRowCount(0);
      }
      VectorSchemaRoot done = result;
      result = null;
      return done;
    } finally {
      if (result != null) {
        result.close();
      }
    }
  }

  /** Moves the current batch's buffers into vectors of the engine's fields (names, nullability, field ids). */
  static VectorSchemaRoot take(VectorSchemaRoot exported, Schema wanted, BufferAllocator allocator) {
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
