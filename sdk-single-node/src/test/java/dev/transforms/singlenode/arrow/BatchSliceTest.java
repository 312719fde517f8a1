package dev.transforms.singlenode.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link BatchSlice} cuts batches from a file's vector as Arrow's {@code splitAndTransfer} would: the
 * same values and nulls, offsets from zero, memory that outlives the file's vector and is all freed.
 */
class BatchSliceTest {

  private final BufferAllocator allocator = new RootAllocator();

  @AfterEach
  void everythingIsFreed() {
    assertThat(allocator.getAllocatedMemory()).isZero();
    allocator.close();
  }

  /** Row {@code i}: null every fifth row, empty every seventh, else a string of 0 to 40 bytes. */
  private static String value(int i) {
    if (i % 5 == 2) {
      return null;
    }
    return i % 7 == 0 ? "" : ("v" + i + "é").repeat(1 + i % 4);
  }

  private VarCharVector strings(int rows) {
    VarCharVector vector = new VarCharVector("s", allocator);
    vector.allocateNew();
    for (int i = 0; i < rows; i++) {
      String v = value(i);
      if (v == null) {
        vector.setNull(i);
      } else {
        vector.setSafe(i, v.getBytes(StandardCharsets.UTF_8));
      }
    }
    vector.setValueCount(rows);
    return vector;
  }

  private static void assertRows(VarCharVector batch, int first, int rows) {
    assertThat(batch.getValueCount()).isEqualTo(rows);
    assertThat(batch.getOffsetBuffer().getInt(0)).as("the batch's first offset").isZero();
    int nulls = 0;
    for (int i = 0; i < rows; i++) {
      String expected = value(first + i);
      nulls += expected == null ? 1 : 0;
      assertThat(batch.isNull(i)).as("row %d null", first + i).isEqualTo(expected == null);
      if (expected != null) {
        assertThat(new String(batch.get(i), StandardCharsets.UTF_8)).as("row %d", first + i).isEqualTo(expected);
      }
    }
    assertThat(batch.getNullCount()).isEqualTo(nulls);
  }

  @Test
  void batchesOfStringsHoldTheirRowsWhereverTheyStart() {
    int rows = 1000;
    try (VarCharVector file = strings(rows); VarCharVector batch = new VarCharVector("s", allocator)) {
      // starts on a byte of validity bits (the plain loop) and inside one (Arrow's transfer)
      for (int[] cut : new int[][] {{0, 64}, {64, 64}, {128, 8}, {992, 8}, {3, 61}, {61, 200}, {999, 1}, {8, 992}}) {
        BatchSlice.cut(file, batch, cut[0], cut[1]);
        assertRows(batch, cut[0], cut[1]);
      }
      assertRows(file, 0, rows); // the file's vector is as it was
    }
  }

  @Test
  void aBatchOutlivesTheFilesVectorAndAllIsFreedWithIt() {
    VarCharVector file = strings(200);
    VarCharVector kept = new VarCharVector("s", allocator);
    BatchSlice.cut(file, kept, 64, 100);
    file.close();
    assertRows(kept, 64, 100);
    kept.close(); // the @AfterEach check: nothing is left allocated
  }

  @Test
  void binaryAndFixedWidthVectorsAreCutToo() {
    try (VarBinaryVector file = new VarBinaryVector("b", allocator); VarBinaryVector batch = new VarBinaryVector("b",
        allocator); IntVector ints = new IntVector("i", allocator); IntVector intBatch = new IntVector("i", allocator)) {
      file.allocateNew();
      ints.allocateNew(40);
      for (int i = 0; i < 40; i++) {
        file.setSafe(i, new byte[i % 3]);
        ints.set(i, i * 3);
      }
      file.setNull(17);
      ints.setNull(17);
      file.setValueCount(40);
      ints.setValueCount(40);
      BatchSlice.cut(file, batch, 16, 24);
      BatchSlice.cut(ints, intBatch, 16, 24);
      assertThat(batch.getValueCount()).isEqualTo(24);
      assertThat(batch.isNull(1)).isTrue();
      assertThat(batch.get(2)).hasSize(18 % 3);
      assertThat(batch.get(23)).hasSize(39 % 3);
      assertThat(intBatch.isNull(1)).isTrue();
      assertThat(intBatch.get(23)).isEqualTo(39 * 3);
    }
  }

  @Test
  void rowsPastTheVectorAreRefused() {
    try (VarCharVector file = strings(100); VarCharVector batch = new VarCharVector("s", allocator)) {
      assertThatThrownBy(() -> BatchSlice.cut(file, batch, 64, 40)).isInstanceOf(IndexOutOfBoundsException.class);
    }
  }
}
