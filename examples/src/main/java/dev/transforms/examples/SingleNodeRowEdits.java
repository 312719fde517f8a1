package dev.transforms.examples;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import dev.transforms.singlenode.edits.RowEdits;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Table;

/**
 * Edits rows in place on a single node, without Spark: the first build writes the input as the
 * output; later builds upsert the input by {@code id}, delete rows dated before April 2026, and
 * replace stale rows with archived ones.
 *
 * <p>{@link RowEdits} gives the native Iceberg {@link Table} the row-level operations PyIceberg users
 * know ({@code upsert}, {@code delete}, {@code overwrite}, {@code scan}), with filters in the same
 * string syntax. On the table an output hands out during a build, every edit lands on the build's
 * staging branch: the three edits are published together when the method returns, or not at all.
 */
public class SingleNodeRowEdits {

  /** The input of row updates, shared with the Spark example. */
  public static final String UPDATES = SparkRowEdits.UPDATES;
  /** The edited output. */
  public static final String EDITED = "/Examples/iceberg/edited-single-node";

  private static final byte[] ARCHIVED = "Archived".getBytes(StandardCharsets.UTF_8);

  /**
   * Seeds, then upserts, deletes and archives.
   *
   * @param ctx the context, for Arrow memory the transform owns
   * @param updates the row updates
   * @param output the edited table
   */
  @Transform(description = "upsert, delete and overwrite in place without Spark")
  public void editRowsSingleNode(SingleNodeTransformContext ctx,
      @TableInput(UPDATES) IcebergInput updates,
      @TableOutput(EDITED) IcebergOutput output) {
    VectorSchemaRoot rows = updates.arrow();
    Optional<Table> table = output.table();
    if (table.isEmpty()) {
      output.writeTable(rows);
      return;
    }
    RowEdits edits = RowEdits.on(table.get());
    edits.upsert(rows, List.of("id"));
    edits.delete("as_of < '2026-04-01'");
    try (VectorSchemaRoot stale = edits.scan("status = 'Stale'", ctx.allocator())) {
      // Rewriting the values in the vector keeps the column's Arrow field: type, nullability, metadata.
      VarCharVector status = (VarCharVector) stale.getVector("status");
      for (int row = 0; row < stale.getRowCount(); row++) {
        status.setSafe(row, ARCHIVED);
      }
      edits.overwrite(stale, "status = 'Stale'");
    }
  }
}
