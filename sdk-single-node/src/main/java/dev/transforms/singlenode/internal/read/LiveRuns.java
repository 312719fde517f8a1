package dev.transforms.singlenode.internal.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.deletes.PositionDeleteIndex;

/**
 * The live rows of data files read one after the other, as runs of rows between the positions their
 * position deletes and deletion vectors remove: the deletes are loaded before a native reader decodes
 * the files ({@link #of}), and the root it decoded is cut to the runs afterwards, in place
 * ({@link #keep}), so a merge-on-read snapshot reads through the same fast path as a copy-on-write one.
 *
 * @param starts the first row of each run, in the rows of the files one after the other
 * @param rows the live rows, every run's
 */
public record LiveRuns(int[] starts, int[] ends, int rows) {

  /**
   * Loads the deleted positions of the files and finds the runs of live rows.
   *
   * @param table the table, for its file IO and schema
   * @param fileRows the rows of each file, before deletes
   * @param deleted the scan tasks of the files that have deletes, by their index in {@code fileRows}
   * @return the runs; null when the files hold more rows than one root does
   */
  public static LiveRuns of(Table table, Schema columns, long[] fileRows, Map<Integer, FileScanTask> deleted) {
    List<int[]> runs = new ArrayList<>();
    long first = 0;
    int live = 0;
    for (int file = 0; file < fileRows.length; file++) {
      long rows = fileRows[file];
      if (first + rows >= Integer.MAX_VALUE) {
        return null;
      }
      FileScanTask task = deleted.get(file);
      long[] positions = sorted(task == null ? null
          : LiveRows.of(table.io(), table.schema(), task, columns).deletedPositions(), 0, Long.MAX_VALUE);
      long from = 0;
      for (int d = 0; d <= positions.length; d++) {
        long to = d < positions.length ? Math.min(positions[d], rows) : rows;
        if (to > from) {
          int[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
          if (last != null && last[1] == first + from) {
            last[1] = (int) (first + to); // goes on from the run before, of this file or the one before
          } else {
            runs.add(new int[] {(int) (first + from), (int) (first + to)});
          }
          live += (int) (to - from);
        }
        from = d < positions.length ? Math.max(from, positions[d] + 1) : rows;
      }
      first += rows;
    }
    return new LiveRuns(runs.stream().mapToInt(run -> run[0]).toArray(),
        runs.stream().mapToInt(run -> run[1]).toArray(), live);
  }

  /**
   * The positions of an index in {@code [from, to)}, sorted.
   *
   * @param positions the index; null for none
   * @param to the position after the last one kept
   */
  public static long[] sorted(PositionDeleteIndex positions, long from, long to) {
    if (positions == null) {
      return new long[0];
    }
    long[] sorted = new long[Math.toIntExact(positions.cardinality())];
    int[] count = {0};
    positions.forEach(position -> {
      if (position >= from && position < to) {
        sorted[count[0]++] = position;
      }
    });
    long[] inRange = count[0] == sorted.length ? sorted : java.util.Arrays.copyOf(sorted, count[0]);
    java.util.Arrays.sort(inRange);
    return inRange;
  }

  /**
   * Cuts a root to the rows of the runs, in place: each run's values move down to follow the run before
   * (one memory move per run, and per row for the offsets of strings and binary), so no memory is
   * allocated and touched anew.
   *
   * @param decoded every row of the files, one file after the other
   * @return the same root, holding the live rows
   * @throws IllegalArgumentException if a column is not of a flat type
   */
  public VectorSchemaRoot keep(VectorSchemaRoot decoded) {
    if (rows == decoded.getRowCount()) {
      return decoded;
    }
    for (FieldVector vector : decoded.getFieldVectors()) {
      byte[] validity = vector.getNullCount() == 0 ? null : compacted(vector.getValidityBufferAddress());
      if (vector instanceof BaseVariableWidthVector variable) {
        long offsets = variable.getOffsetBufferAddress();
        long data = variable.getDataBufferAddress();
        int at = 0;
        int written = 0;
        for (int r = 0; r < starts.length; r++) {
          int base = MemoryUtil.getInt(offsets + 4L * starts[r]);
          int length = MemoryUtil.getInt(offsets + 4L * ends[r]) - base;
          MemoryUtil.copyMemory(data + base, data + written, length); // down: a move that overlaps is safe
          for (int row = starts[r]; row < ends[r]; row++) {
            MemoryUtil.putInt(offsets + 4L * ++at, written + MemoryUtil.getInt(offsets + 4L * (row + 1)) - base);
          }
          written += length;
        }
        variable.setLastSet(rows - 1);
      } else if (vector instanceof BitVector bits) {
        byte[] values = compacted(bits.getDataBufferAddress());
        MemoryUtil.copyToMemory(values, 0, bits.getDataBufferAddress(), values.length);
      } else if (vector instanceof BaseFixedWidthVector fixed) {
        int width = fixed.getTypeWidth();
        long data = fixed.getDataBufferAddress();
        long at = 0;
        for (int r = 0; r < starts.length; r++) {
          MemoryUtil.copyMemory(data + (long) starts[r] * width, data + at * width, (long) (ends[r] - starts[r]) * width);
          at += ends[r] - starts[r];
        }
      } else {
        throw new IllegalArgumentException("Cannot cut column " + vector.getField() + " to its live rows");
      }
      long valid = vector.getValidityBufferAddress();
      if (validity == null) {
        MemoryUtil.setMemory(valid, (rows + 7) / 8, (byte) 0xFF);
      } else {
        MemoryUtil.copyToMemory(validity, 0, valid, (rows + 7) / 8);
      }
      vector.setValueCount(rows);
    }
    decoded.setRowCount(rows);
    return decoded;
  }

  /** The bits of the runs' rows in a bit map at {@code source}, one after the other in a new bit map. */
  private byte[] compacted(long source) {
    byte[] out = new byte[(rows + 7) / 8 + 1];
    int to = 0;
    for (int r = 0; r < starts.length; r++) {
      int from = starts[r];
      int count = ends[r] - from;
      int i = 0;
      for (; i < count && ((to + i) & 7) != 0; i++) {
        copyBit(source, from + i, out, to + i);
      }
      int shift = (from + i) & 7;
      for (; i + 8 <= count; i += 8) { // eight bits at once, from one or two source bytes
        long at = source + ((from + i) >>> 3);
        int low = MemoryUtil.getByte(at) & 0xFF;
        int high = shift == 0 ? 0 : MemoryUtil.getByte(at + 1) & 0xFF;
        out[(to + i) >>> 3] = (byte) ((low >>> shift) | (high << (8 - shift)));
      }
      for (; i < count; i++) {
        copyBit(source, from + i, out, to + i);
      }
      to += count;
    }
    return out;
  }

  private static void copyBit(long source, int from, byte[] out, int to) {
    if ((MemoryUtil.getByte(source + (from >>> 3)) >>> (from & 7) & 1) != 0) {
      out[to >>> 3] |= (byte) (1 << (to & 7));
    }
  }

  @Override
  public String toString() {
    return String.format("%,d live rows in %,d runs", rows, starts.length);
  }
}
