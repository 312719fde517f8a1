package dev.transforms.examples;

import dev.transforms.api.ReadMode;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import dev.transforms.singlenode.arrow.ArrowRows;
import java.util.HashSet;
import java.util.Set;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Finds the rows whose {@code id} is new between two snapshots of an append-only input: the input's
 * current snapshot and the one this transform's last successful build consumed.
 *
 * <p>It is meant for append-only data whose ids are unique, never null and never change. It is not
 * change data capture: edits and deletes of existing ids are not seen (use Iceberg's changelog scan
 * for that). On the first build, or when the previous snapshot has expired, every row is new.
 */
public class SnapshotComparison {

  /** The input: an append-only table with a unique {@code id} column. */
  public static final String SOURCE = "/Examples/iceberg/append-source";
  /** The output: the rows with new ids. */
  public static final String OUTPUT = "/Examples/iceberg/new-identifiers";

  /**
   * Writes the rows of the current input snapshot whose id was not in the previous one.
   *
   * @param ctx the context, for Arrow memory
   * @param source the append-only input
   * @param output the new rows
   */
  @Transform(description = "rows with ids new since the previous input snapshot (single node)")
  public void compareSnapshotIdentifiers(SingleNodeTransformContext ctx,
      @TableInput(SOURCE) IcebergInput source,
      @TableOutput(OUTPUT) IcebergOutput output) {
    if (source.previousSnapshotId().isPresent() && source.previousSnapshotId().equals(source.currentSnapshotId())) {
      // No snapshot since the last build (a forced rebuild): the ids that build found are still the newest.
      // Writing nothing leaves the output as it is.
      return;
    }
    VectorSchemaRoot current = source.arrow(ReadMode.CURRENT);
    if (source.previousSnapshotId().isEmpty()) {
      output.writeTable(current);
      return;
    }
    Set<Long> previousIds = new HashSet<>();
    BigIntVector previous = (BigIntVector) source.arrow(ReadMode.PREVIOUS).getVector("id");
    for (int row = 0; row < previous.getValueCount(); row++) {
      previousIds.add(previous.get(row));
    }
    BigIntVector ids = (BigIntVector) current.getVector("id");
    try (VectorSchemaRoot fresh = ArrowRows.filter(current, row -> !previousIds.contains(ids.get(row)), ctx.allocator())) {
      output.writeTable(fresh);
    }
  }
}
