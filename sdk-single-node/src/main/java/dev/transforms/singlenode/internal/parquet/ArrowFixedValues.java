package dev.transforms.singlenode.internal.parquet;

import dev.transforms.singlenode.internal.parquet.ArrowChunk.Dictionary;
import dev.transforms.singlenode.internal.parquet.ArrowChunk.Kind;
import dev.transforms.singlenode.internal.parquet.ArrowColumnPages.Part;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Writes a page's fixed-width values (ints, longs, floats, doubles, dates, timestamps, decimals, fixed-length
 * bytes) straight into the column's vector, plain or looked up in the chunk's dictionary, a null's value as
 * zeros: a loop for each kind, so that none decides per value how to store it, and, in pages with nulls, no
 * branch on a row's flag.
 */
final class ArrowFixedValues {

  private ArrowFixedValues() {}

  /** Writes a page's plain fixed-width values into the vector: copied whole when the page has no nulls. */
  static void plain(byte[] page, int position, int end, int count, int present, byte[] flags,
      ArrowChunk chunk, Part part) {
    Kind kind = chunk.kind;
    if ((long) present * chunk.stored > end - position) {
      throw new IllegalStateException("A page of column " + chunk.descriptor + " of " + chunk.file + " holds "
          + (end - position) + " bytes for " + present + " values of " + chunk.stored);
    }
    long at = part.valuesAt + (long) part.rows * chunk.width;
    if (flags == null && chunk.stored == chunk.width) {
      MemoryUtil.copyToMemory(page, position, at, (long) count * chunk.width);
      return;
    }
    if (flags != null && kind != Kind.FIXED_BYTES && kind != Kind.DECIMAL_FROM_BYTES) {
      plainWithNulls(page, position, count, present, flags, chunk, part, at);
      return;
    }
    int row = part.rows;
    // a loop for each kind, so that none decides per value how to store it
    switch (kind) {
      case FOUR -> {
        for (int i = 0; i < count; i++, at += 4) {
          if (flags == null || flags[row + i] != 0) {
            MemoryUtil.putInt(at, (int) ArrowColumnPages.INT.get(page, position));
            position += 4;
          } else {
            MemoryUtil.putInt(at, 0);
          }
        }
      }
      case EIGHT -> {
        for (int i = 0; i < count; i++, at += 8) {
          if (flags == null || flags[row + i] != 0) {
            MemoryUtil.putLong(at, (long) ArrowColumnPages.LONG.get(page, position));
            position += 8;
          } else {
            MemoryUtil.putLong(at, 0);
          }
        }
      }
      case DECIMAL_FROM_INT -> {
        for (int i = 0; i < count; i++, at += 16) {
          if (flags == null || flags[row + i] != 0) {
            putDecimal(at, (int) ArrowColumnPages.INT.get(page, position));
            position += 4;
          } else {
            putDecimal(at, 0);
          }
        }
      }
      case DECIMAL_FROM_LONG -> {
        for (int i = 0; i < count; i++, at += 16) {
          if (flags == null || flags[row + i] != 0) {
            putDecimal(at, (long) ArrowColumnPages.LONG.get(page, position));
            position += 8;
          } else {
            putDecimal(at, 0);
          }
        }
      }
      default -> { // fixed-length bytes
        for (int i = 0; i < count; i++, at += chunk.width) {
          if (flags == null || flags[row + i] != 0) {
            putBytes(at, page, position, chunk);
            position += chunk.stored;
          } else {
            MemoryUtil.setMemory(at, chunk.width, (byte) 0);
          }
        }
      }
    }
  }

  /**
   * Plain ints, longs and decimals of a page with nulls, the flags of its rows in {@code flags}: each row
   * reads the next value and keeps it or zero by its flag (0 or 1), which moves the position on or not,
   * with no branch on the flag. A null reads the value after the last when there is one, or the last again.
   */
  static void plainWithNulls(byte[] page, int position, int count, int present, byte[] flags, ArrowChunk chunk,
      Part part, long at) {
    if (present == 0) {
      MemoryUtil.setMemory(at, (long) count * chunk.width, (byte) 0);
      return;
    }
    int row = part.rows;
    int last = page.length - chunk.stored; // not before position: the page holds the present values
    switch (chunk.kind) {
      case FOUR -> {
        for (int i = 0; i < count; i++, at += 4) {
          int flag = flags[row + i];
          MemoryUtil.putInt(at, (int) ArrowColumnPages.INT.get(page, Math.min(position, last)) & -flag);
          position += 4 & -flag;
        }
      }
      case EIGHT -> {
        for (int i = 0; i < count; i++, at += 8) {
          int flag = flags[row + i];
          MemoryUtil.putLong(at, (long) ArrowColumnPages.LONG.get(page, Math.min(position, last)) & -(long) flag);
          position += 8 & -flag;
        }
      }
      case DECIMAL_FROM_INT -> {
        for (int i = 0; i < count; i++, at += 16) {
          int flag = flags[row + i];
          putDecimal(at, (int) ArrowColumnPages.INT.get(page, Math.min(position, last)) & -flag);
          position += 4 & -flag;
        }
      }
      case DECIMAL_FROM_LONG -> {
        for (int i = 0; i < count; i++, at += 16) {
          int flag = flags[row + i];
          putDecimal(at, (long) ArrowColumnPages.LONG.get(page, Math.min(position, last)) & -(long) flag);
          position += 8 & -flag;
        }
      }
      default -> throw new IllegalArgumentException("not a plain int, long or decimal: " + chunk.kind);
    }
  }

