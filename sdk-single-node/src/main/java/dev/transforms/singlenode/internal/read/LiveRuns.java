package dev.transforms.singlenode.internal.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
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
 * the files ({@link #of}), and the root it decoded is cut to the runs afterwards ({@link #keep}), so a
 * merge-on-read snapshot reads through the same fast paths as a copy-on-write one. Cutting copies each
 * run's values with one memory copy per run (and per row for the offsets of strings and binary).
 *
 * @param starts the first row of each run, in the rows of the files one after the other
 * @param ends the row after each run
 * @param rows the live rows, every run's
 */
public record LiveRuns(int[] starts, int[] ends, int rows) {

  /**
   * Loads the deleted positions of the files and finds the runs of live rows.
   *
   * @param table the table, for its file IO and schema
   * @param columns the columns read
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
          : LiveRows.of(table.io(), table.schema(), task, columns).deletedPositions());
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

  private static long[] sorted(PositionDeleteIndex positions) {
    if (positions == null) {
      return new long[0];
    }
    long[] sorted = new long[Math.toIntExact(positions.cardinality())];
    int[] count = {0};
    positions.forEach(position -> sorted[count[0]++] = position);
    java.util.Arrays.sort(sorted);
    return sorted;
  }

  /**
   * The rows of the runs, in a new root; the root given is closed. A root whose rows are all live is
   * returned as it is.
   *
   * @param decoded every row of the files, one file after the other
   * @param allocator where the new root's memory is accounted
   * @return the live rows
   * @throws IllegalArgumentException if a column is not of a flat type
   */
  public VectorSchemaRoot keep(VectorSchemaRoot decoded, BufferAllocator allocator) {
    if (rows == decoded.getRowCount()) {
      return decoded;
    }
    try (decoded) {
      List<FieldVector> kept = new ArrayList<>();
      try {
        for (FieldVector vector : decoded.getFieldVectors()) {
          kept.add(keep(vector, allocator));
        }
        return new VectorSchemaRoot(decoded.getSchema().getFields(), kept, rows);
      } catch (RuntimeException | Error e) {
        kept.forEach(FieldVector::close);
        throw e;
      }
    }
  }

  private FieldVector keep(FieldVector from, BufferAllocator allocator) {
    FieldVector to = from.getField().createVector(allocator);
    try {
      int capacity = Math.max(1, rows);
      if (from instanceof BaseVariableWidthVector source && to instanceof BaseVariableWidthVector target) {
        long bytes = 0;
        for (int r = 0; r < starts.length; r++) {
          bytes += source.getStartOffset(ends[r]) - source.getStartOffset(starts[r]);
        }
        target.allocateNew(Math.max(1, bytes), capacity);
        long offsets = target.getOffsetBufferAddress();
        int at = 0;
        int written = 0;
        for (int r = 0; r < starts.length; r++) {
          int base = source.getStartOffset(starts[r]);
          int length = source.getStartOffset(ends[r]) - base;
          MemoryUtil.copyMemory(source.getDataBufferAddress() + base, target.getDataBufferAddress() + written, length);
          for (int row = starts[r]; row < ends[r]; row++) {
            MemoryUtil.putInt(offsets + 4L * ++at, written + source.getStartOffset(row + 1) - base);
          }
          written += length;
        }
        copyValidity(from, to);
        target.setLastSet(rows - 1);
      } else if (from instanceof BaseFixedWidthVector source && to instanceof BaseFixedWidthVector target) {
        target.allocateNew(capacity);
        int width = source.getTypeWidth();
        int at = 0;
        for (int r = 0; r < starts.length; r++) {
          int count = ends[r] - starts[r];
          if (source instanceof BitVector) {
            copyBits(source.getDataBufferAddress(), starts[r], target.getDataBufferAddress(), at, count);
          } else {
            MemoryUtil.copyMemory(source.getDataBufferAddress() + (long) starts[r] * width,
                target.getDataBufferAddress() + (long) at * width, (long) count * width);
          }
          at += count;
        }
        copyValidity(from, to);
      } else {
        throw new IllegalArgumentException("Cannot cut column " + from.getField() + " to its live rows");
      }
      to.setValueCount(rows);
      return to;
    } catch (RuntimeException | Error e) {
      to.close();
      throw e;
    }
  }

  private void copyValidity(FieldVector from, FieldVector to) {
    long target = to.getValidityBufferAddress();
    if (from.getNullCount() == 0) {
      MemoryUtil.setMemory(target, (rows + 7) / 8, (byte) 0xFF);
      return;
    }
    int at = 0;
    for (int r = 0; r < starts.length; r++) {
      copyBits(from.getValidityBufferAddress(), starts[r], target, at, ends[r] - starts[r]);
      at += ends[r] - starts[r];
    }
  }

  /** Copies {@code count} bits from bit {@code from} at {@code source} to bit {@code to} at {@code target}, zeroed. */
  static void copyBits(long source, int from, long target, int to, int count) {
    int i = 0;
    for (; i < count && ((to + i) & 7) != 0; i++) {
      copyBit(source, from + i, target, to + i);
    }
    int shift = (from + i) & 7;
    if (shift == 0) {
      int bytes = (count - i) >>> 3;
      MemoryUtil.copyMemory(source + ((from + i) >>> 3), target + ((to + i) >>> 3), bytes);
      i += bytes << 3;
    } else {
      for (; i + 8 <= count; i += 8) {
        long at = source + ((from + i) >>> 3);
        int low = MemoryUtil.getByte(at) & 0xFF;
        int high = MemoryUtil.getByte(at + 1) & 0xFF;
        MemoryUtil.putByte(target + ((to + i) >>> 3), (byte) ((low >>> shift) | (high << (8 - shift))));
      }
    }
    for (; i < count; i++) {
      copyBit(source, from + i, target, to + i);
    }
  }

  private static void copyBit(long source, int from, long target, int to) {
    if ((MemoryUtil.getByte(source + (from >>> 3)) >>> (from & 7) & 1) != 0) {
      long at = target + (to >>> 3);
      MemoryUtil.putByte(at, (byte) (MemoryUtil.getByte(at) | 1 << (to & 7)));
    }
  }

  @Override
  public String toString() {
    return String.format("%,d live rows in %,d runs", rows, starts.length);
  }
}
