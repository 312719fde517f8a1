package dev.transforms.singlenode.edits;

import dev.transforms.singlenode.internal.parquet.ParquetRowCursor;
import dev.transforms.singlenode.internal.read.ColumnHalves;
import dev.transforms.singlenode.internal.read.LiveRows;
import dev.transforms.singlenode.internal.threads.BackgroundThreads;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The cursors of a two-pass probe of one file ({@link ProbeScan}): the first pass reads the probe columns
 * of every row of a chunk and notes the rows the probe lets through; the second reads the other columns of
 * those rows only, by groups of columns, row by row with an early drop or whole on two threads.
 */
final class TwoPassProbe implements AutoCloseable {
  private final LiveRows rows;
  private final Schema readSchema;
  private final RowChange.RowProbe probe;
  private final int[] probed; // the probe columns' places in the read schema
  private final ParquetRowCursor probeCursor;
  private final List<Types.NestedField> others; // the other columns, in the read schema's order
  private final LongHashSet integralKeys; // the keys, when the probe is one integral column
  private long[] positions = new long[1024];
  private Object[][] probedValues;
  private int found = 0; // rows let through in the current chunk
  private final GenericRecord row; // the first pass's probe values, then each row the decider sees
  private final RowChange.RowDecider decider;
  private ProbeScan.DroppedRows sink;

  // the second pass row by row, the cheapest columns first, while the decider's early drop settles
  // most rows on a column or two
  private final RowChange.EarlyDrop earlyDrop;
  private boolean settling = false;
  private int[] settlePlaces; // in the order read, the columns' places in the read schema
  private int[] settleGroups; // the same columns' groups
  private int[] settleColumns; // their places in their group's cursor
  private int firstSettling; // the index in that order of the first column that may settle a row
  private long rowsSettling = 0; // rows read row by row so far
  private long rowsUnsettled = 0; // of which every column was read

  // the second pass in groups of columns, one thread each
  private int[][] groups; // per group, its columns' places in the read schema
  private ParquetRowCursor[] groupCursors;
  private Object[][][] groupValues;

  private TwoPassProbe(LiveRows rows, RowChange.RowProbe probe, int[] probed, ParquetRowCursor probeCursor,
      List<Types.NestedField> others, RowChange.RowDecider decider) {
    this.rows = rows;
    this.readSchema = rows.schema();
    this.probe = probe;
    this.probed = probed;
    this.probeCursor = probeCursor;
    this.others = others;
    this.decider = decider;
    this.earlyDrop = decider.earlyDrop();
    this.row = GenericRecord.create(readSchema);
    LongHashSet keys = probe.integralKeys();
    this.integralKeys = keys != null && probed.length == 1 && probeCursor.hasLongValues(0) ? keys : null;
    this.probedValues = new Object[probed.length][positions.length];
  }

  /** Opens the cursors, or returns null when the engine's cursor cannot read the file. */
  static TwoPassProbe open(LiveRows rows, RowChange.RowProbe probe, int[] probed, RowChange.RowDecider decider) {
    List<Types.NestedField> columns = rows.schema().columns();
    List<Types.NestedField> probeColumns = new ArrayList<>();
    List<Types.NestedField> others = new ArrayList<>(columns);
    for (int column : probed) {
      probeColumns.add(columns.get(column));
      others.remove(columns.get(column));
    }
    ParquetRowCursor probeCursor = rows.cursor(new Schema(probeColumns));
    if (probeCursor == null) {
      return null;
    }
    probeCursor.prefetch(); // the key pages decompressed on another thread while this one tests keys
    TwoPassProbe passes = null;
    boolean done = false;
    try {
      passes = new TwoPassProbe(rows, probe, probed, probeCursor, others, decider);
      done = passes.openSecondPass();
      return done ? passes : null;
    } finally {
      if (!done) {
        if (passes != null) {
          passes.close();
        } else {
          probeCursor.close();
        }
      }
    }
  }

  /**
   * Opens the second pass's cursors, one per group of columns, their pages decompressed while the
   * first pass reads the probe columns. Returns false when the file cannot be read so.
   */
  private boolean openSecondPass() {
    List<List<Types.NestedField>> split = ColumnHalves.split(others);
    List<Types.NestedField> columns = readSchema.columns();
    groups = new int[split.size()][];
    groupCursors = new ParquetRowCursor[split.size()];
    groupValues = new Object[split.size()][][];
    for (int g = 0; g < split.size(); g++) {
      List<Types.NestedField> group = split.get(g);
      groups[g] = group.stream().mapToInt(columns::indexOf).toArray();
      groupValues[g] = new Object[group.size()][positions.length];
      groupCursors[g] = rows.cursor(new Schema(group));
      if (groupCursors[g] == null) {
        return false;
      }
    }
    if (earlyDrop != null) {
      orderSettling(split);
    }
    for (int g = 0; g < groupCursors.length; g++) {
      if (!settling || readForEveryRow(g)) {
        groupCursors[g].prefetch();
      }
    }
    return true;
  }

  /**
   * Whether rows settled one by one read a column of the group at every row: the columns the decider
   * needs of each row and the first that may settle it. The other groups are read where a row needs
   * them, their pages decompressed only then ({@link ParquetRowCursor#moveTo} passes over whole pages
   * without decompressing them), rather than all of them on another thread from the start.
   */
  private boolean readForEveryRow(int group) {
    for (int i = 0; i <= firstSettling && i < settleGroups.length; i++) {
      if (settleGroups[i] == group) {
        return true;
      }
    }
    return false;
  }

