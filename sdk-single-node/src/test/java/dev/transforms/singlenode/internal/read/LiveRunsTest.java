package dev.transforms.singlenode.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.singlenode.arrow.ArrowRecords;
import dev.transforms.singlenode.arrow.LeakCheckedAllocator;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Cutting a decoded root to the runs of live rows, in place ({@link LiveRuns#keep}), value by value. */
class LiveRunsTest {

  @RegisterExtension final LeakCheckedAllocator memory = new LeakCheckedAllocator();

  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "flag", Types.BooleanType.get()),
      Types.NestedField.optional(3, "small", Types.IntegerType.get()),
      Types.NestedField.optional(4, "text", Types.StringType.get()),
      Types.NestedField.optional(5, "blob", Types.BinaryType.get()),
      Types.NestedField.optional(6, "price", Types.DecimalType.of(12, 2)),
      Types.NestedField.optional(7, "code", Types.FixedType.ofLength(3)),
      Types.NestedField.required(8, "always", Types.BooleanType.get()));

  @Test
  void runsOfEveryLengthAndAlignmentKeepTheirValuesNullsAndOrder() {
    Random random = new Random(42);
    List<Record> rows = rows(1_037, random);
    for (int attempt = 0; attempt < 20; attempt++) {
      List<int[]> runs = new ArrayList<>();
      int at = random.nextInt(3);
      while (at < rows.size()) {
        int length = attempt % 2 == 0 ? 1 + random.nextInt(20) : 1 + random.nextInt(300);
        int end = Math.min(rows.size(), at + length);
        runs.add(new int[] {at, end});
        at = end + 1 + random.nextInt(attempt % 3 == 0 ? 2 : 30);
      }
      assertKeeps(rows, runs);
    }
  }

  @Test
  void noRunLeavesAnEmptyRootAndOneWholeRunTheRootItself() {
    List<Record> rows = rows(100, new Random(7));
    assertKeeps(rows, List.of());
    try (VectorSchemaRoot decoded = ArrowRecords.toRoot(rows, SCHEMA, memory.get())) {
      LiveRuns all = new LiveRuns(new int[] {0}, new int[] {100}, 100);
      assertThat(all.keep(decoded)).isSameAs(decoded);
      assertThat(decoded.getRowCount()).isEqualTo(100);
    }
  }

  private void assertKeeps(List<Record> rows, List<int[]> runs) {
    int[] starts = runs.stream().mapToInt(run -> run[0]).toArray();
    int[] ends = runs.stream().mapToInt(run -> run[1]).toArray();
    List<Record> expected = new ArrayList<>();
    runs.forEach(run -> expected.addAll(rows.subList(run[0], run[1])));
    LiveRuns live = new LiveRuns(starts, ends, expected.size());
    try (VectorSchemaRoot decoded = ArrowRecords.toRoot(rows, SCHEMA, memory.get());
        VectorSchemaRoot wanted = ArrowRecords.toRoot(expected, SCHEMA, memory.get())) {
      VectorSchemaRoot kept = live.keep(decoded);
      assertThat(kept.getRowCount()).isEqualTo(expected.size());
      for (int c = 0; c < SCHEMA.columns().size(); c++) {
        FieldVector got = kept.getVector(c);
        FieldVector want = wanted.getVector(c);
        assertThat(got.getNullCount()).as("nulls of %s", got.getName()).isEqualTo(want.getNullCount());
        for (int row = 0; row < expected.size(); row++) {
          assertThat(text(got.getObject(row))).as("%s of row %d of %s", got.getName(), row, live)
              .isEqualTo(text(want.getObject(row)));
        }
      }
    }
  }

  private static String text(Object value) {
    return value instanceof byte[] bytes ? java.util.Arrays.toString(bytes) : String.valueOf(value);
  }

  private static List<Record> rows(int count, Random random) {
    List<Record> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      GenericRecord row = GenericRecord.create(SCHEMA);
      row.setField("id", (long) i);
      row.setField("flag", random.nextInt(5) == 0 ? null : random.nextBoolean());
      row.setField("small", random.nextInt(7) == 0 ? null : random.nextInt());
      row.setField("text", random.nextInt(6) == 0 ? null : "näme ".repeat(random.nextInt(4)) + i);
      row.setField("blob", random.nextInt(6) == 0 ? null
          : ByteBuffer.wrap(("b" + i).getBytes(StandardCharsets.UTF_8)));
      row.setField("price", random.nextInt(4) == 0 ? null : BigDecimal.valueOf(random.nextInt(), 2));
      row.setField("code", random.nextInt(4) == 0 ? null : new byte[] {(byte) i, (byte) (i >> 8), 7});
      row.setField("always", i % 3 == 0);
      rows.add(row);
    }
    return rows;
  }
}
