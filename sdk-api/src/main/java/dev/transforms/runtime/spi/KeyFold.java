package dev.transforms.runtime.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The rules that apply one change to the rows of one key, shared by the single-node and Spark
 * implementations of slowly changing dimensions so that both give the same rows. A key's rows are
 * arrays of the output's columns: the input's columns, then for type 2 {@code valid_from},
 * {@code valid_to} and {@code is_current}.
 *
 * <ul>
 *   <li>An {@code UPDATE_BEFORE} image changes nothing: its after image carries the change.
 *   <li>A change whose sequence value is lower than the key's current row's is late, and ignored.
 *   <li>An insert or update equal to the current row changes nothing.
 *   <li>Type 1: an insert or update replaces the key's row; a delete removes it.
 *   <li>Type 2: an insert or update closes the current version at the change's commit time and opens a
 *       new one; a delete closes it.
 * </ul>
 */
public final class KeyFold {

  /** What a change did to its key. */
  public enum Outcome {
    /** The key's rows changed. */
    APPLIED,
    /** The change was older than the key's current row. */
    LATE,
    /** The change left the key's rows as they were. */
    NO_CHANGE
  }

  /** One key's rows, and whether a change altered them. */
  public static final class Key {
    private final List<Object[]> versions = new ArrayList<>();
    private boolean changed;
    private boolean partial;

    /**
     * The key's rows, in the output's columns.
     *
     * @return the rows; empty when the key has none
     */
    public List<Object[]> versions() {
      return versions;
    }

    /**
     * Whether a change altered the key's rows, which must then be rewritten (or deleted, when none is left).
     *
     * @return whether the key changed
     */
    public boolean changed() {
      return changed;
    }

    /**
     * Adds a row the output holds.
     *
     * @param row the row, in the output's columns
     * @param complete whether every column was read; when not (a type 1 row read for its sequence value
     *     only), no change is taken as equal to it
     */
    public void addExisting(Object[] row, boolean complete) {
      versions.add(row);
      partial |= !complete;
    }
  }

  private final boolean history;
  private final int inputWidth;
  private final int sequenceIndex;

  /**
   * The rules for one dimension.
   *
   * @param history type 2 (keep versions) rather than type 1
   * @param inputWidth the number of the input's columns
   * @param sequenceIndex the sequence column's position among them, or -1 for none
   */
  public KeyFold(boolean history, int inputWidth, int sequenceIndex) {
    this.history = history;
    this.inputWidth = inputWidth;
    this.sequenceIndex = sequenceIndex;
  }

  /**
   * The number of the output's columns.
   *
   * @return the input's columns, plus three for type 2
   */
  public int outputWidth() {
    return history ? inputWidth + 3 : inputWidth;
  }

  /**
   * Applies one change to a key.
   *
   * @param key the key's rows
   * @param type {@code INSERT}, {@code UPDATE_BEFORE}, {@code UPDATE_AFTER} or {@code DELETE}
   * @param values the changed row's values, in the input's columns
   * @param at the commit time of the change, as the output stores it (type 2 only)
   * @return what the change did
   */
  public Outcome apply(Key key, String type, Object[] values, Object at) {
    if (type.equals("UPDATE_BEFORE")) {
      return Outcome.NO_CHANGE;
    }
    Object[] current = currentOf(key.versions);
    if (current != null && sequenceIndex >= 0 && isLate(values[sequenceIndex], current[sequenceIndex])) {
      return Outcome.LATE;
    }
    boolean delete = type.equals("DELETE");
    if (!delete && current != null && !key.partial && same(current, values)) {
      return Outcome.NO_CHANGE;
    }
    key.changed = true;
    if (current == null && delete) {
      return Outcome.NO_CHANGE;
    }
    Object[] row = new Object[outputWidth()];
    System.arraycopy(values, 0, row, 0, inputWidth);
    if (!history) {
      key.versions.clear();
      key.partial = false;
      if (!delete) {
        key.versions.add(row);
      }
      return Outcome.APPLIED;
    }
    if (current != null) {
      Object[] closed = current.clone();
      closed[inputWidth + 1] = at;
      closed[inputWidth + 2] = false;
      key.versions.set(key.versions.indexOf(current), closed);
    }
    if (!delete) {
      row[inputWidth] = at;
      row[inputWidth + 1] = null;
      row[inputWidth + 2] = true;
      key.versions.add(row);
    }
    return Outcome.APPLIED;
  }

  private Object[] currentOf(List<Object[]> versions) {
    for (Object[] version : versions) {
      if (!history || Boolean.TRUE.equals(version[inputWidth + 2])) {
        return version;
      }
    }
    return null;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static boolean isLate(Object incoming, Object current) {
    return incoming != null && current != null && ((Comparable) incoming).compareTo(current) < 0;
  }

  private boolean same(Object[] current, Object[] values) {
    for (int i = 0; i < inputWidth; i++) {
      if (!Objects.equals(current[i], values[i])) {
        return false;
      }
    }
    return true;
  }
}
