package dev.transforms.singlenode.internal.parquet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Parquet's run-length / bit-packed hybrid encoding of small integers. */
final class Hybrid {
  private Hybrid() {}

  /** Eight bytes written at once into a byte array, least significant first. */
  private static final java.lang.invoke.VarHandle FLAG_BYTES =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** Per byte of eight one-bit levels, the eight flags (0 or 1) as the bytes of a long, bit 0 first. */
  private static final long[] SPREAD = new long[256];

  static {
    for (int flags = 0; flags < 256; flags++) {
      long spread = 0;
      for (int bit = 0; bit < 8; bit++) {
        spread |= (long) ((flags >>> bit) & 1) << (8 * bit);
      }
      SPREAD[flags] = spread;
    }
  }

  /**
   * The header of the run at a position (an unsigned varint: the run's length and kind), in the
   * high 32 bits, and the position after it, in the low 32 bits.
   *
   * @param decoded the values decoded before this run, and {@code count} all of them, for the
   *     message when the data ends early
   * @throws IllegalStateException if the data ends before the header
   */
  static long header(ByteBuffer buffer, int position, int end, int decoded, int count) {
    if (position >= end) {
      throw new IllegalStateException("Run-length encoded data ends after " + decoded + " of " + count + " values");
    }
    int header = 0;
    int shift = 0;
    int b;
    do {
      b = buffer.get(position++) & 0xFF;
      header |= (b & 0x7F) << shift;
      shift += 7;
    } while ((b & 0x80) != 0);
    return ((long) header << 32) | position;
  }

  /**
   * Decodes {@code count} one-bit values (a top-level optional column's definition levels) from
   * {@code buffer[start, end)} into flags, 0 or 1, at {@code out[offset]} onwards: a run-length run
   * is a fill, a bit-packed byte becomes eight flags at once, so {@code out} needs room for eight
   * flags past the last. Returns how many of the values are 1.
   */
  static int flags(ByteBuffer buffer, int start, int end, int count, byte[] out, int offset) {
    int position = start;
    int filled = 0;
    int present = 0;
    while (filled < count) {
      long read = header(buffer, position, end, filled, count);
      int header = (int) (read >>> 32);
      position = (int) read;
      if ((header & 1) == 0) {
        int value = buffer.get(position++) & 1;
        int until = Math.min(count, filled + (header >>> 1));
        java.util.Arrays.fill(out, offset + filled, offset + until, (byte) value);
        present += value * (until - filled);
        filled = until;
      } else {
        int bytes = header >>> 1; // eight one-bit values in each
        for (int i = 0; i < bytes && filled < count; i++) {
          int flags = buffer.get(position + i) & 0xFF;
          FLAG_BYTES.set(out, offset + filled, SPREAD[flags]);
          int rows = Math.min(8, count - filled);
          present += Integer.bitCount(flags & ((1 << rows) - 1));
          filled += rows;
        }
        position += bytes;
      }
    }
    return present;
  }

  /** The value of a run-length run, stored after its header in the fewest whole bytes, little-endian. */
  static int runValue(ByteBuffer buffer, int position, int width) {
    int value = 0;
    for (int i = 0; i < (width + 7) / 8; i++) {
      value |= (buffer.get(position + i) & 0xFF) << (8 * i);
    }
    return value;
  }

