package dev.transforms.runtime.internal.publish;

import dev.transforms.api.PublishConflictException;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.api.SchemaMismatchException;
import dev.transforms.api.TransformsException;
import dev.transforms.runtime.internal.schema.SchemaDiff;
import dev.transforms.runtime.spi.CommittedFiles;
import dev.transforms.runtime.spi.OutputShapes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;

/**
 * What the publication checks of every output before it publishes any: whatever fails here fails the
 * whole publication with nothing published.
 *
 * @param transform the transform's name, for messages
 * @param branch the build's staging branch
 * @param target the branch the build publishes
 */
record PublishChecks(String transform, String branch, BuildBranch target) {

  /** Whether this publication is a load's ({@link OutputPublisher#LOAD}): its messages say load, not build. */
  boolean isLoad() {
    return isLoad(transform);
  }

  /** Whether a publication under this name is a load's: its messages say load, not build. */
  static boolean isLoad(String transform) {
    return OutputPublisher.LOAD.equals(transform);
  }

  /** What is published, as messages name it: {@code transform NAME}, or {@code the load}. */
  String subject() {
    return isLoad() ? "the load" : "transform " + transform;
  }

  /** What to do after a conflict: build again, or load again. */
  String again() {
    return isLoad() ? "Load again to load into the table as it is now." : "Build again to run on the new data.";
  }

  /**
   * Checks that an existing output can be published: its {@code main} did not move, its branch is there,
   * nobody else changed its shape, and an incremental build's shape change is one its policy allows.
   */
  void check(RunOutput entry, SchemaChangePolicy policy) {
    if (entry.table == null) {
      return;
    }
    Table table = entry.table;
    table.refresh();
    TableMetadata metadata = ((HasTableOperations) table).operations().current();
    Snapshot main = target.head(metadata);
    Long mainNow = main == null ? null : main.snapshotId();
    if (!Objects.equals(mainNow, entry.base)) {
      throw new PublishConflictException("Cannot publish " + subject() + ": output " + entry.describe()
          + (target.isMain() ? "" : " on branch " + target.name())
          + " moved from snapshot " + entry.base + " to " + mainNow + " while "
          + (isLoad() ? "the load" : "the transform") + " ran; nothing was published. " + again());
    }
    if (!target.isMain() && StagedShape.staged(metadata, StagingMarks.buildOfBranch(branch).orElseThrow()).isPresent()) {
      throw new TransformsException("Cannot publish transform " + transform + " on branch " + target.name()
          + ": it changes the schema, partitioning or properties of output " + entry.describe() + ", and Iceberg "
          + "keeps those for the whole table, so readers of main would see the change. Make the change on main; "
          + "nothing was published.");
    }
    if (!table.refs().containsKey(branch)) {
      throw new TransformsException("Staging branch " + branch + " of output " + entry.output.path()
          + " disappeared while " + subject() + " ran; nothing was published. " + again());
    }
    List<String> changes = entry.shape.differences(table, TableShape.of(table));
    if (!changes.isEmpty()) {
      throw new PublishConflictException("Cannot publish " + subject() + ": the schema, partitioning or "
          + "properties of output " + entry.describe() + " were changed outside this build while it ran (not through "
          + "the output's handle or identifier); nothing was published and that change was left as it is. What "
          + "changed:\n  - " + String.join("\n  - ", changes) + "\nBuild again to run on the table as it is now.");
    }
    if (policy != null) {
      Table stagedTable = entry.stagedTable;
      stagedTable.refresh();
      List<String> refused = new ArrayList<>(SchemaDiff.between(entry.baseSchema, stagedTable.schema())
          .refusedBy(policy));
      if (!stagedTable.spec().compatibleWith(entry.baseSpec)) {
        refused.add("partitioning: " + entry.baseSpec.fields() + " became " + stagedTable.spec().fields()
            + "; an incremental build adds rows to the table as it is partitioned, only a full build re-partitions");
      }
      if (!refused.isEmpty()) {
        throw new SchemaMismatchException("Cannot publish output " + entry.describe() + " of transform " + transform
            + ": this incremental build changed its shape in a way its schema-change policy ("
            + policy.name().toLowerCase(Locale.ROOT) + ") does not allow; "
            + OutputShapes.wayOut(transform) + ". Nothing was published:\n  - "
            + String.join("\n  - ", refused), refused);
      }
    }
  }

  /**
   * Checks that every data and delete file the run's staged snapshots add to an output is there with its
   * size, whichever engine wrote it ({@link CommittedFiles}): the publication must not make {@code main}
   * name a file that is gone.
   */
  void requireStagedFiles(RunOutput entry) {
    Table table = entry.created != null ? entry.stagedTable : entry.table;
    if (table == null) {
      return;
    }
    Snapshot head;
    if (entry.created != null) {
      head = entry.stagedTable.currentSnapshot();
    } else {
      SnapshotRef ref = table.refs().get(branch);
      head = ref == null ? null : table.snapshot(ref.snapshotId());
    }
    if (head != null) {
      CommittedFiles.requirePresent(entry.describe(), table.io(),
          CommittedFiles.addedBetween(table, head.snapshotId(), entry.created != null ? null : entry.base));
    }
  }
}
