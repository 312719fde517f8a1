package dev.transforms.singlenode.edits;

import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;

/**
 * One row-level change, as the {@link EditOperation} applies it: which data files may hold affected
 * rows, which live rows to drop, and which rows to add once every candidate file has been read.
 *
 * <p>An engine attempt calls {@link #reset(boolean)}, then {@link #decider} and the decider for
 * each live row of each candidate file, then {@link #addRows}. A retry repeats the sequence from
 * the start.
 */
abstract class RowChange {

  /** Decides, for one live row of a candidate file, whether this change removes it. */
  @FunctionalInterface
  interface RowDecider {
    /**
     * Returns true when the row is to be deleted. The row may be reused by the reader after the
     * call returns; implementations must not keep it.
     */
    boolean drop(Record row);

    /**
     * The decider's shortcut for readers that read a row's columns one at a time, when it has one:
     * null by default, so that every row comes to {@link #drop} whole.
     */
    default EarlyDrop earlyDrop() {
      return null;
    }
  }

  /**
   * A decider's rule that a single column can settle that a row is dropped, whatever its other
   * columns hold: an upsert replaces a matched row as soon as one of its columns differs from the
   * source row. A reader that has it may read a row's columns one at a time, the cheapest first, and
   * stop at the first that settles the row; it then calls {@link RowDecider#drop} with the columns
   * not read left null, and {@code drop} must return true for that row. Columns that are not the
   * table's own (row lineage, {@code _pos}) are always read.
   */
  interface EarlyDrop {
    /**
     * Returns true when the value of the column at this place of the read schema, in a row that
     * also holds the probe's columns, makes {@link RowDecider#drop} return true for the row whatever
     * its other columns hold. Called on the thread that calls {@code drop}.
     */
    boolean settles(Record row, int column, Object value);
  }

  /**
   * A cheap first test of a row on a few of its columns, so that a reader can skip decoding the
   * other columns of rows the change has nothing to do with.
   */
  interface RowProbe {
    /** Positions, in the read schema, of the columns {@link #mightConcern} looks at. */
    int[] columns();

    /**
     * Returns false only when the decider would keep the row and note nothing about it. Only the
     * probe's columns of the row are set.
     */
    boolean mightConcern(Record row);

    /**
     * For a probe of one integral column (an Iceberg int or long): the keys that {@link
     * #mightConcern} lets through, so that a reader can test the column's values without boxing
     * them; null otherwise. A null value never concerns such a probe.
     */
    default LongHashSet integralKeys() {
      return null;
    }

    /**
     * For an {@link #exact() exact} probe of one integral column: the filter it tests, so that a reader
     * can test the column's values without boxing them; null otherwise.
     */
    default IntegralFilter integralFilter() {
      return null;
    }

    /**
     * Whether the probe is the decider itself: every row it lets through is dropped, and the decider
     * needs no other column (a delete by a filter on top-level columns). A reader may then drop the rows
     * the probe lets through without reading their other columns.
     */
    default boolean exact() {
      return false;
    }
  }

  /** Returns the operation's name for messages, such as {@code "delete"}. */
  abstract String operation();

  /** Returns a filter that every affected row satisfies, to plan candidate files. */
  abstract Expression scanFilter();

  /** Returns the filter that concurrent commits are validated against. */
  abstract Expression conflictFilter();

  /** Returns the field ids the decider reads, or null when it needs every column. */
  abstract Set<Integer> requiredFieldIds();

  /** Returns whether the decider needs the row lineage id ({@code _row_id}) of each row. */
  boolean needsRowIds() {
    return false;
  }

  /** Returns false when the file's metrics show that no row of it can be affected. */
  boolean mightAffect(DataFile file) {
    return true;
  }

  /**
   * Returns true when every row of the task's file is affected, so the file can be removed whole
   * without reading it. Only asked for files without delete files.
   */
  boolean affectsWholeFile(FileScanTask task) {
    return false;
  }

  /**
   * Returns the probe for rows read with the given schema, or null when every row must go to the
   * decider.
   */
  abstract RowProbe probe(Schema readSchema);

  /** Returns the decider for the rows of one data file, read with the given schema. */
  abstract RowDecider decider(Schema readSchema, DataFile file);

  /**
   * Forgets what an earlier attempt saw and starts a new one.
   *
   * @param equalityDeletes whether dropped rows will be removed by equality deletes on {@link
   *     #equalityFieldIds()}, which also remove every other row with the same values there
   */
  abstract void reset(boolean equalityDeletes);

  /** Receives what a change writes once the scan is over. */
  interface NewRows {
    /**
     * Adds a row of the table schema.
     *
     * @param rowId the row lineage id of the table row this row replaces, or null for a new row
     */
    void add(Record row, Long rowId);

    /**
     * Adds an equality delete, in the data file's partition, for the values that {@code row} (a row
     * of the table schema) has in the equality fields. Only called with equality deletes.
     */
    void deleteEqual(DataFile file, Record row);
  }

  /** Hands the rows to write after the scan to {@code out} and returns how many there were. */
  abstract long addRows(NewRows out);

  /**
   * Returns the field ids an equality delete for this change matches on, or null if it has none.
   */
  abstract int[] equalityFieldIds();
}
