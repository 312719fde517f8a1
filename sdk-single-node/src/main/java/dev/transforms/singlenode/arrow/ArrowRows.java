package dev.transforms.singlenode.arrow;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Row-wise helpers on Arrow data that Arrow's Java library lacks, for transforms that filter rows
 * before writing them.
 */
public final class ArrowRows {

  private ArrowRows() {}

  /**
   * Copies the rows a predicate keeps into a new root with the same schema (field types, nullability
   * and metadata included).
   *
   * <pre>{@code
   * BigIntVector ids = (BigIntVector) current.getVector("id");
   * try (VectorSchemaRoot fresh = ArrowRows.filter(current, row -> !seen.contains(ids.get(row)), ctx.allocator())) {
   *   output.writeTable(fresh);
   * }
   * }</pre>
   *
   * @param root the rows to filter; not modified
   * @param keep tells, by row index, whether to keep a row
   * @param allocator where the new root's memory comes from; the caller closes the returned root
   * @return a new root holding the kept rows
   */
  public static VectorSchemaRoot filter(VectorSchemaRoot root, IntPredicate keep, BufferAllocator allocator) {
    List<Integer> kept = new ArrayList<>();
    for (int row = 0; row < root.getRowCount(); row++) {
      if (keep.test(row)) {
        kept.add(row);
      }
    }
    VectorSchemaRoot result = VectorSchemaRoot.create(root.getSchema(), allocator);
    try {
      result.allocateNew();
      for (int column = 0; column < root.getFieldVectors().size(); column++) {
        FieldVector from = root.getVector(column);
        FieldVector to = result.getVector(column);
        for (int i = 0; i < kept.size(); i++) {
          to.copyFromSafe(kept.get(i), i, from);
        }
        to.setValueCount(kept.size());
      }
      result.setRowCount(kept.size());
      return result;
    } catch (RuntimeException e) {
      result.close();
      throw e;
    }
  }
}