  /** A fixed-length value: its bytes as they are, or a big-endian decimal as Arrow's 16 little-endian bytes. */
  static void putBytes(long at, byte[] from, int position, ArrowChunk chunk) {
    if (chunk.kind == Kind.FIXED_BYTES) {
      MemoryUtil.copyToMemory(from, position, at, chunk.stored);
      return;
    }
    byte sign = from[position] < 0 ? (byte) -1 : 0;
    for (int i = 0; i < 16; i++) {
      MemoryUtil.putByte(at + i, i < chunk.stored ? from[position + chunk.stored - 1 - i] : sign);
    }
  }

  /**
   * Writes dictionary-encoded fixed-width values, each looked up by its id: a loop for each kind, with no
   * test of a row's flag in the loops of a page without nulls.
   */
  static void dictionary(int[] ids, int count, int present, byte[] flags, Dictionary dictionary,
      ArrowChunk chunk, Part part) {
    long at = part.valuesAt + (long) part.rows * chunk.width;
    long[] values = dictionary.values();
    if (values == null) {
      dictionaryBytes(ids, count, flags, dictionary, chunk, part, at);
      return;
    } else if (flags != null) {
      dictionaryWithNulls(ids, count, present, flags, values, chunk, part, at);
      return;
    }
    switch (chunk.kind) {
      case FOUR -> {
        for (int i = 0; i < count; i++) {
          MemoryUtil.putInt(at + 4L * i, (int) values[ids[i]]);
        }
      }
      case EIGHT -> {
        for (int i = 0; i < count; i++) {
          MemoryUtil.putLong(at + 8L * i, values[ids[i]]);
        }
      }
      default -> { // decimals stored as ints or longs
        for (int i = 0; i < count; i++) {
          putDecimal(at + 16L * i, values[ids[i]]);
        }
      }
    }
  }

  /** Dictionary-encoded fixed-length bytes and decimals stored as bytes, a null's value as zeros. */
  private static void dictionaryBytes(int[] ids, int count, byte[] flags, Dictionary dictionary, ArrowChunk chunk,
      Part part, long at) {
    int row = part.rows;
    int next = 0;
    for (int i = 0; i < count; i++, at += chunk.width) {
      if (flags == null || flags[row + i] != 0) {
        putBytes(at, dictionary.bytes(), dictionary.starts()[ids[next++]], chunk);
      } else {
        MemoryUtil.setMemory(at, chunk.width, (byte) 0);
      }
    }
  }

  /**
   * Dictionary-encoded ints, longs and decimals of a page with nulls: each row looks up the next id's
   * value and keeps it or zero by its flag (0 or 1), which moves on to the next id or not, with no branch
   * on the flag; the place after the last id holds a valid id ({@link ArrowPageDecoding#ids}).
   */
  static void dictionaryWithNulls(int[] ids, int count, int present, byte[] flags, long[] values,
      ArrowChunk chunk, Part part, long at) {
    if (present == 0) {
      MemoryUtil.setMemory(at, (long) count * chunk.width, (byte) 0);
      return;
    }
    int row = part.rows;
    int next = 0;
    switch (chunk.kind) {
      case FOUR -> {
        for (int i = 0; i < count; i++, at += 4) {
          int flag = flags[row + i];
          MemoryUtil.putInt(at, (int) values[ids[next]] & -flag);
          next += flag;
        }
      }
      case EIGHT -> {
        for (int i = 0; i < count; i++, at += 8) {
          int flag = flags[row + i];
          MemoryUtil.putLong(at, values[ids[next]] & -(long) flag);
          next += flag;
        }
      }
      case DECIMAL_FROM_INT, DECIMAL_FROM_LONG -> {
        for (int i = 0; i < count; i++, at += 16) {
          int flag = flags[row + i];
          putDecimal(at, values[ids[next]] & -(long) flag);
          next += flag;
        }
      }
      default -> throw new IllegalArgumentException("not an int, long or decimal: " + chunk.kind);
    }
  }

  /** An unscaled decimal as Arrow's 16 bytes, little-endian: the value, then its sign through the high half. */
  static void putDecimal(long at, long unscaled) {
    MemoryUtil.putLong(at, unscaled);
    MemoryUtil.putLong(at + 8, unscaled >> 63);
  }
}
