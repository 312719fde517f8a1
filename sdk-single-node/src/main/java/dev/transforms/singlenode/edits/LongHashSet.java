package dev.transforms.singlenode.edits;

/**
 * A set of longs without boxing: open addressing with linear probing, at most half full, behind a
 * small bitmap of hashes. Row edits use it to test the integral join key of every table row against
 * the source's keys; most table rows match none, and the bitmap, small enough to stay in the
 * processor's first-level cache, answers most of those lookups without touching the table.
 */
final class LongHashSet {
  private static final long EMPTY = Long.MIN_VALUE;

  /** The most bits of the bitmap: 16 KiB. */
  private static final int MAX_BITMAP_BITS = 1 << 17;

  private final long[] slots;
  private final int mask;
  private final long[] bitmap; // bit (hash >>> bitmapShift) is set for every value in the set
  private final int bitmapShift;
  private boolean hasEmptyValue;

  /** Creates a set with room for {@code expected} values. */
  LongHashSet(int expected) {
    int capacity = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1;
    this.slots = new long[capacity];
    this.mask = capacity - 1;
    java.util.Arrays.fill(slots, EMPTY);
    int bitmapBits = Math.max(64, Math.min(MAX_BITMAP_BITS, capacity * 4));
    this.bitmap = new long[bitmapBits / 64];
    this.bitmapShift = 64 - Integer.numberOfTrailingZeros(bitmapBits);
  }

  void add(long value) {
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
