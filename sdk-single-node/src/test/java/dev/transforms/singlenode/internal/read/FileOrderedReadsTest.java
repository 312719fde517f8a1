package dev.transforms.singlenode.internal.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** Rows read on several threads arrive in file order, failures reach the caller, files are closed. */
class FileOrderedReadsTest {
  private static final Schema SCHEMA = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  /** File {@code f} of sizes[f] rows, ids f * 1,000,000 onwards; counts the files closed. */
  private static CloseableIterable<Record> file(int f, int rows, AtomicInteger closed) {
    List<Record> records = new ArrayList<>();
    for (long i = 0; i < rows; i++) {
      GenericRecord record = GenericRecord.create(SCHEMA);
      record.set(0, f * 1_000_000L + i);
      records.add(record);
    }
    return CloseableIterable.combine(records, closed::incrementAndGet);
  }

  @Test
  void rowsArriveInTheOrderOfTheFilesAndOfTheirRows() {
    // sizes around the batch size, and empty files, over more files than threads
    int[] sizes = {10_000, 0, 4_096, 1, 9_000, 0, 0, 4_097, 3, 20_000, 5};
    List<Integer> files = new ArrayList<>();
    List<Long> expected = new ArrayList<>();
    for (int f = 0; f < sizes.length; f++) {
      files.add(f);
      for (long i = 0; i < sizes[f]; i++) {
        expected.add(f * 1_000_000L + i);
      }
    }
    for (int threads : new int[] {1, 2, 3}) {
      AtomicInteger closed = new AtomicInteger();
      List<Long> seen = new ArrayList<>();
      long rows = FileOrderedReads.read(files, f -> file(f, sizes[f], closed), r -> seen.add((Long) r.get(0)), threads);
      assertThat(rows).isEqualTo(expected.size());
      assertThat(seen).as("%d threads", threads).isEqualTo(expected);
      assertThat(closed).hasValue(sizes.length);
    }
  }

  @Test
  void aReadersFailureReachesTheCallerAndAConsumersFailureStopsTheReaders() {
    List<Integer> files = List.of(0, 1, 2, 3);
    AtomicInteger closed = new AtomicInteger();
    assertThatThrownBy(() -> FileOrderedReads.read(files, f -> {
      if (f == 2) {
        throw new IllegalStateException("Cannot open file 2");
      }
      return file(f, 10, closed);
    }, r -> { }, 2)).isInstanceOf(IllegalStateException.class).hasMessage("Cannot open file 2");

    AtomicInteger closedToo = new AtomicInteger();
    List<Long> seen = new ArrayList<>();
    assertThatThrownBy(() -> FileOrderedReads.read(files, f -> file(f, 50_000, closedToo), r -> {
      if (seen.size() == 5) {
        throw new IllegalArgumentException("the writer failed");
      }
      seen.add((Long) r.get(0));
    }, 2)).hasMessage("the writer failed");
    assertThat(seen).containsExactly(0L, 1L, 2L, 3L, 4L);
    assertThatThrownBy(() -> FileOrderedReads.read(files, f -> file(f, 1, closed), r -> { }, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threads");
  }
}
