package dev.transforms.singlenode.arrow;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.TransformsException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.iceberg.shaded.org.apache.parquet.schema.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large root written on two threads into two files holds the same rows, in order, with the same
 * column metrics and field ids, as its two halves written the one-thread way.
 */
class ArrowTableWriterLanesTest {
  static final Schema ORDERS =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "name", Types.StringType.get()),
          optional(3, "amount", Types.DecimalType.of(12, 2)),
          optional(4, "day", Types.DateType.get()),
          optional(5, "score", Types.DoubleType.get()),
          optional(6, "quantity", Types.IntegerType.get()));

  private static final int ROWS = 3_000;
  private static final int LANES_FROM = 1_000;

  @TempDir Path dir;
  @RegisterExtension final LeakCheckedAllocator memory = new LeakCheckedAllocator();
  private BufferAllocator allocator;

  @BeforeEach
  void useAllocator() {
    allocator = memory.get();
  }

  private static List<Record> orders(int from, int to) {
    List<Record> rows = new ArrayList<>();
    for (int i = from; i < to; i++) {
      rows.add(
          TableFixtures.record(
              ORDERS,
              (long) i,
              i % 7 == 0 ? null : "name-" + (i * 7919 % 1000),
              i % 11 == 0 ? null : BigDecimal.valueOf(i * 37L % 100_000, 2),
              i % 13 == 0 ? null : LocalDate.of(2026, 1, 1).plusDays(i % 400),
              i % 5 == 0 ? null : i * 0.5,
              i % 3 == 0 ? null : i % 100));
    }
    return rows;
  }

  private List<DataFile> write(Table table, List<Record> rows, int lanesFrom) {
    try (VectorSchemaRoot root = ArrowRecords.toRoot(rows, ORDERS, allocator);
        ArrowTableWriter writer =
            ArrowTableWriter.builder(table).twoLaneMinRows(lanesFrom).build()) {
      writer.write(root);
      List<DataFile> files = writer.complete();
      assertThat(writer.rowsWritten()).isEqualTo(rows.size());
      return files;
    }
  }

  @Test
  void twoLanesWriteTheHalvesAsOneThreadWould() throws IOException {
    Table lanes = TableFixtures.create(dir, "lanes", ORDERS, PartitionSpec.unpartitioned(), 2);
    List<Record> rows = orders(0, ROWS);
    List<DataFile> files = write(lanes, rows, LANES_FROM);

    assertThat(files).extracting(DataFile::recordCount).containsExactly(1_500L, 1_500L);
    TableFixtures.commit(lanes, files);
    assertThat(TableFixtures.readGenerics(lanes)).containsExactlyElementsOf(rows);

    // each half written the old way, one thread, one file: the same metrics
    for (int half = 0; half < 2; half++) {
      Table oneThread =
          TableFixtures.create(dir, "one_thread_" + half, ORDERS, PartitionSpec.unpartitioned(), 2);
      List<DataFile> expected =
          write(oneThread, orders(half * 1_500, (half + 1) * 1_500), Integer.MAX_VALUE);
      assertThat(expected).hasSize(1);
      DataFile want = expected.get(0);
      DataFile got = files.get(half);
      assertThat(got.recordCount()).isEqualTo(want.recordCount());
      assertThat(got.valueCounts()).isEqualTo(want.valueCounts());
      assertThat(got.nullValueCounts()).isEqualTo(want.nullValueCounts());
      assertThat(got.nanValueCounts()).isEqualTo(want.nanValueCounts());
      assertThat(got.lowerBounds()).isEqualTo(want.lowerBounds());
      assertThat(got.upperBounds()).isEqualTo(want.upperBounds());
      assertThat(got.columnSizes()).isEqualTo(want.columnSizes());
      assertThat(fieldIds(got)).containsExactly(1, 2, 3, 4, 5, 6).isEqualTo(fieldIds(want));
    }
  }

  @Test
  void rowsWrittenBeforeALargeRootStayFirst() {
    Table table = TableFixtures.create(dir, "order", ORDERS, PartitionSpec.unpartitioned(), 2);
    List<Record> small = orders(0, 100);
    List<Record> large = orders(100, 100 + ROWS);
    List<DataFile> files;
    try (VectorSchemaRoot first = ArrowRecords.toRoot(small, ORDERS, allocator);
        VectorSchemaRoot second = ArrowRecords.toRoot(large, ORDERS, allocator);
        ArrowTableWriter writer =
            ArrowTableWriter.builder(table).twoLaneMinRows(LANES_FROM).build()) {
      writer.write(first);
      writer.write(second);
      writer.write(first);
      files = writer.complete();
    }
    assertThat(files).extracting(DataFile::recordCount).containsExactly(100L, 1_500L, 1_500L, 100L);
    TableFixtures.commit(table, files);
    List<Record> expected = new ArrayList<>(small);
    expected.addAll(large);
    expected.addAll(small);
    assertThat(TableFixtures.readGenerics(table)).containsExactlyElementsOf(expected);
  }

  @Test
  void aNullInARequiredColumnOfTheSecondHalfFailsAndLeavesNoFile() throws IOException {
    Table table = TableFixtures.create(dir, "required", ORDERS, PartitionSpec.unpartitioned(), 2);
    List<Record> rows = orders(0, ROWS);
    rows.get(2_500).set(0, null);
    try (VectorSchemaRoot root = ArrowRecords.toRoot(rows, ORDERS, allocator);
        ArrowTableWriter writer =
            ArrowTableWriter.builder(table).twoLaneMinRows(LANES_FROM).build()) {
      assertThatThrownBy(() -> writer.write(root))
          .isInstanceOf(TransformsException.class)
          .hasMessageContaining("Column 'id'")
          .hasMessageContaining("row 2500");
    }
    assertThat(table.currentSnapshot()).isNull();
    try (Stream<Path> files = Files.walk(dir.resolve("required"))) {
      assertThat(files.filter(path -> path.toString().endsWith(".parquet")))
          .as("the files of both lanes are deleted when the writer is closed")
          .isEmpty();
    }
  }

  private static List<Integer> fieldIds(DataFile file) throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.location()), new Configuration()))) {
      List<Integer> ids = new ArrayList<>();
      for (Type field : reader.getFooter().getFileMetaData().getSchema().getFields()) {
        ids.add(field.getId() == null ? null : field.getId().intValue());
      }
      return ids;
    }
  }
}
