package dev.transforms.singlenode.internal.read;

import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.internal.threads.BackgroundThreads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
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
import java.util.Set;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.types.Types;

/**
 * Splits the columns of a read between two threads: a Parquet column chunk is decoded on one thread,
 * so a read of several columns that must be fast is two reads of about half the decoding work each,
 * side by side; and joins what the two reads give into one root.
 */
public final class ColumnHalves {

  private ColumnHalves() {}

  /**
   * The columns in two parts of about half the decoding weight each, when there are two cores and
   * both parts have something to decode; otherwise all the columns as one part. The heaviest columns
   * are placed first, each in the lighter part (so a string column among fixed-width ones gets a part
   * of its own); each part keeps the columns' order.
   *
   * @param columns the columns to read
   * @return one or two lists of columns
   */
  public static List<List<Types.NestedField>> split(List<Types.NestedField> columns) {
    if (columns.size() < 2 || Runtime.getRuntime().availableProcessors() < 2) {
      return List.of(columns);
    }
    List<Types.NestedField> heaviestFirst = new ArrayList<>(columns);
    heaviestFirst.sort(Comparator.comparingInt(ColumnHalves::weight).reversed()); // stable
    Set<Integer> inFirst = new HashSet<>();
    int first = 0;
    int second = 0;
    for (Types.NestedField column : heaviestFirst) {
      if (first <= second) {
        inFirst.add(column.fieldId());
        first += weight(column);
      } else {
        second += weight(column);
      }
    }
    if (first == 0 || second == 0) {
      return List.of(columns);
    }
    List<Types.NestedField> a = new ArrayList<>();
    List<Types.NestedField> b = new ArrayList<>();
    for (Types.NestedField column : columns) {
      (inFirst.contains(column.fieldId()) ? a : b).add(column);
    }
    return List.of(a, b);
  }

  /**
   * A rough relative cost of decoding a column, as measured for Arrow C++'s and the engine's readers
   * (about 40 ms per million strings, dictionary-encoded or not, since both hand over whole strings;
   * 20 for decimals, 15 for 8-byte values, 7 for 4-byte ones): a row's position, computed rather than
   * stored, costs nothing.
   *
   * @param column the column
   * @return its weight
   */
  public static int weight(Types.NestedField column) {
    if (column.fieldId() == MetadataColumns.ROW_POSITION.fieldId()) {
      return 0;
    }
    return switch (column.type().typeId()) {
      case STRING, BINARY -> 5;
      case DECIMAL, UUID, FIXED -> 3;
      case LONG, DOUBLE, TIMESTAMP, TIMESTAMP_NANO, TIME -> 2;
      default -> 1;
    };
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
  public static Optional<VectorSchemaRoot> inHalves(dev.transforms.singlenode.internal.plan.DirectScan scan,
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
  public static List<List<Types.NestedField>> halves(List<Types.NestedField> columns, long rows) {
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
  public static Optional<VectorSchemaRoot> join(Schema wanted, Optional<VectorSchemaRoot> a, Optional<VectorSchemaRoot> b) {
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
  public static VectorSchemaRoot gather(ArrowReader reader,
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
  public static VectorSchemaRoot take(VectorSchemaRoot exported, Schema wanted, BufferAllocator allocator) {
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

  /** Rows at which a read is two scans of about half the columns each. */
  public static final long TWO_SCANS_MIN_ROWS = 200_000;
}
