package dev.transforms.singlenode.edits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LongHashSetTest {
  @Test
  void answersLikeAHashSet() {
    Random random = new Random(11);
    for (int size : new int[] {0, 1, 7, 1_000, 20_000}) {
      long[] values = new long[size * 2 + 1];
      Set<Long> model = new HashSet<>();
      for (int i = 0; i < size; i++) {
        long value = random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(size * 4 + 1) * 200L;
        values[2 * i] = value;
        values[2 * i + 1] = value; // twice: still once
        model.add(value);
      }
      values[2 * size] = Long.MIN_VALUE; // the value the hash table uses for empty slots
      model.add(Long.MIN_VALUE);
      LongHashSet set = LongHashSet.of(values);
      if (size >= 1_000) {
        assertThat(set.isDense()).as("keys spread over all longs").isFalse();
      }
      assertSame(set, model, -1_000, size * 1_000L);
    }
  }

  @Test
  void keysCloseTogetherAreHeldAsBitsOfTheirRange() {
    Random random = new Random(12);
    long[][] shapes = {
      {0, 1_000_000}, // ascending ids, the range of a million
      {-5_000, 5_000}, // around zero
      {Long.MAX_VALUE - 3_000, Long.MAX_VALUE}, // at the top of the longs
      {Long.MIN_VALUE, Long.MIN_VALUE + 3_000}, // at the bottom, the hash table's empty value among them
    };
    for (long[] shape : shapes) {
      long from = shape[0];
      long span = shape[1] - shape[0];
      long[] values = new long[2_000];
      Set<Long> model = new HashSet<>();
      values[0] = from; // both ends
      values[1] = from + span;
      for (int i = 2; i < values.length; i++) {
        values[i] = from + (long) (random.nextDouble() * span);
      }
      for (long value : values) {
        model.add(value);
      }
      LongHashSet set = LongHashSet.of(values);
      assertThat(set.isDense()).as("range %d..%d", from, from + span).isTrue();
      assertSame(set, model, from - 1_000, from + Math.min(span, 20_000) + 1_000);
      assertSame(set, model, from + span - 1_000, from + span + 1_000);
    }

    long[] spread = {0, (long) LongHashSet.DENSE_BITS_PER_VALUE * 20_000};
    long[] many = new long[10_000];
    for (int i = 0; i < many.length; i++) {
      many[i] = i % 2 == 0 ? spread[0] + i : spread[1] - i;
    }
    assertThat(LongHashSet.of(many).isDense()).as("a range of more bits per key than the bound").isFalse();
  }

  /** The set answers as the model does for every long in [from, to), and for the extremes. */
  private static void assertSame(LongHashSet set, Set<Long> model, long from, long to) {
    for (long probe = from; probe != to; probe++) {
      assertThat(set.contains(probe)).as("%d", probe).isEqualTo(model.contains(probe));
    }
    for (long value : model) {
      assertThat(set.contains(value)).as("member %d", value).isTrue();
    }
    for (long extreme : new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1}) {
      assertThat(set.contains(extreme)).as("%d", extreme).isEqualTo(model.contains(extreme));
    }
  }
}
