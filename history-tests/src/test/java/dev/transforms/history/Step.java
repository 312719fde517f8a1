package dev.transforms.history;

import java.util.List;
import java.util.Locale;

/**
 * One step of a history: an edit of the input, a maintenance or schema operation, or a build of the
 * downstream transforms. Steps hold only what the seed chose (how many rows, which of the current ids by
 * position), never snapshot ids or row ids, so that a step still means something when the steps before it
 * are removed while a failing history is shrunk. What a step did is told by {@link HistoryRun} in words.
 */
sealed interface Step {

  /** Appends new rows: an {@code append} snapshot. */
  record Append(int rows) implements Step {}

  /**
   * Upserts by id ({@code RowEdits.upsert}): updates the current rows at some positions and inserts new ids.
   *
   * @param picks positions among the current ids (modulo their number) of the rows to update
   * @param inserts how many new ids to insert
   */
  record Upsert(List<Integer> picks, int inserts) implements Step {}

  /** Upserts one row with a sequence value lower than the one it replaces: a late change. */
  record LateUpsert(int pick) implements Step {}

  /** Deletes the rows at some positions among the current ids ({@code RowEdits.delete}). */
  record Delete(List<Integer> picks) implements Step {}

  /**
   * Overwrites the rows from an id on ({@code RowEdits.overwrite} with a filter): every other one is
   * replaced by a new version, the rest dropped, and one new id added.
   *
   * @param pick the position among the current ids of the first id the filter matches
   */
  record Overwrite(int pick) implements Step {}

  /** Compacts the input ({@code Compaction.plan(table).run()}): a {@code replace} snapshot. */
  record Compact() implements Step {}

  /** Expires every snapshot but the current one. */
  record ExpireAllButCurrent() implements Step {}

  /** Expires the snapshot the last build read, unless it is the current one. */
  record ExpireLastRead() implements Step {}

  /** Expires the snapshots older than the one the last build read. */
  record ExpireBeforeLastRead() implements Step {}

  /** Rolls the input back ({@code manageSnapshots().rollbackTo}) by some snapshots. */
  record Rollback(int back) implements Step {}

  /** Adds an optional column {@code note}. */
  record AddColumn() implements Step {}

  /** Renames the text column ({@code name} to {@code label}, or back). */
  record RenameColumn() implements Step {}

  /** Drops {@code note}, or else the text column. */
  record DropColumn() implements Step {}

  /** Builds every downstream transform and checks each incremental variant against its full twin. */
  record Build() implements Step {}

  /**
   * Builds with one incremental variant failing after it wrote its rows ({@link InjectedFailure}).
   *
   * @param transform the variant that fails
   */
  record FailingBuild(String transform) implements Step {}

  /** The step as the seed made it, in words, before it ran. */
  default String words() {
    if (this instanceof Append append) {
      return "append " + append.rows() + " rows";
    } else if (this instanceof Upsert upsert) {
      return "upsert the rows at positions " + upsert.picks() + " and " + upsert.inserts() + " new ones";
    } else if (this instanceof LateUpsert late) {
      return "late upsert of the row at position " + late.pick();
    } else if (this instanceof Delete delete) {
      return "delete the rows at positions " + delete.picks();
    } else if (this instanceof Overwrite overwrite) {
      return "overwrite the rows from position " + overwrite.pick() + " on";
    } else if (this instanceof FailingBuild failing) {
      return "build, " + failing.transform() + " failing after it wrote its rows";
    }
    return getClass().getSimpleName().replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
  }

  /**
   * Builds in a JVM of its own ({@link ChildBuild}), killed with SIGKILL once the first transform that
   * runs has written its rows and before anything is published; the next build must recover.
   */
  record KilledBuild() implements Step {}

  /** Whether the step builds. */
  default boolean builds() {
    return this instanceof Build || this instanceof FailingBuild || this instanceof KilledBuild;
  }
}
