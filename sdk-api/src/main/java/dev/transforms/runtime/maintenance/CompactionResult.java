package dev.transforms.runtime.maintenance;

import java.util.OptionalLong;

/**
 * What a compaction did to a table.
 *
 * @param dataFilesRewritten data files replaced
 * @param dataFilesAdded data files written in their place
 * @param deleteFilesRemoved delete files dropped because every data file they applied to was rewritten
 * @param rowsWritten live rows written into the new files
 * @param snapshotId the snapshot of the replace commit, or empty when there was nothing to compact
 */
public record CompactionResult(
    int dataFilesRewritten, int dataFilesAdded, int deleteFilesRemoved, long rowsWritten, OptionalLong snapshotId) {

  /** A compaction that found nothing worth rewriting. */
  public static final CompactionResult NOTHING = new CompactionResult(0, 0, 0, 0, OptionalLong.empty());

  /** A line for reports: what was rewritten into what. */
  public String describe() {
    if (snapshotId.isEmpty()) {
      return "compact: nothing to rewrite";
    }
    return "compact: " + dev.transforms.runtime.Counts.of(dataFilesRewritten, "data file") + " rewritten into " + dataFilesAdded
        + " (" + dev.transforms.runtime.Counts.of(rowsWritten, "row") + "), "
        + dev.transforms.runtime.Counts.of(deleteFilesRemoved, "delete file") + " removed, snapshot " + snapshotId.getAsLong();
  }
}
