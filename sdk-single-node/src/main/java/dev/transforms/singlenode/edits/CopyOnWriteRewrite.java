package dev.transforms.singlenode.edits;

import dev.transforms.singlenode.internal.parquet.ParquetRowCursor;
import dev.transforms.singlenode.internal.plan.RewritePlanner;
import dev.transforms.singlenode.internal.plan.RewriteStrategy;
import dev.transforms.singlenode.internal.read.LiveRows;
import dev.transforms.singlenode.internal.read.LiveRuns;
import dev.transforms.singlenode.internal.threads.BackgroundThreads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.deletes.PositionDeleteIndexUtil;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * Copy-on-write: a candidate data file that loses rows is replaced by new files holding its other
 * live rows, which keep their order and, in tables that track row lineage, their lineage columns.
 *
 * <p>A file is read once with whole rows. Its first rows are held in memory (up to {@link
 * #DEFAULT_COPY_BUFFER_ROWS}) until a row is dropped, so that a file that loses none is not written
 * again; from then on kept rows stream to the writer, on a second thread for larger files ({@link
 * OverlappedWriter}). A file whose first dropped row comes later than the buffer holds is read a
 * second time. Where the {@link RewritePlanner} says so (a large file the change can probe), the dropped
 * rows are found first by probing ({@link ProbeScan}), then the planner's native strategy writes the
 * kept rows or, failing that, two threads copy one half of them each.
 *
 * @param schema the table's schema
 * @param projection the columns to read: every column, then lineage columns when rows carry them, then
 *     {@code _pos}
 * @param files where kept rows are written
 * @param copyBufferRows rows of a file held in memory before its first dropped row
 */
record CopyOnWriteRewrite(FileIO io, Schema schema, Schema projection, RowChange change, EditFiles files,
    int copyBufferRows) {
  /** Rows of one file kept in memory while no row of it has been dropped yet. */
  static final int DEFAULT_COPY_BUFFER_ROWS = 200_000;

  /**
   * The position delete files (not deletion vectors, which Iceberg drops by itself) that apply only
   * to the task's data file: they go when the data file is rewritten.
   */
  static List<DeleteFile> fileScopedPositionDeletes(FileScanTask task) {
    List<DeleteFile> deletes = new ArrayList<>();
    for (DeleteFile delete : task.deletes()) {
      if (delete.content() == FileContent.POSITION_DELETES
          && !ContentFileUtil.isDV(delete)
          && ContentFileUtil.isFileScoped(delete)) {
        deletes.add(delete);
      }
    }
    return deletes;
  }

  /**
   * Writes the file's kept rows into new files; returns how many rows were dropped (0: none).
   *
   * @param kept the writers of the file's kept rows, this rewrite's alone while it runs
   */
  long rewrite(FileScanTask task, EditFiles.Slot kept) {
    LiveRows rows = LiveRows.of(io, schema, task, projection);
    Schema readSchema = rows.schema();
    RowChange.RowDecider decider = change.decider(readSchema, task.file());
    int posIndex = rows.columnIndex(MetadataColumns.ROW_POSITION.fieldId());
    // rows whose integral key no source row has are kept without asking the decider
    RowChange.RowProbe probe = change.probe(readSchema);
    LongHashSet integralKeys =
        probe == null || probe.columns().length != 1 ? null : probe.integralKeys();
    int keyIndex = integralKeys == null ? -1 : probe.columns()[0];

    // Rows from ParquetRowCursor are records of their own. Iceberg's reader may instead reuse one
    // record for all rows: kept rows usually go straight to the writer, which is done with a row
    // once it returns; only the rows held in the buffer then need their own, a shallow copy, which
    // is enough when every value is immutable (otherwise the reader would also reuse nested
    // records, lists and byte buffers).
    RewritePlanner.Plan plan = files.plan(task,
        probe != null && probe.columns().length < readSchema.columns().size() - 1); // fewer than all but _pos
    if (plan.positionsFirst()) {
      OptionalLong positionsFirst = rewriteWithPositionsFirst(task, rows, decider, posIndex, plan, kept);
      if (positionsFirst.isPresent()) {
        return positionsFirst.getAsLong();
      }
    }
    ParquetRowCursor cursor = rows.cursor();
    boolean reuse = cursor == null && immutableValues(readSchema);
    PositionDeleteIndex dropped = null;
    List<Record> buffer = new ArrayList<>();
    try (OverlappedWriter keptRows = new OverlappedWriter(kept::write, reuse,
        task.file().recordCount() >= OverlappedWriter.MIN_ROWS)) {
      try (CloseableIterable<Record> live = rows.records(cursor, reuse, false)) {
        for (Record row : live) {
          boolean drop;
          if (integralKeys != null) {
            Object key = row.get(keyIndex);
            drop = key != null && integralKeys.contains(((Number) key).longValue()) && decider.drop(row);
          } else {
            drop = decider.drop(row);
          }
          if (drop) {
            if (dropped == null) {
              dropped = ProbeScan.newPositionIndex();
            }
            dropped.delete((Long) row.get(posIndex));
            if (!keptRows.started() && buffer != null) {
              keptRows.start();
              buffer.forEach(keptRows::writeOwned);
              buffer = null;
            }
          } else if (keptRows.started()) {
            keptRows.write(row);
          } else if (buffer != null) {
            buffer.add(reuse ? row.copy() : row);
            if (buffer.size() >= copyBufferRows) {
              buffer = null; // too many rows to hold: read the file again if a row is dropped
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to read " + task.file().location(), e);
      }

      if (dropped == null) {
        return 0;
      }

      if (!keptRows.started()) {
        keptRows.start();
        PositionDeleteIndex droppedRows = dropped;
        ParquetRowCursor again = rows.cursor();
        try (CloseableIterable<Record> live = rows.records(again, again == null && reuse, false)) {
          for (Record row : live) {
            if (!droppedRows.isDeleted((Long) row.get(posIndex))) {
              keptRows.write(row);
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException("Failed to read " + task.file().location(), e);
        }
      }
      keptRows.finish();
    }
    RewritePlanner.rewroteOnEngine(RewriteStrategy.ENGINE, plan);
    return dropped.cardinality();
  }

  /**
   * Copy-on-write of a large file whose rows a probe can tell apart by a few columns. First the
   * probe pass (those columns of every row, whole rows only where the probe lets a row through)
   * finds the dropped rows; then two threads copy the kept rows, each one half of the file into
   * files of its own, in file order. Encoding and compressing Parquet is most of a rewrite's cost,
   * and one writer is slower than the reader feeding it; two writers share it between the cores.
   * Files are split at most down to about half of {@link RewritePlanner#POSITIONS_FIRST_MIN_ROWS} rows. Empty, having
   * read nothing, when the engine's cursor cannot read the file.
   */
  private OptionalLong rewriteWithPositionsFirst(FileScanTask task, LiveRows rows, RowChange.RowDecider decider,
      int posIndex, RewritePlanner.Plan plan, EditFiles.Slot kept) {
    PositionDeleteIndex dropped = ProbeScan.newPositionIndex();
    if (!ProbeScan.findDropped(rows, change, decider, row -> dropped.delete((Long) row.get(posIndex)), new int[0])) {
      return OptionalLong.empty();
    }
    if (dropped.isEmpty()) {
      return OptionalLong.of(0);
    }

    if (plan.strategy() != RewriteStrategy.ENGINE_TWO_LANES) {
      // a native strategy writes the file minus the dropped rows and the rows deleted before
      PositionDeleteIndex before = rows.deletedPositions();
      PositionDeleteIndex leftOut = before == null ? dropped : PositionDeleteIndexUtil.merge(List.of(dropped, before));
      if (files.rewriteNatively(plan, task, LiveRuns.sorted(leftOut, 0, Long.MAX_VALUE), rows.fetchedBytes())) {
        return OptionalLong.of(dropped.cardinality());
      }
    }

    // the lanes open cursors of their own, which skip the positions deleted already: load them
    // here, once, rather than in two threads at once
    rows.deletedPositions();
    boolean utf8 = files.takesUtf8Strings();
    long middle = task.file().recordCount() / 2;
    // also on failure, both lanes are idle before cleanup
    BackgroundThreads.both(() -> copyKept(task, rows, dropped, 0, middle, utf8, kept, 0),
        () -> copyKept(task, rows, dropped, middle, Long.MAX_VALUE, utf8, kept, 1));
    RewritePlanner.rewroteOnEngine(RewriteStrategy.ENGINE_TWO_LANES, plan);
    return OptionalLong.of(dropped.cardinality());
  }

  /**
   * Writes the live, kept rows at positions {@code [from, to)} of the task's file into a lane;
   * with {@code utf8}, strings go to the writer as the bytes read.
   */
  private void copyKept(
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

  /**
   * Whether every column of the schema is read into an immutable value (numbers, strings, dates and
   * times, decimals, UUIDs), so that a shallow copy of a reused record owns all its values.
   */
  private static boolean immutableValues(Schema readSchema) {
    for (Types.NestedField field : readSchema.columns()) {
      switch (field.type().typeId()) {
        case BOOLEAN:
        case INTEGER:
        case LONG:
        case FLOAT:
        case DOUBLE:
        case DATE:
        case TIME:
        case TIMESTAMP:
        case TIMESTAMP_NANO:
        case STRING:
        case DECIMAL:
        case UUID:
          break;
        default:
          return false;
      }
    }
    return true;
  }
}
