package dev.transforms.singlenode.internal.checks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Counts the keys seen more than once: the rows in duplicate-key groups and the groups themselves.
 *
 * <p>Keys of a single {@code long} or {@code int} column are held as primitive longs, in one of two
 * ways. Counting every key of a table ({@link #sorting}) appends them to an array and sorts it once at
 * the end: a million keys cost a sort of 8 MB, which stays in cache far better than a hash table of
 * the same keys probed at random. A set that is asked whether it holds a key ({@link #hashing}: the
 * keys an incremental build appended) is an open-addressing hash table. Keys of other types or of
 * several columns are held as objects in a hash set.
 */
final class KeyCounts {
  private static final long EMPTY = Long.MIN_VALUE;

  private long[] slots;
  /** Whether long keys are appended to {@link #sorted} and sorted at the end, instead of hashed. */
  private final boolean sorting;
  private long[] sorted;
  private int sortedSize = 0;
  private boolean finished = false;
  private int used = 0;
  private boolean sawEmptyValue = false;
  private final Set<Object> objects = new HashSet<>();
  /** Keys seen more than once, with their count, in the order they were found. */
  private final Map<Object, Long> duplicates = new LinkedHashMap<>();

  private KeyCounts(boolean sorting, long expectedKeys) {
    this.sorting = sorting;
    if (sorting) {
      sorted = new long[(int) Math.max(1 << 10, Math.min(expectedKeys, Integer.MAX_VALUE - 16))];
      slots = new long[0];
    } else {
      int capacity = 1 << 12;
      while (capacity < (1 << 30) && capacity < expectedKeys * 2) {
        capacity <<= 1;
      }
      slots = new long[capacity];
      Arrays.fill(slots, EMPTY);
    }
  }

  /**
   * Counts for the keys of a whole table, which are only counted, never looked up.
   *
   * @param expectedKeys how many keys are expected (more are taken, at the cost of growing)
   */
  static KeyCounts sorting(long expectedKeys) {
    return new KeyCounts(true, expectedKeys);
  }

  /**
   * Counts for keys that are also looked up with {@code contains}.
   *
   * @param expectedKeys how many keys are expected (more are taken, at the cost of growing)
   */
  static KeyCounts hashing(long expectedKeys) {
    return new KeyCounts(false, expectedKeys);
  }

  /** Adds a key. */
  void add(long key) {
    if (sorting) {
      if (sortedSize == sorted.length) {
        sorted = Arrays.copyOf(sorted, (int) Math.min(Integer.MAX_VALUE - 16, sorted.length * 2L));
      }
      sorted[sortedSize++] = key;
      return;
    }
    if (!insert(key)) {
      duplicates.merge(key, 1L, Long::sum);
    }
  }

  /** Adds a key of any type: a value, or the list of values of a key of several columns. */
  void add(Object key) {
    if (!objects.add(key)) {
      duplicates.merge(key, 1L, Long::sum);
    }
  }

  /**
   * Whether a {@code long} key was added.
   *
   * @return whether it was seen
   */
  boolean contains(long key) {
    if (sorting) {
      throw new IllegalStateException("keys counted by sorting are not looked up");
    }
    if (key == EMPTY) {
      return sawEmptyValue;
    }
    int mask = slots.length - 1;
    for (int i = slot(key, mask); ; i = (i + 1) & mask) {
      if (slots[i] == key) {
        return true;
      }
      if (slots[i] == EMPTY) {
        return false;
      }
    }
  }

  /**
   * Whether an object key was added.
   *
   * @return whether it was seen
   */
  boolean contains(Object key) {
    return objects.contains(key);
  }

  /** The rows in duplicate-key groups: each key seen {@code n > 1} times counts {@code n}. */
  long duplicateRows() {
    finish();
    long rows = 0;
    for (long extra : duplicates.values()) {
      rows += extra + 1;
    }
    return rows;
  }

  /** Up to {@code limit} duplicated keys with their counts, as {@code [key values..., count]}. */
  List<String> examples(int limit) {
    finish();
    List<String> examples = new ArrayList<>();
    for (Map.Entry<Object, Long> entry : duplicates.entrySet()) {
      if (examples.size() == limit) {
        break;
      }
      List<Object> values = new ArrayList<>();
      if (entry.getKey() instanceof List<?> list) {
        values.addAll(list);
      } else {
        values.add(entry.getKey());
      }
      values.add(entry.getValue() + 1);
      examples.add(StagedChecks.describe(values));
    }
    return examples;
  }

  /** Sorts the appended long keys once and records the runs of equal keys as duplicates. */
  private void finish() {
    if (!sorting || finished) {
      return;
    }
    finished = true;
    Arrays.sort(sorted, 0, sortedSize);
    int i = 0;
    while (i < sortedSize) {
      int end = i + 1;
      while (end < sortedSize && sorted[end] == sorted[i]) {
        end += 1;
      }
      if (end - i > 1) {
        duplicates.put(sorted[i], (long) (end - i - 1));
      }
      i = end;
    }
    sorted = null;
  }

  /** Inserts a long key; false when it was there already. */
  private boolean insert(long key) {
    if (key == EMPTY) {
      boolean first = !sawEmptyValue;
      sawEmptyValue = true;
      return first;
    }
    if (used * 2 >= slots.length) {
      grow();
    }
    int mask = slots.length - 1;
    for (int i = slot(key, mask); ; i = (i + 1) & mask) {
      if (slots[i] == key) {
        return false;
      }
      if (slots[i] == EMPTY) {
        slots[i] = key;
        used += 1;
        return true;
      }
    }
  }

  private void grow() {
    long[] old = slots;
    slots = new long[old.length * 2];
    Arrays.fill(slots, EMPTY);
    int mask = slots.length - 1;
    for (long key : old) {
      if (key != EMPTY) {
        int i = slot(key, mask);
        while (slots[i] != EMPTY) {
          i = (i + 1) & mask;
        }
        slots[i] = key;
      }
    }
  }

  private static int slot(long key, int mask) {
    long mixed = key * 0x9E3779B97F4A7C15L;
    return (int) (mixed ^ (mixed >>> 32)) & mask;
  }

}
