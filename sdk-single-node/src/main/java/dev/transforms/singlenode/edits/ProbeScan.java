package dev.transforms.singlenode.edits;

import dev.transforms.singlenode.internal.parquet.ParquetRowCursor;
import dev.transforms.singlenode.internal.read.LiveRows;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.deletes.PositionDeleteIndexUtil;

/**
 * Probing: finds the live rows of a data file that a change drops, reading with the engine's Parquet
 * cursor the change's probe columns of every row and the other columns only of the rows the probe
 * lets through (a join key the upsert source has, a row the filter's columns may match). For an
 * integral key the values are tested unboxed, a batch at a time, and the other columns' pages are
 * decompressed meanwhile on a background thread. Most rows of a large file are thus passed over
 * without being decoded. Merge-on-read marks the rows found; a large copy-on-write rewrite finds
 * them first, then copies the others.
 */
final class ProbeScan {
  private ProbeScan() {}

  /** Receives a row the decider dropped; the row may be reused once it returns. */
  @FunctionalInterface
  interface DroppedRows {
    void accept(Record row);
  }

  /** A new, empty index, for the positions of the rows dropped from a file. */
  static PositionDeleteIndex newPositionIndex() {
    return PositionDeleteIndexUtil.merge(List.of());
  }

  /**
   * Hands the live rows of the file that the decider drops to the sink. Returns false, having read
   * nothing, when the engine's cursor cannot read the file: the caller then reads its rows with
   * Iceberg's reader ({@link LiveRows#records}) and asks the decider of each.
   */
  static boolean findDropped(
      LiveRows rows, RowChange change, RowChange.RowDecider decider, DroppedRows sink) {
    ParquetRowCursor cursor = rows.cursor();
    if (cursor == null) {
      return false;
    }
    findDropped(cursor, rows.schema(), change, decider, sink);
    return true;
  }

  /**
   * Probes the rows of a cursor already open on the file (from {@link LiveRows#cursor()}, so that
   * deleted rows are skipped), as above; closes the cursor.
   */
  static void findDropped(
      ParquetRowCursor cursor,
      Schema readSchema,
      RowChange change,
      RowChange.RowDecider decider,
      DroppedRows sink) {
    try (cursor) {
      RowChange.RowProbe probe = change.probe(readSchema);
      int[] probed = probe == null ? new int[0] : probe.columns();
      LongHashSet integralKeys = probe == null ? null : probe.integralKeys();
      int keyColumn = probed.length == 1 ? probed[0] : -1;
      if (integralKeys != null && (keyColumn < 0 || !cursor.hasLongValues(keyColumn))) {
        integralKeys = null;
      }
      if (probe != null) {
        cursor.readAheadExcept(probed);
      }
      GenericRecord row = GenericRecord.create(readSchema);
      int columns = cursor.columnCount();
      while (cursor.next()) {
        if (integralKeys != null) {
          if (cursor.isNull(keyColumn) || !integralKeys.contains(cursor.getLong(keyColumn))) {
            continue;
          }
        } else if (probe != null) {
          for (int column : probed) {
            row.set(column, cursor.get(column));
          }
          if (!probe.mightConcern(row)) {
            continue;
          }
        }
        for (int column = 0; column < columns; column++) {
          row.set(column, cursor.get(column));
        }
        if (decider.drop(row)) {
          sink.accept(row);
        }
      }
    }
  }
}
