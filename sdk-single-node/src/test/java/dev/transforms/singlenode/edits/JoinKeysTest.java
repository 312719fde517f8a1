package dev.transforms.singlenode.edits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class JoinKeysTest {

  @Test
  void integralKeysSortAsTheirTypesComparatorSortsThem() {
    Random random = new Random(3);
    Object[] longs = new Object[5_000];
    for (int i = 0; i < longs.length; i++) {
      longs[i] = random.nextInt(10) == 0 ? random.nextLong() : (long) random.nextInt(1_000) - 500;
    }
    longs[0] = Long.MIN_VALUE;
    longs[1] = Long.MAX_VALUE;
    Object[] expected = longs.clone();
    Arrays.sort(expected, Comparators.forType(Types.LongType.get()));
    assertThat(JoinKeys.sortIntegral(longs)).isTrue();
    assertThat(longs).containsExactly(expected);
    assertThat(longs).allMatch(value -> value instanceof Long);

    Object[] ints = {7, Integer.MIN_VALUE, -3, 0, Integer.MAX_VALUE, 5};
    assertThat(JoinKeys.sortIntegral(ints)).isTrue();
    assertThat(ints).containsExactly(Integer.MIN_VALUE, -3, 0, 5, 7, Integer.MAX_VALUE);
    assertThat(ints).allMatch(value -> value instanceof Integer);
  }

  @Test
  void otherKeysAreLeftAlone() {
    Object[] strings = {"b", "a"};
    assertThat(JoinKeys.sortIntegral(strings)).isFalse();
    assertThat(strings).containsExactly("b", "a");

    Object[] mixed = {3L, 2, 1L};
    assertThat(JoinKeys.sortIntegral(mixed)).as("an int among longs").isFalse();
    assertThat(mixed).containsExactly(3L, 2, 1L);

    assertThat(JoinKeys.sortIntegral(new Object[0])).isTrue();
  }
}
