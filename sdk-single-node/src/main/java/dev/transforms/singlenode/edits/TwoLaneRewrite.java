package dev.transforms.singlenode.edits;

import dev.transforms.singlenode.internal.parquet.ParquetRowCursor;
import dev.transforms.singlenode.internal.plan.FileRewrite;
import dev.transforms.singlenode.internal.plan.RewritePlanner;
import dev.transforms.singlenode.internal.plan.RewriteRequest;
import dev.transforms.singlenode.internal.plan.RewriteStrategy;
import dev.transforms.singlenode.internal.read.LiveRows;
import dev.transforms.singlenode.internal.read.LiveRuns;
import dev.transforms.singlenode.internal.threads.BackgroundThreads;
import java.util.Optional;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.deletes.PositionDeleteIndex;

/**
 * The {@link RewriteStrategy#ENGINE_TWO_LANES engine's writer in two lanes}: a large file whose rows a probe
 * can tell apart by a few columns. The probe pass (those columns of every row, whole rows only where the
 * probe lets a row through) finds the dropped rows first; then two threads copy the kept rows, each one
 * half of the file into files of its own, in file order. Encoding and compressing Parquet is most of a
 * rewrite's cost, and one writer is slower than the reader feeding it; two writers share it between the
 * cores. Files are split at most down to about half of {@link RewritePlanner#POSITIONS_FIRST_MIN_ROWS}
 * rows. Declines, having read nothing, when the engine's cursor cannot read the file.
 */
final class TwoLaneRewrite implements FileRewrite<RewriteWork> {

  /** The two lanes; they hold no state. */
  static final TwoLaneRewrite INSTANCE = new TwoLaneRewrite();

  private TwoLaneRewrite() {}

  @Override
  public RewriteStrategy strategy() {
    return RewriteStrategy.ENGINE_TWO_LANES;
  }

  @Override
  public Optional<String> declines(RewriteRequest request) {
    return Optional.empty();
  }

  @Override
  public Optional<Rewritten> rewrite(RewriteWork work) {
    Optional<PositionDeleteIndex> found = work.dropped();
    if (found.isEmpty()) {
      return Optional.empty();
    }
    PositionDeleteIndex dropped = found.get();
    if (dropped.isEmpty()) {
      return Optional.of(Rewritten.NOTHING);
    }
    LiveRows rows = work.rows();
    FileScanTask task = work.task();
    // the lanes open cursors of their own, which skip the positions deleted already: load them
    // here, once, rather than in two threads at once
    rows.deletedPositions();
    boolean utf8 = work.rewrite().files().takesUtf8Strings();
    long middle = task.file().recordCount() / 2;
    // also on failure, both lanes are idle before cleanup
    BackgroundThreads.both(() -> copyKept(task, rows, dropped, 0, middle, utf8, work.kept(), 0),
        () -> copyKept(task, rows, dropped, middle, Long.MAX_VALUE, utf8, work.kept(), 1));
    return Optional.of(new Rewritten(dropped.cardinality(), true));
  }

  /**
   * Writes the live, kept rows at positions {@code [from, to)} of the task's file into a lane;
   * with {@code utf8}, strings go to the writer as the bytes read.
   */
  private static void copyKept(
      FileScanTask task,
      LiveRows rows,
      PositionDeleteIndex dropped,
      long from,
      long to,
      boolean utf8,
      EditFiles.Slot kept,
      int lane) {
    ParquetRowCursor cursor = rows.cursor();
    if (cursor == null) {
      throw new IllegalStateException("The file could be read a moment ago: " + task.file().location());
    }
    GenericRecord row = GenericRecord.create(rows.schema());
    int columns = cursor.columnCount();
    // rows are visited in order: walk the sorted positions to leave out instead of a lookup a row
    // (the cursor itself passes over the rows deleted before)
    long[] skipped = LiveRuns.sorted(dropped, from, to);
    int nextSkipped = 0;
    try (cursor) {
      while (cursor.next()) {
        long position = cursor.position();
        if (position < from) {
          continue; // passed over without decoding anything
        } else if (position >= to) {
          break;
        }
        while (nextSkipped < skipped.length && skipped[nextSkipped] < position) {
          nextSkipped += 1;
        }
        if (nextSkipped < skipped.length && skipped[nextSkipped] == position) {
          continue;
        }
        // one record for all rows: the writer is done with a row when writeKept returns
        for (int column = 0; column < columns; column++) {
          row.set(column, utf8 ? cursor.getForParquetWriter(column) : cursor.get(column));
        }
        kept.write(row, lane);
      }
    }
  }
}
