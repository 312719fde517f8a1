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
      LongHashSet set = new LongHashSet(size);
      Set<Long> model = new HashSet<>();
      for (int i = 0; i < size; i++) {
        long value = random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(size * 4 + 1) * 200L;
        set.add(value);
        set.add(value); // twice: still once
        model.add(value);
      }
      set.add(Long.MIN_VALUE); // the value the table uses for empty slots
      model.add(Long.MIN_VALUE);
      for (long probe = -1_000; probe < size * 1_000L; probe += 13) {
        assertThat(set.contains(probe)).as("size %d, %d", size, probe).isEqualTo(model.contains(probe));
      }
      for (long value : model) {
        assertThat(set.contains(value)).as("size %d, member %d", size, value).isTrue();
      }
      assertThat(set.contains(Long.MAX_VALUE)).isEqualTo(model.contains(Long.MAX_VALUE));
    }
  }
}
