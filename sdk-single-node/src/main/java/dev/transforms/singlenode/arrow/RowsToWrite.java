package dev.transforms.singlenode.arrow;

import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Rows an {@link ArrowTableWriter} was given, as its write strategies get them: one root, or the batches of
 * an Arrow reader (whose root is the reader's).
 *
 * @param target the files they go to
 * @param root the root (a reader's: the current batch's)
 * @param batches the reader; null for one root
 * @param allocator the root's allocator; null when it has no column
 */
record RowsToWrite(WriteTarget target, VectorSchemaRoot root, ArrowReader batches, BufferAllocator allocator) {

  RowsToWrite(WriteTarget target, VectorSchemaRoot root, ArrowReader batches) {
    this(target, root, batches,
        root.getFieldVectors().isEmpty() ? null : root.getFieldVectors().get(0).getAllocator());
  }

  /** The root's vectors by column name. */
  Map<String, FieldVector> byName() {
    Map<String, FieldVector> byName = new HashMap<>();
    for (FieldVector vector : root.getFieldVectors()) {
      byName.put(vector.getName(), vector);
    }
    return byName;
  }
}
