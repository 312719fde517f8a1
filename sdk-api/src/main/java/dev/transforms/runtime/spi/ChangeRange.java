package dev.transforms.runtime.spi;

import dev.transforms.api.TransformsException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.OptionalLong;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * The snapshots whose changes a read of a table's changes covers, and what each is compared with: the one
 * reading of a table's history that both engines' changes ({@code Changelog}, {@code SparkChanges}) use.
 *
 * <p>A snapshot's changes are its rows compared with its parent's. Where the parent is gone (expired, or
 * the table's first snapshot, or a table replaced), there is nothing to compare with: the snapshot counts
 * as inserting every row it holds, whatever its operation. A compaction ({@code replace}) changes no row,
 * so it is left out, but only where its parent is there to tell that: after an expiry, the oldest
 * snapshot kept is often a compaction, and it holds every row of the table.
 */
public final class ChangeRange {

  private ChangeRange() {}

  /**
   * Whether a snapshot leaves every row read before it as it was: an {@code append} only adds rows, a
   * {@code replace} (compaction, manifest rewrite) only moves them between files. Rows added since a
   * snapshot are then exactly the rows of the appends after it (Iceberg's incremental append scan reads
   * those and skips compactions); any other operation ({@code overwrite}, {@code delete}) edits rows.
   *
   * @param snapshot a snapshot
   * @return whether it adds or moves rows only
   */
  public static boolean keepsEarlierRows(Snapshot snapshot) {
    return DataOperations.APPEND.equals(snapshot.operation()) || DataOperations.REPLACE.equals(snapshot.operation());
  }

  /**
   * A snapshot whose changes are read, and what they are read against.
   *
   * @param ordinal the snapshot's position in the range, from 0 (compactions left out keep their place)
   * @param snapshot the snapshot
   * @param comparedWith the snapshot its rows are compared with (its parent); empty where the parent is
   *     gone, so that every row of the snapshot is an insert
   */
  public record Step(int ordinal, Snapshot snapshot, OptionalLong comparedWith) {}

  /**
   * Why a walk from snapshot {@code to} back through its parents did not meet the snapshot sought: the walk
   * stopped at a parent that expired (the history between them is gone), or at the table's first snapshot
   * (the one sought is on another line of history: the table was rolled back or replaced).
   *
   * @param oldest the oldest snapshot the walk reached
   * @param to where the walk started
   * @return the reason, in a few words
   */
  public static String whyNotAnAncestor(Snapshot oldest, long to) {
    if (oldest != null && oldest.parentId() != null) {
      return "the history between them was expired (snapshot " + oldest.parentId() + ", the parent of snapshot "
          + oldest.snapshotId() + ", no longer exists)";
    }
    return "it is not an ancestor of snapshot " + to + " (the table was rolled back or replaced)";
  }

  /**
   * The snapshots after {@code from} up to {@code to} whose rows can differ from what they are compared
   * with, oldest first; without {@code from}, over the history still kept up to {@code to}.
   *
   * @param table the table
   * @param from the last snapshot already seen, if any
   * @param to the last snapshot to include
   * @return the steps; empty when no snapshot of the range changes a row
   * @throws TransformsException as {@link #of}
   */
  public static List<Step> steps(Table table, OptionalLong from, long to) {
    List<Snapshot> range = of(table, from, to);
    List<Step> steps = new ArrayList<>();
    for (int ordinal = 0; ordinal < range.size(); ordinal++) {
      Snapshot snapshot = range.get(ordinal);
      Long parent = snapshot.parentId();
      boolean parentKept = parent != null && table.snapshot(parent) != null;
      if (parentKept && DataOperations.REPLACE.equals(snapshot.operation())) {
        continue;
      }
      steps.add(new Step(ordinal, snapshot, parentKept ? OptionalLong.of(parent) : OptionalLong.empty()));
    }
    return steps;
  }

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
    Snapshot oldest = snapshot;
    while (snapshot != null && (from.isEmpty() || snapshot.snapshotId() != from.getAsLong())) {
      range.addFirst(snapshot);
      oldest = snapshot;
      snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
    }
    if (from.isPresent() && snapshot == null) {
      throw new TransformsException("Cannot read the changes of " + table.name() + " since snapshot "
          + from.getAsLong() + ": " + whyNotAnAncestor(oldest, to));
    }
    return new ArrayList<>(range);
  }
}
