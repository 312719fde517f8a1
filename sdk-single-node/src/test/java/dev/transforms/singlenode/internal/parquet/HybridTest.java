package dev.transforms.singlenode.internal.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Hybrid#decode} against an encoder written here from Parquet's description of the encoding: every
 * width from 0 to 32 bits, runs of both kinds, counts that end inside a group of eight, and data that ends
 * at the very end of its array (where no whole 8-byte word is left to read).
 */
class HybridTest {

  /** Run-length / bit-packed hybrid: alternating bit-packed runs and run-length runs of the values. */
  private static byte[] encode(int[] values, int width, int runLength) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int i = 0;
    boolean packed = true;
    while (i < values.length) {
      if (packed) {
        int n = Math.min(values.length - i, 8 * (1 + i % 5)); // the last group padded with zeros
        int groups = (n + 7) / 8;
        varint(out, groups << 1 | 1);
        long bits = 0;
        int held = 0;
        for (int k = 0; k < groups * 8; k++) {
          long value = k < n ? values[i + k] & 0xFFFFFFFFL : 0;
          bits |= value << held; // held < 8: at most 40 bits
          held += width;
          while (held >= 8) {
            out.write((int) bits);
            bits >>>= 8;
            held -= 8;
          }
        }
        i += n;
      } else {
        int n = Math.min(values.length - i, runLength);
        Arrays.fill(values, i, i + n, values[i]);
        varint(out, n << 1);
        for (int b = 0; b < (width + 7) / 8; b++) {
          out.write(values[i] >>> (8 * b));
        }
        i += n;
      }
      packed = !packed;
    }
    return out.toByteArray();
  }

  private static void varint(ByteArrayOutputStream out, int value) {
    while ((value & ~0x7F) != 0) {
      out.write((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    out.write(value);
  }

  private static int[] values(Random random, int count, int width) {
    int[] values = new int[count];
    for (int i = 0; i < count; i++) {
      values[i] = width == 0 ? 0 : (int) (random.nextLong() & ((1L << width) - 1));
    }
    return values;
  }

  @Test
  void everyWidthDecodesWhatWasEncoded() {
    Random random = new Random(45);
    for (int width = 0; width <= 32; width++) {
      for (int count : new int[] {1, 7, 8, 9, 63, 1000, 4099}) {
        int[] values = values(random, count, width);
        byte[] encoded = encode(values, width, 1 + count / 7);
        for (int slack : new int[] {0, 3, 16}) { // the data at the array's end, or bytes after it
          byte[] bytes = Arrays.copyOf(encoded, encoded.length + slack);
          int[] out = new int[count];
          Hybrid.decode(bytes, 0, encoded.length, width, out, count);
          assertThat(out).as("width %d, %d values, %d bytes after", width, count, slack).isEqualTo(values);
        }
        // at an offset in a larger array, as a page's ids are
        byte[] shifted = new byte[encoded.length + 5];
        System.arraycopy(encoded, 0, shifted, 5, encoded.length);
        int[] out = new int[count];
        Hybrid.decode(shifted, 5, shifted.length, width, out, count);
        assertThat(out).as("width %d, %d values at an offset", width, count).isEqualTo(values);
      }
    }
  }

  @Test
  void dataThatEndsEarlyIsAnError() {
    int[] values = values(new Random(7), 100, 12);
    byte[] encoded = encode(values, 12, 10);
    assertThatThrownBy(() -> Hybrid.decode(encoded, 0, encoded.length - 4, 12, new int[100], 100))
        .isInstanceOf(IllegalStateException.class);
  }
}
