package dev.transforms.singlenode.edits;

/**
 * A set of longs without boxing, built once. Row edits use it to test the integral join key of every
 * table row against the source's keys; most table rows match none.
 *
 * <p>Keys that lie close together (a range of at most {@value #DENSE_BITS_PER_VALUE} times as many
 * numbers as there are keys, or of a million) are held as one bit per number of their range: a test
 * is a subtraction and a bit, and a table whose keys ascend reads the bits in order. Other keys are
 * held by open addressing with linear probing, at most half full, behind a small bitmap of hashes,
 * small enough to stay in the processor's first-level cache, that answers most tests of absent keys
 * without touching the table.
 */
final class LongHashSet {
  private static final long EMPTY = Long.MIN_VALUE;

  /** The most bits of the hash bitmap: 16 KiB. */
  private static final int MAX_BITMAP_BITS = 1 << 17;

  /** Keys whose range spans at most this many numbers per key are held as bits of the range. */
  static final int DENSE_BITS_PER_VALUE = 128;

  /** A range of this many numbers or fewer is held as bits whatever the number of keys (128 KiB). */
  private static final long DENSE_MIN_BITS = 1L << 20;

  // dense: one bit per number of [min, min + range)
  private final long min;
  private final long range;
  private final long[] bits;

  // otherwise hashed
  private final long[] slots;
  private final int mask;
  private final long[] bitmap; // bit (hash >>> bitmapShift) is set for every value in the set
  private final int bitmapShift;
  private boolean hasEmptyValue;

  /** The set of the given values (which may repeat). */
  static LongHashSet of(long[] values) {
    if (values.length == 0) {
      return new LongHashSet(0, 0, new long[0]);
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (long value : values) {
      min = Math.min(min, value);
      max = Math.max(max, value);
    }
    long span = max - min; // negative when it overflows
    long limit = Math.max(DENSE_MIN_BITS, (long) DENSE_BITS_PER_VALUE * values.length);
    if (span >= 0 && span < limit) {
      long range = span + 1;
      long[] bits = new long[(int) ((range + 63) >>> 6)];
      for (long value : values) {
        long offset = value - min;
        bits[(int) (offset >>> 6)] |= 1L << offset;
      }
      return new LongHashSet(min, range, bits);
    }
    LongHashSet set = new LongHashSet(values.length);
    for (long value : values) {
      set.add(value);
    }
    return set;
  }

  private LongHashSet(long min, long range, long[] bits) {
    this.min = min;
    this.range = range;
    this.bits = bits;
    this.slots = null;
    this.mask = 0;
    this.bitmap = null;
    this.bitmapShift = 0;
  }

  private LongHashSet(int expected) {
    this.min = 0;
    this.range = 0;
    this.bits = null;
    int capacity = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1;
    this.slots = new long[capacity];
    this.mask = capacity - 1;
    java.util.Arrays.fill(slots, EMPTY);
    int bitmapBits = Math.max(64, Math.min(MAX_BITMAP_BITS, capacity * 4));
    this.bitmap = new long[bitmapBits / 64];
    this.bitmapShift = 64 - Integer.numberOfTrailingZeros(bitmapBits);
  }

  /** Whether the set holds its values as bits of their range. */
  boolean isDense() {
    return bits != null;
  }

  private void add(long value) {
    if (value == EMPTY) {
      hasEmptyValue = true;
      return;
    }
    long hash = hash(value);
    int slot = (int) hash & mask;
    while (slots[slot] != EMPTY) {
      if (slots[slot] == value) {
        return;
      }
      slot = (slot + 1) & mask;
    }
    slots[slot] = value;
    int bit = (int) (hash >>> bitmapShift);
    bitmap[bit >>> 6] |= 1L << bit;
  }

  boolean contains(long value) {
    if (bits != null) {
      long offset = value - min; // below min or past the range: at least range, unsigned
      return Long.compareUnsigned(offset, range) < 0 && (bits[(int) (offset >>> 6)] & (1L << offset)) != 0;
    }
    if (value == EMPTY) {
      return hasEmptyValue;
    }
    long hash = hash(value);
    int bit = (int) (hash >>> bitmapShift);
    if ((bitmap[bit >>> 6] & (1L << bit)) == 0) {
      return false;
    }
    int slot = (int) hash & mask;
    long found;
    while ((found = slots[slot]) != EMPTY) {
      if (found == value) {
        return true;
      }
      slot = (slot + 1) & mask;
    }
    return false;
  }

  /** A well-mixed hash: slots use its low bits, the bitmap its high bits. */
  private static long hash(long value) {
    long h = value * 0x9E3779B97F4A7C15L;
    return h ^ (h >>> 29);
  }
}
