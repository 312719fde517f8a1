package dev.transforms.singlenode.edits;

import dev.transforms.singlenode.internal.parquet.ParquetRowCursor;
import dev.transforms.singlenode.internal.read.ColumnHalves;
import dev.transforms.singlenode.internal.read.LiveRows;
import dev.transforms.singlenode.internal.threads.BackgroundThreads;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Future;
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
 * every row, with a cursor of its own, and notes the positions of the rows the probe lets through;
 * for an integral key the values are tested unboxed. The second reads the other columns at those
 * positions with cursors that move straight to them, split between two threads by decoding weight
 * ({@link ColumnHalves}); their pages are decompressed on background threads from the start, while
 * the first pass runs. The decider then sees each row let through, whole, in file order, as a single
 * pass would show it.
 */
final class ProbeScan {
  /** Rows let through by the probe that the second pass reads at a time, at most. */
  static final int CHUNK_ROWS = 16_384;

  /** Integral keys the first pass reads at a time, at most. */
  private static final int KEY_BATCH = 4_096;

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
    Schema readSchema = rows.schema();
    RowChange.RowProbe probe = change.probe(readSchema);
    int[] probed = probe == null ? new int[0] : probe.columns();
    if (probed.length > 0 && probed.length < readSchema.columns().size()) {
      TwoPasses passes = TwoPasses.open(rows, probe, probed);
      if (passes != null) {
        try (passes) {
          passes.run(decider, sink);
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

  /** The cursors of a two-pass probe of one file (see the class comment). */
  private static final class TwoPasses implements AutoCloseable {
    private final Schema readSchema;
    private final RowChange.RowProbe probe;
    private final int[] probed; // the probe columns' places in the read schema
    private final ParquetRowCursor probeCursor;
    private final int[][] groups; // per group of the second pass, its columns' places in the read schema
    private final ParquetRowCursor[] groupCursors;
    private final LongHashSet integralKeys; // the keys, when the probe is one integral column
    private long[] positions = new long[1024];
    private Object[][] probedValues;
    private final Object[][][] groupValues;
    private int found = 0; // rows let through in the current chunk
    private final GenericRecord row; // the first pass's probe values, then each row the decider sees
    private RowChange.RowDecider decider;
    private DroppedRows sink;

    private TwoPasses(Schema readSchema, RowChange.RowProbe probe, int[] probed, ParquetRowCursor probeCursor,
        int[][] groups, ParquetRowCursor[] groupCursors) {
      this.readSchema = readSchema;
      this.probe = probe;
      this.probed = probed;
      this.probeCursor = probeCursor;
      this.groups = groups;
      this.groupCursors = groupCursors;
      this.row = GenericRecord.create(readSchema);
      LongHashSet keys = probe.integralKeys();
      this.integralKeys = keys != null && probed.length == 1 && probeCursor.hasLongValues(0) ? keys : null;
      this.probedValues = new Object[probed.length][positions.length];
      this.groupValues = new Object[groups.length][][];
      for (int g = 0; g < groups.length; g++) {
        groupValues[g] = new Object[groups[g].length][positions.length];
      }
    }

    /** Opens the cursors, or returns null when the engine's cursor cannot read the file. */
    static TwoPasses open(LiveRows rows, RowChange.RowProbe probe, int[] probed) {
      Schema readSchema = rows.schema();
      List<Types.NestedField> columns = readSchema.columns();
      List<Types.NestedField> probeColumns = new ArrayList<>();
      List<Types.NestedField> others = new ArrayList<>(columns);
      for (int column : probed) {
        probeColumns.add(columns.get(column));
        others.remove(columns.get(column));
      }
      List<List<Types.NestedField>> split = ColumnHalves.split(others);
      List<ParquetRowCursor> opened = new ArrayList<>();
      boolean done = false;
      try {
        ParquetRowCursor probeCursor = rows.cursor(new Schema(probeColumns));
        if (probeCursor == null) {
          return null;
        }
        opened.add(probeCursor);
        int[][] groups = new int[split.size()][];
        ParquetRowCursor[] groupCursors = new ParquetRowCursor[split.size()];
        for (int g = 0; g < split.size(); g++) {
          groups[g] = split.get(g).stream().mapToInt(columns::indexOf).toArray();
          groupCursors[g] = rows.cursor(new Schema(split.get(g)));
          if (groupCursors[g] == null) {
            return null;
          }
          opened.add(groupCursors[g]);
          groupCursors[g].prefetch(); // decompressed while the first pass reads the probe columns
        }
        done = true;
        return new TwoPasses(readSchema, probe, probed, probeCursor, groups, groupCursors);
      } finally {
        if (!done) {
          opened.forEach(ParquetRowCursor::close);
        }
      }
    }

    void run(RowChange.RowDecider decider, DroppedRows sink) {
      this.decider = decider;
      this.sink = sink;
      if (integralKeys != null) {
        findByIntegralKey();
      } else {
        findByProbe();
      }
      if (found > 0) {
        decide(found);
      }
    }

    /** The first pass for one integral key column, a batch of keys at a time, unboxed. */
    private void findByIntegralKey() {
      boolean ints = readSchema.columns().get(probed[0]).type().typeId() == Type.TypeID.INTEGER;
      long[] keys = new long[KEY_BATCH];
      boolean[] present = new boolean[KEY_BATCH];
      long[] at = new long[KEY_BATCH];
      int count;
      while ((count = probeCursor.nextLongs(0, keys, present, at)) > 0) {
        for (int i = 0; i < count; i++) {
          if (present[i] && integralKeys.contains(keys[i])) {
            int slot = nextSlot(); // may replace the arrays: taken before indexing them
            probedValues[0][slot] = ints ? (Object) (int) keys[i] : (Object) keys[i];
            noted(at[i]);
          }
        }
      }
    }

    /** The first pass through the probe's own test of its columns, row by row. */
    private void findByProbe() {
      while (probeCursor.next()) {
        for (int i = 0; i < probed.length; i++) {
          row.set(probed[i], probeCursor.get(i));
        }
        if (probe.mightConcern(row)) {
          int slot = nextSlot();
          for (int i = 0; i < probed.length; i++) {
            probedValues[i][slot] = row.get(probed[i]);
          }
          noted(probeCursor.position());
        }
      }
    }


    /** The row in the next slot is at this position; a full chunk goes through the second pass. */
    private void noted(long position) {
      positions[found] = position;
      found += 1;
      if (found == CHUNK_ROWS) {
        decide(found);
        found = 0;
      }
    }

    /**
     * The slot of the next row let through, whose probe values the first pass puts there; the arrays
     * grow as needed, up to {@link #CHUNK_ROWS}.
     */
    private int nextSlot() {
      if (found < positions.length) {
        return found;
      }
      int size = Math.min(CHUNK_ROWS, positions.length * 2);
      positions = Arrays.copyOf(positions, size);
      for (int i = 0; i < probedValues.length; i++) {
        probedValues[i] = Arrays.copyOf(probedValues[i], size);
      }
      for (Object[][] group : groupValues) {
        for (int i = 0; i < group.length; i++) {
          group[i] = Arrays.copyOf(group[i], size);
        }
      }
      return found;
    }

    /** The second pass over the rows let through so far, then the decider's verdict on each. */
    private void decide(int count) {
      if (groups.length == 1) {
        read(0, count);
      } else {
        Future<?> other = BackgroundThreads.run(() -> read(1, count));
        try {
          read(0, count);
        } catch (RuntimeException | Error e) {
          try {
            BackgroundThreads.await(other); // its cursor is closed only once it is done with it
          } catch (RuntimeException | Error alsoFailed) {
            e.addSuppressed(alsoFailed);
          }
          throw e;
        }
        BackgroundThreads.await(other);
      }
      for (int k = 0; k < count; k++) {
        for (int i = 0; i < probed.length; i++) {
          row.set(probed[i], probedValues[i][k]);
        }
        for (int g = 0; g < groups.length; g++) {
          int[] group = groups[g];
          for (int i = 0; i < group.length; i++) {
            row.set(group[i], groupValues[g][i][k]);
          }
        }
        if (decider.drop(row)) {
          sink.accept(row);
        }
      }
      for (Object[][] group : groupValues) {
        for (Object[] values : group) {
          Arrays.fill(values, 0, count, null); // nothing kept alive until the next chunk
        }
      }
    }

    /** One group's columns at the positions found. */
    private void read(int group, int count) {
      ParquetRowCursor cursor = groupCursors[group];
      Object[][] values = groupValues[group];
      for (int k = 0; k < count; k++) {
        if (!cursor.moveTo(positions[k])) {
          throw new IllegalStateException("File " + cursor.location() + " has no row at position " + positions[k]
              + ", where the probe of its key columns found one");
        }
        for (int i = 0; i < values.length; i++) {
          values[i][k] = cursor.get(i);
        }
      }
    }

    @Override
    public void close() {
      probeCursor.close();
      for (ParquetRowCursor cursor : groupCursors) {
        cursor.close();
      }
    }
  }
}
