package dev.transforms.clustertest;

import dev.transforms.singlenode.IcebergOutput;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** The rows {@link ShapeCheck}'s transform versions write: {@code id, name} rows, widened or narrowed. */
public final class ShapeRows {

  private ShapeRows() {}

  /**
   * Writes the rows with a third column, {@code name_length}.
   *
   * @param rows rows of {@code id bigint, name string}
   * @param out the output
   * @param allocator where the widened batch lives while it is written
   */
  public static void writeWithNameLength(VectorSchemaRoot rows, IcebergOutput out, BufferAllocator allocator) {
    try (VectorSchemaRoot wider = withNameLength(rows, allocator)) {
      out.writeTable(wider);
    }
  }

  /**
   * Writes the rows' {@code name} column alone.
   *
   * @param rows rows with a {@code name} column
   * @param out the output
   * @param allocator where the narrowed batch lives while it is written
   */
  public static void writeNamesOnly(VectorSchemaRoot rows, IcebergOutput out, BufferAllocator allocator) {
    try (VectorSchemaRoot narrower = namesOnly(rows, allocator)) {
      out.writeTable(narrower);
    }
  }

  /**
   * The rows with a third column, {@code name_length}, the length of {@code name}.
   *
   * @param rows rows of {@code id bigint, name string}
   * @param allocator where the new batch lives
   * @return a new batch; the caller closes it
   */
  static VectorSchemaRoot withNameLength(VectorSchemaRoot rows, BufferAllocator allocator) {
    BigIntVector ids = copy((BigIntVector) rows.getVector("id"), allocator);
    VarCharVector names = copy((VarCharVector) rows.getVector("name"), allocator);
    IntVector lengths = new IntVector("name_length", allocator);
    lengths.allocateNew(rows.getRowCount());
    for (int i = 0; i < rows.getRowCount(); i++) {
      if (names.isNull(i)) {
        lengths.setNull(i);
      } else {
        lengths.set(i, names.getObject(i).toString().length());
      }
    }
    lengths.setValueCount(rows.getRowCount());
    VectorSchemaRoot wider = new VectorSchemaRoot(List.<FieldVector>of(ids, names, lengths));
    wider.setRowCount(rows.getRowCount());
    return wider;
  }

  /**
   * The rows' {@code name} column alone.
   *
   * @param rows rows with a {@code name} column
   * @param allocator where the new batch lives
   * @return a new batch; the caller closes it
   */
  static VectorSchemaRoot namesOnly(VectorSchemaRoot rows, BufferAllocator allocator) {
    VectorSchemaRoot narrower = new VectorSchemaRoot(List.<FieldVector>of(copy((VarCharVector) rows.getVector("name"),
        allocator)));
    narrower.setRowCount(rows.getRowCount());
    return narrower;
  }

  @SuppressWarnings("unchecked")
  private static <V extends FieldVector> V copy(V vector, BufferAllocator allocator) {
    V copy = (V) vector.getField().createVector(allocator);
    copy.allocateNew();
    for (int i = 0; i < vector.getValueCount(); i++) {
      copy.copyFromSafe(i, i, vector);
    }
    copy.setValueCount(vector.getValueCount());
    return copy;
  }
}