  /**
   * The order in which rows are settled one by one: row lineage and {@code _pos} first (the decider
   * and the sink need them for every row), then the table's columns, the cheapest first.
   */
  private void orderSettling(List<List<Types.NestedField>> split) {
    List<Types.NestedField> order = new ArrayList<>();
    List<Types.NestedField> table = new ArrayList<>();
    for (Types.NestedField column : others) {
      (MetadataColumns.isMetadataColumn(column.fieldId()) ? order : table).add(column);
    }
    firstSettling = order.size();
    table.sort(Comparator.comparingInt(ColumnHalves::weight)); // stable
    order.addAll(table);
    List<Types.NestedField> columns = readSchema.columns();
    settlePlaces = order.stream().mapToInt(columns::indexOf).toArray();
    settleGroups = new int[order.size()];
    settleColumns = new int[order.size()];
    for (int i = 0; i < order.size(); i++) {
      for (int g = 0; g < split.size(); g++) {
        int at = split.get(g).indexOf(order.get(i));
        if (at >= 0) {
          settleGroups[i] = g;
          settleColumns[i] = at;
        }
      }
    }
    settling = true;
  }

  void run(ProbeScan.DroppedRows sink) {
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
    long[] keys = new long[ProbeScan.KEY_BATCH];
    boolean[] present = new boolean[ProbeScan.KEY_BATCH];
    long[] at = new long[ProbeScan.KEY_BATCH];
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
    if (found == ProbeScan.CHUNK_ROWS) {
      decide(found);
      found = 0;
    }
  }

  /**
   * The slot of the next row let through, whose probe values the first pass puts there; the arrays
   * grow as needed, up to {@link #ProbeScan.CHUNK_ROWS}.
   */
  private int nextSlot() {
    if (found < positions.length) {
      return found;
    }
    int size = Math.min(ProbeScan.CHUNK_ROWS, positions.length * 2);
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

  /**
   * The second pass over the rows let through so far, and the decider's verdict on each: row by
   * row while the decider's early drop settles most rows, otherwise (or from the row where it
   * stopped doing so) in two groups of columns.
   */
  private void decide(int count) {
    int from = settling ? settle(count) : 0;
    if (from == count) {
      return;
    }
    if (groups.length == 1) {
      read(0, from, count);
    } else { // a group's cursor is closed only once its thread is done with it
      BackgroundThreads.both(() -> read(0, from, count), () -> read(1, from, count));
    }
    for (int k = from; k < count; k++) {
      setProbed(k);
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
        Arrays.fill(values, from, count, null); // nothing kept alive until the next chunk
      }
    }
  }

  /**
   * Reads the rows from the first of the chunk, each up to the column that settles it, and hands
   * each to the decider; returns the index of the first row not read, which is {@code count} unless
   * too many rows needed every column (then the rest of the file is read in groups of columns).
   */
  private int settle(int count) {
    for (int k = 0; k < count; k++) {
      if (rowsSettling >= ProbeScan.SETTLE_SAMPLE && rowsUnsettled * 4 > rowsSettling) {
        settling = false;
        return k;
      }
      for (ParquetRowCursor cursor : groupCursors) {
        if (!cursor.moveTo(positions[k])) {
          throw missingRow(cursor, positions[k]);
        }
      }
      setProbed(k);
      int read = 0;
      boolean settled = false;
      while (read < settlePlaces.length && !settled) {
        int place = settlePlaces[read];
        Object value = groupCursors[settleGroups[read]].get(settleColumns[read]);
        row.set(place, value);
        settled = read >= firstSettling && earlyDrop.settles(row, place, value);
        read += 1;
      }
      for (int i = read; i < settlePlaces.length; i++) {
        row.set(settlePlaces[i], null); // not read: the row is dropped whatever they hold
      }
      rowsSettling += 1;
      if (!settled) {
        rowsUnsettled += 1;
      }
      if (decider.drop(row)) {
        sink.accept(row);
      } else if (settled) {
        throw new IllegalStateException("The row at position " + positions[k] + " of "
            + probeCursor.location() + " was kept, though a column of it settled that it is dropped");
      }
    }
    return count;
  }

  private void setProbed(int k) {
    for (int i = 0; i < probed.length; i++) {
      row.set(probed[i], probedValues[i][k]);
    }
  }

  /** One group's columns at the positions found, from the row at index {@code from}. */
  private void read(int group, int from, int count) {
    ParquetRowCursor cursor = groupCursors[group];
    Object[][] values = groupValues[group];
    for (int k = from; k < count; k++) {
      if (!cursor.moveTo(positions[k])) {
        throw missingRow(cursor, positions[k]);
      }
      for (int i = 0; i < values.length; i++) {
        values[i][k] = cursor.get(i);
      }
    }
  }

  private static IllegalStateException missingRow(ParquetRowCursor cursor, long position) {
    return new IllegalStateException("File " + cursor.location() + " has no row at position " + position
        + ", where the probe of its key columns found one");
  }

  @Override
  public void close() {
    probeCursor.close();
    if (groupCursors != null) {
      for (ParquetRowCursor cursor : groupCursors) {
        if (cursor != null) {
          cursor.close();
        }
      }
    }
  }
}
