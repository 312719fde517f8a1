package dev.transforms.singlenode.edits;

import java.util.OptionalLong;

/**
 * What an {@link RowEdits#upsert upsert} did: how many source rows replaced an existing row that
 * differed from them, how many were new and inserted, and the snapshot it committed.
 *
 * <p>A source row that is equal, in every column, to the table row with its key is counted in
 * neither number: nothing is written for it.
 */
public final class UpsertResult {
  private final long rowsUpdated;
  private final long rowsInserted;
  private final Long snapshotId;

  UpsertResult(long rowsUpdated, long rowsInserted, Long snapshotId) {
    this.rowsUpdated = rowsUpdated;
    this.rowsInserted = rowsInserted;
    this.snapshotId = snapshotId;
  }

  /**
   * Returns the number of source rows whose key matched a table row that differed from them and
   * that now replace it.
   *
   * @return rows updated
   */
  public long rowsUpdated() {
    return rowsUpdated;
  }

  /**
   * Returns the number of source rows whose key matched no table row and that were appended.
   *
   * @return rows inserted
   */
  public long rowsInserted() {
    return rowsInserted;
  }

  /**
   * Returns the id of the snapshot this upsert committed, or empty when nothing changed and no
   * snapshot was created.
   *
   * @return the committed snapshot id, if any
   */
  public OptionalLong snapshotId() {
    return snapshotId == null ? OptionalLong.empty() : OptionalLong.of(snapshotId);
  }

  @Override
  public String toString() {
    return "UpsertResult{rowsUpdated="
        + rowsUpdated
        + ", rowsInserted="
        + rowsInserted
        + ", snapshotId="
        + snapshotId
        + "}";
  }
}
