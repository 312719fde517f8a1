package dev.transforms.singlenode.edits;

import dev.transforms.singlenode.internal.read.LiveRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;

/**
 * Merge-on-read: a candidate data file stays as it is, and the rows the change drops from it are
 * marked deleted in the attempt's {@link PendingDeletes}: by position (a position delete file in
 * format v2, a deletion vector in v3, written when every file has been read), or by the values of
 * their equality columns when the attempt writes equality deletes.
 *
 * <p>Only the columns the change needs are read (see {@link EditOperation}), by probing where the
 * engine's Parquet cursor can read the file ({@link ProbeScan}), otherwise row by row through
 * Iceberg's reader.
 *
 * @param schema the table's schema
 * @param projection the columns to read from candidate files, {@code _pos} among them
 * @param byEquality whether dropped rows are deleted by their equality columns, not by position
 */
record MergeOnReadDeletes(FileIO io, Schema schema, Schema projection, RowChange change, PendingDeletes deletes,
    boolean byEquality) {
  /** Marks the file's dropped rows deleted; returns how many were dropped. */
  long markDeleted(FileScanTask task) {
    LiveRows rows = LiveRows.of(io, schema, task, projection);
    Schema readSchema = rows.schema();
    RowChange.RowDecider decider = change.decider(readSchema, task.file());
    int posIndex = rows.columnIndex(MetadataColumns.ROW_POSITION.fieldId());
    int[] equalityColumns = byEquality ? deletes.equalityColumnsIn(readSchema) : null;

    PositionDeleteIndex dropped = ProbeScan.newPositionIndex();
    ProbeScan.DroppedRows onDropped =
        row -> {
          dropped.delete((Long) row.get(posIndex));
          if (equalityColumns != null) {
            deletes.deleteEqual(task.file(), row, equalityColumns);
          }
        };
    if (!ProbeScan.findDropped(rows, change, decider, onDropped,
        equalityColumns == null ? new int[0] : equalityColumns)) {
      // Iceberg's reader, one record filled again for each row: neither the decider nor the
      // equality deletes keep a row
      try (CloseableIterable<Record> live = rows.records(null, true, false)) {
        for (Record row : live) {
          if (decider.drop(row)) {
            onDropped.accept(row);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to read " + task.file().location(), e);
      }
    }
    if (dropped.isEmpty()) {
      return 0;
    }

    if (!byEquality) {
      deletes.deletePositions(task.file(), dropped, rows.deletedPositions());
    }
    return dropped.cardinality();
  }
}
