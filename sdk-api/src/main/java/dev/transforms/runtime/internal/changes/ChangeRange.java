package dev.transforms.runtime.internal.changes;

import dev.transforms.api.TransformsException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.OptionalLong;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/** The snapshots whose changes a read of a table's changes covers, shared by both engines. */
public final class ChangeRange {

  private ChangeRange() {}

  /**
   * The snapshots after {@code from} up to {@code to}, oldest first; without {@code from}, the history
   * still kept up to {@code to}.
   *
   * @param table the table
   * @param from the last snapshot already seen, if any
   * @param to the last snapshot to include
   * @return the snapshots
   * @throws TransformsException naming the table and snapshot if {@code to} does not exist, or
   *     {@code from} expired or is not an ancestor of {@code to}
   */
  public static List<Snapshot> of(Table table, OptionalLong from, long to) {
    Snapshot snapshot = table.snapshot(to);
    if (snapshot == null) {
      throw new TransformsException("Cannot read the changes of " + table.name() + ": snapshot " + to
          + " does not exist (expired?)");
    }
    if (from.isPresent() && table.snapshot(from.getAsLong()) == null) {
      throw new TransformsException("Cannot read the changes of " + table.name() + " since snapshot "
          + from.getAsLong() + ": it no longer exists (expired); read the changes since a snapshot that is still in "
          + "the table's history, or build in full");
    }
    Deque<Snapshot> range = new ArrayDeque<>();
    while (snapshot != null && (from.isEmpty() || snapshot.snapshotId() != from.getAsLong())) {
      range.addFirst(snapshot);
      snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
    }
    if (from.isPresent() && snapshot == null) {
      throw new TransformsException("Cannot read the changes of " + table.name() + " since snapshot "
          + from.getAsLong() + ": it is not an ancestor of snapshot " + to + " (the table was rolled back or replaced)");
    }
    return new ArrayList<>(range);
  }
}
