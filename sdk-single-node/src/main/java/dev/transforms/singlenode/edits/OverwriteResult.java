package dev.transforms.singlenode.edits;

import java.util.OptionalLong;

/**
 * What an {@link RowEdits#overwrite overwrite} did: how many rows matching its filter were deleted,
 * how many rows were appended, and the single snapshot that did both.
 */
public final class OverwriteResult {
  private final long rowsDeleted;
  private final long rowsAppended;
  private final Long snapshotId;

  OverwriteResult(long rowsDeleted, long rowsAppended, Long snapshotId) {
    this.rowsDeleted = rowsDeleted;
    this.rowsAppended = rowsAppended;
    this.snapshotId = snapshotId;
  }

  /**
   * Returns the number of table rows that matched the filter and were deleted.
   *
   * @return rows deleted
   */
  public long rowsDeleted() {
    return rowsDeleted;
  }

  /**
   * Returns the number of rows appended.
   *
   * @return rows appended
   */
  public long rowsAppended() {
    return rowsAppended;
  }

  /**
   * Returns the id of the snapshot this overwrite committed, or empty when no row matched the
   * filter, no row was given, and so no snapshot was created.
   *
   * @return the committed snapshot id, if any
   */
  public OptionalLong snapshotId() {
    return snapshotId == null ? OptionalLong.empty() : OptionalLong.of(snapshotId);
  }

  @Override
  public String toString() {
    return "OverwriteResult{rowsDeleted="
        + rowsDeleted
        + ", rowsAppended="
        + rowsAppended
        + ", snapshotId="
        + snapshotId
        + "}";
  }
}