  /** Eight bytes read at once from a byte array, least significant first. */
  private static final java.lang.invoke.VarHandle WORD =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * Decodes {@code count} values of up to 32 bits each from {@code bytes[start, end)} into
   * {@code out}: a run-length run is a fill, bit-packed values are {@linkplain #unpack unpacked} by 8-byte
   * reads, shifts and masks.
   *
   * @throws IllegalStateException if the data ends before the values
   */
  static void decode(byte[] bytes, int start, int end, int width, int[] out, int count) {
    ByteBuffer headers = ByteBuffer.wrap(bytes);
    int position = start;
    int filled = 0;
    int valueBytes = (width + 7) / 8;
    while (filled < count) {
      long headed = header(headers, position, end, filled, count);
      int header = (int) (headed >>> 32);
      position = (int) headed;
      if ((header & 1) == 0) {
        if (position + valueBytes > end) {
          throw new IllegalStateException("Run-length encoded data ends inside a run's value");
        }
        int until = Math.min(count, filled + (header >>> 1));
        java.util.Arrays.fill(out, filled, until, runValue(headers, position, width));
        position += valueBytes;
        filled = until;
      } else {
        int until = Math.min(count, filled + (header >>> 1) * 8);
        int used = (int) (((long) (until - filled) * width + 7) / 8);
        if (position + used > end) {
          throw new IllegalStateException("Bit-packed data ends after " + filled + " of " + count + " values");
        }
        unpack(bytes, position, width, out, filled, until);
        position += (header >>> 1) * width;
        filled = until;
      }
    }
  }

  /**
   * Unpacks the bit-packed values {@code out[from, until)} from {@code bytes}, the first at {@code position}:
   * values of up to eight bits a group of eight from one 8-byte read, wider ones each from its own read,
   * the words read whole while they are within the array.
   */
  private static void unpack(byte[] bytes, int position, int width, int[] out, int from, int until) {
    long mask = (1L << width) - 1;
    int i = from;
    if (width <= 8) {
      // a group of eight values takes width bytes: one read while a whole word is there
      for (int at = position; i + 8 <= until && at + 8 <= bytes.length; i += 8, at += width) {
        long word = (long) WORD.get(bytes, at);
        for (int k = 0; k < 8; k++) {
          out[i + k] = (int) ((word >>> (k * width)) & mask);
        }
      }
    } else {
      long bit = 0;
      for (int at = position; i < until && at + 8 <= bytes.length; i++) {
        out[i] = (int) (((long) WORD.get(bytes, at) >>> (bit & 7)) & mask);
        bit += width;
        at = position + (int) (bit >>> 3);
      }
    }
    for (; i < until; i++) { // the last values, near the array's end
      long bit = (long) (i - from) * width;
      int at = position + (int) (bit >>> 3);
      long word = at + 8 <= bytes.length ? (long) WORD.get(bytes, at) : tail(bytes, at);
      out[i] = (int) ((word >>> (bit & 7)) & mask);
    }
  }

  /** The bytes from {@code at} to the end of the array as the low bytes of a word. */
  private static long tail(byte[] bytes, int at) {
    long word = 0;
    for (int i = 0; at + i < bytes.length && i < 8; i++) {
      word |= (long) (bytes[at + i] & 0xFF) << (8 * i);
    }
    return word;
  }

  /**
   * Decodes {@code count} values of {@code width} bits from {@code buffer[start, end)} into
   * {@code out}, through {@link #decode(byte[], int, int, int, int[], int)}: from the buffer's array,
   * or from a copy of the range when the buffer is direct.
   */
  static void decode(ByteBuffer buffer, int start, int end, int width, int[] out, int count) {
    if (buffer.hasArray()) {
      int offset = buffer.arrayOffset();
      decode(buffer.array(), offset + start, offset + end, width, out, count);
    } else {
      byte[] bytes = new byte[end - start];
      buffer.get(start, bytes);
      decode(bytes, 0, bytes.length, width, out, count);
    }
  }

  /**
   * Values of Parquet's run-length / bit-packed hybrid encoding read in ascending order of index,
   * decoded when first asked for: a run-length run is one value; a bit-packed run is unpacked eight
   * values at a time, only where a value is read. A cursor that skips most rows of a page (a row
   * edit reads a column only where a key matched) thus decodes few of its dictionary ids; one that
   * reads every row decodes each group of eight once, as a whole-page decode would.
   */
  static final class Lazy {
    private final ByteBuffer buffer;
    private final int end;
    private final int width;
    private final int count;
    private int position; // where the next run's header is
    private int runStart = 0; // the values [runStart, runEnd) are the current run's
    private int runEnd = 0;
    private boolean packed;
    private int runValue; // a run-length run's value
    private int runData; // where a bit-packed run's first group is
    private final int[] group = new int[8];
    private int groupStart = -1; // the index of group[0], or -1

    Lazy(ByteBuffer buffer, int start, int end, int width, int count) {
      this.buffer = buffer;
      this.position = start;
      this.end = end;
      this.width = width;
      this.count = count;
    }

    /** The value at an index, not before the index of the previous call. */
    int get(int index) {
      while (index >= runEnd) {
        nextRun();
      }
      if (!packed) {
        return runValue;
      }
      int start = runStart + ((index - runStart) & ~7);
      if (start != groupStart) {
        unpack(runData + ((start - runStart) >>> 3) * width);
        groupStart = start;
      }
      return group[index - start];
    }

    private void nextRun() {
      // a value past the page's last one is an error, as if the data ended there
      long read = header(buffer, runEnd < count ? position : end, end, runEnd, count);
      int header = (int) (read >>> 32);
      position = (int) read;
      runStart = runEnd;
      if ((header & 1) == 0) {
        packed = false;
        runValue = runValue(buffer, position, width);
        position += (width + 7) / 8;
        runEnd = runStart + (header >>> 1);
      } else {
        packed = true;
        runData = position;
        int groups = header >>> 1;
        position += groups * width;
        runEnd = runStart + groups * 8;
      }
    }

    /** The eight values of the group packed at a byte offset, into {@link #group}. */
    private void unpack(int at) {
      long mask = (1L << width) - 1;
      long bits = 0;
      int available = 0;
      int read = at;
      for (int i = 0; i < 8; i++) {
        while (available < width) {
          bits |= (long) (read < end ? buffer.get(read) & 0xFF : 0) << available;
          read += 1;
          available += 8;
        }
        group[i] = (int) (bits & mask);
        bits >>>= width;
        available -= width;
      }
    }
  }
}
