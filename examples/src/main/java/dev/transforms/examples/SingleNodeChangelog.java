package dev.transforms.examples;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.singlenode.Changelog;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes the row changes of an input since this transform's last build: inserts, deletes, and updates
 * as before/after pairs matched on {@code id}, read with Iceberg's changelog scan on a single node.
 *
 * <p>Where {@link SnapshotComparison} only finds new ids in append-only data, this sees edits and
 * deletes too. The first build reports the input's whole history.
 */
public class SingleNodeChangelog {

  /** The input whose changes are read. */
  public static final String UPDATES = SparkRowEdits.UPDATES;
  /** The changes since the last build. */
  public static final String CHANGES = "/Examples/iceberg/row-updates-changes-single-node";

  /**
   * Writes the changes between the previous build's input snapshot and the current one.
   *
   * @param ctx the context, for Arrow memory the transform owns
   * @param updates the input
   * @param changes the changes output
   */
  @Transform(description = "inserts, updates and deletes between two snapshots (single node)")
  public void changesSinceLastBuild(SingleNodeTransformContext ctx,
      @TableInput(UPDATES) IcebergInput updates,
      @TableOutput(CHANGES) IcebergOutput changes) {
    if (updates.currentSnapshotId().isPresent() && updates.previousSnapshotId().equals(updates.currentSnapshotId())) {
      // No snapshot since the last build (a forced rebuild): the changes that build wrote are still the latest.
      // Writing nothing leaves the output as it is.
      return;
    }
    Changelog changelog = Changelog.of(updates.table()).identifiedBy("id");
    if (updates.currentSnapshotId().isPresent()) {
      changelog = changelog.between(updates.previousSnapshotId(), updates.currentSnapshotId().getAsLong());
    }
    try (VectorSchemaRoot rows = changelog.toArrow(ctx.allocator())) {
      changes.writeTable(rows);
    }
  }
}
