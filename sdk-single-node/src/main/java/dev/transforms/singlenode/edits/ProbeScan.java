package dev.transforms.singlenode.edits;

import dev.transforms.singlenode.internal.parquet.ParquetRowCursor;
import dev.transforms.singlenode.internal.read.ColumnHalves;
import dev.transforms.singlenode.internal.read.LiveRows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.deletes.PositionDeleteIndexUtil;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Probing: finds the live rows of a data file that a change drops, reading with the engine's Parquet
 * cursor the change's probe columns of every row and the other columns only of the rows the probe
 * lets through (a join key the upsert source has, a row the filter's columns may match). Most rows
 * of a large file are thus passed over without being decoded. Merge-on-read marks the rows found; a
 * large copy-on-write rewrite finds them first, then copies the others.
 *
 * <p>The read is in two passes over a chunk of rows at a time. The first reads the probe columns of
 * every row, with a cursor of its own whose pages are decompressed on a background thread, and notes
 * the positions of the rows the probe lets through; for an integral key the values are tested
 * unboxed. The second reads the other columns at those positions with cursors that move straight to
 * them, one per group of columns split by decoding weight ({@link ColumnHalves}); their pages are
 * decompressed on background threads from the start, while the first pass runs (when rows are
 * settled one by one, only the pages of the group read at every row; the other group's pages are
 * decompressed when a row needs them, and those holding no such row never are). The decider sees
 * each row let through in file order.
 *
 * <p>When the decider has an {@link RowChange.EarlyDrop} (an upsert replaces a row as soon as one
 * column differs from the source row), the second pass reads row by row, the cheapest columns first,
 * and stops at the first column that settles the row: an upsert of changed rows then reads one
 * fixed-width column of each matched row instead of all of them. When more than a quarter of the
 * first {@value #SETTLE_SAMPLE} rows needed every column (an upsert of mostly unchanged rows), the
 * rest of the file is read whole, the groups of columns on two threads side by side.
 */
final class ProbeScan {
  /** Rows let through by the probe that the second pass reads at a time, at most. */
  static final int CHUNK_ROWS = 16_384;

  /**
   * Rows the second pass reads row by row, the cheapest columns first, before it judges whether
   * the decider's early drop settles enough of them: when more than a quarter needed every column,
   * the rest of the file is read in two groups of columns on two threads.
   */
  static final int SETTLE_SAMPLE = 256;

  /** Integral keys the first pass reads at a time, at most. */
  static final int KEY_BATCH = 4_096;

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
   * Iceberg's reader ({@link LiveRows#records}) and asks the decider of each. When the probe is the
   * decider itself ({@link RowChange.RowProbe#exact}) and holds the columns the sink reads, only the
   * probe's columns are read: a delete of a key range reads one column of the file.
   *
   * @param sinkColumns the places in the read schema of the columns the sink reads, {@code _pos} aside
   */
  static boolean findDropped(
      LiveRows rows, RowChange change, RowChange.RowDecider decider, DroppedRows sink, int[] sinkColumns) {
    Schema readSchema = rows.schema();
    RowChange.RowProbe probe = change.probe(readSchema);
    int[] probed = probe == null ? new int[0] : probe.columns();
    if (probed.length > 0 && probe.exact() && covers(probed, sinkColumns) && exactPass(rows, probe, probed, sink)) {
      return true;
    }
    if (probed.length > 0 && probed.length < readSchema.columns().size()) {
      TwoPassProbe passes = TwoPassProbe.open(rows, probe, probed, decider);
      if (passes != null) {
        try (passes) {
          passes.run(sink);
        }
        return true;
      }
    }
    ParquetRowCursor cursor = rows.cursor();
    if (cursor == null) {
      return false;
    }
    try (cursor) {
      onePass(cursor, readSchema, probe, decider, sink);
    }
    return true;
  }

  private static boolean covers(int[] columns, int[] wanted) {
    for (int column : wanted) {
      if (java.util.Arrays.stream(columns).noneMatch(c -> c == column)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The probe's columns of every live row, and each row the probe lets through dropped with its
   * position: for a probe that is the decider. False, having read nothing, when the engine's cursor
   * cannot read the file.
   */
  private static boolean exactPass(LiveRows rows, RowChange.RowProbe probe, int[] probed, DroppedRows sink) {
    Schema readSchema = rows.schema();
    List<Types.NestedField> columns = new ArrayList<>();
    for (int column : probed) {
      columns.add(readSchema.columns().get(column));
    }
    // as the other passes, only where the engine's cursor reads the whole file: its rewrite reads it next
    ParquetRowCursor whole = rows.cursor();
    if (whole == null) {
      return false;
    }
    whole.close();
    ParquetRowCursor cursor = rows.cursor(new Schema(columns));
    if (cursor == null) {
      return false;
    }
    int posIndex = rows.columnIndex(org.apache.iceberg.MetadataColumns.ROW_POSITION.fieldId());
    GenericRecord row = GenericRecord.create(readSchema);
    try (cursor) {
      cursor.prefetch();
      IntegralFilter integral = probed.length == 1 && cursor.hasLongValues(0) ? probe.integralFilter() : null;
      if (integral != null) {
        exactIntegralPass(cursor, integral, row, probed[0], posIndex, sink);
        return true;
      }
      while (cursor.next()) {
        for (int i = 0; i < probed.length; i++) {
          row.set(probed[i], cursor.get(i));
        }
        if (probe.mightConcern(row)) {
          row.set(posIndex, cursor.position());
          sink.accept(row);
        }
      }
    }
    return true;
  }

  /** The exact pass of a filter on one integral column: its values a batch at a time, unboxed. */
  private static void exactIntegralPass(ParquetRowCursor cursor, IntegralFilter integral, GenericRecord row,
      int column, int posIndex, DroppedRows sink) {
    boolean ints = row.struct().fields().get(column).type().typeId() == Type.TypeID.INTEGER;
    boolean nullsMatch = integral.testNull();
    long[] values = new long[KEY_BATCH];
    boolean[] present = new boolean[KEY_BATCH];
    long[] at = new long[KEY_BATCH];
    int count;
    while ((count = cursor.nextLongs(0, values, present, at)) > 0) {
      for (int i = 0; i < count; i++) {
        if (present[i] ? integral.test(values[i]) : nullsMatch) {
          row.set(column, !present[i] ? null : ints ? (Object) (int) values[i] : (Object) values[i]);
          row.set(posIndex, at[i]);
          sink.accept(row);
        }
      }
    }
  }

  /** Every row's probe columns, then the other columns of the rows the probe lets through. */
  private static void onePass(
      ParquetRowCursor cursor,
      Schema readSchema,
      RowChange.RowProbe probe,
      RowChange.RowDecider decider,
      DroppedRows sink) {
    int[] probed = probe == null ? new int[0] : probe.columns();
    if (probe != null) {
      cursor.readAheadExcept(probed);
    }
    GenericRecord row = GenericRecord.create(readSchema);
    int columns = cursor.columnCount();
    while (cursor.next()) {
      if (probe != null) {
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
