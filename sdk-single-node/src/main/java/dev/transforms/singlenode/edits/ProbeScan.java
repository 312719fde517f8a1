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
      TwoPasses passes = TwoPasses.open(rows, probe, probed, decider);
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

  /** The cursors of a two-pass probe of one file (see the class comment). */
  private static final class TwoPasses implements AutoCloseable {
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
    private DroppedRows sink;

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

    private TwoPasses(LiveRows rows, RowChange.RowProbe probe, int[] probed, ParquetRowCursor probeCursor,
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
    static TwoPasses open(LiveRows rows, RowChange.RowProbe probe, int[] probed, RowChange.RowDecider decider) {
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
      TwoPasses passes = null;
      boolean done = false;
      try {
        passes = new TwoPasses(rows, probe, probed, probeCursor, others, decider);
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

    void run(DroppedRows sink) {
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
        if (rowsSettling >= SETTLE_SAMPLE && rowsUnsettled * 4 > rowsSettling) {
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
}
