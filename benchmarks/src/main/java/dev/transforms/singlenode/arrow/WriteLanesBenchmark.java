package dev.transforms.singlenode.arrow;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.types.Types;

/**
 * {@link ArrowTableWriter} writing one root of N rows to an unpartitioned table on one thread (one
 * file) against two threads (two files), alternating run by run; prints medians and p90. In the
 * writer's package because the lane threshold is package-private (a test knob, not an option).
 *
 * <p>{@code java -cp CP dev.transforms.singlenode.arrow.WriteLanesBenchmark [rows] [runs]}
 */
public final class WriteLanesBenchmark {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()),
      Types.NestedField.optional(3, "score", Types.DoubleType.get()),
      Types.NestedField.optional(4, "day", Types.DateType.get()),
      Types.NestedField.optional(5, "amount", Types.DecimalType.of(12, 2)));

  private WriteLanesBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 9;
    Path dir = Files.createTempDirectory("write-lanes");
    Table table = new HadoopTables(new Configuration()).create(SCHEMA, PartitionSpec.unpartitioned(),
        dir.resolve("t").toString());
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = root(allocator, rows)) {
      double[] one = new double[runs];
      double[] two = new double[runs];
      for (int i = -2; i < runs; i++) {
        boolean oneFirst = (i & 1) == 0;
        double a = time(table, root, oneFirst ? Integer.MAX_VALUE : 1);
        double b = time(table, root, oneFirst ? 1 : Integer.MAX_VALUE);
        if (i >= 0) {
          one[i] = oneFirst ? a : b;
          two[i] = oneFirst ? b : a;
        }
      }
      Arrays.sort(one);
      Arrays.sort(two);
      System.out.printf("%-34s %10s %10s%n", "case (" + rows + " rows, " + runs + " runs)", "median ms", "p90 ms");
      System.out.printf("%-34s %10.1f %10.1f%n", "one thread, one file", one[runs / 2], one[(int) (runs * 0.9)]);
      System.out.printf("%-34s %10.1f %10.1f%n", "two threads, two files", two[runs / 2], two[(int) (runs * 0.9)]);
      System.out.printf("ratio of medians (one / two): %.2f%n", one[runs / 2] / two[runs / 2]);
    } finally {
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static double time(Table table, VectorSchemaRoot root, int twoLaneMinRows) {
    long start = System.nanoTime();
    List<DataFile> files;
    try (ArrowTableWriter writer = ArrowTableWriter.builder(table).twoLaneMinRows(twoLaneMinRows).build()) {
      writer.write(root);
      files = writer.complete();
    }
    double ms = (System.nanoTime() - start) / 1e6;
    for (DataFile file : files) {
      table.io().deleteFile(file.location());
    }
    return ms;
  }

  private static VectorSchemaRoot root(BufferAllocator allocator, int rows) {
    VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(SCHEMA), allocator);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector name = (VarCharVector) root.getVector("name");
    Float8Vector score = (Float8Vector) root.getVector("score");
    DateDayVector day = (DateDayVector) root.getVector("day");
    DecimalVector amount = (DecimalVector) root.getVector("amount");
    for (int i = 0; i < rows; i++) {
      id.setSafe(i, i);
      name.setSafe(i, ("name-" + Long.toString(i * 2654435761L % 100_003, 36)).getBytes(StandardCharsets.UTF_8));
      if (i % 17 == 0) {
        score.setNull(i);
      } else {
        score.setSafe(i, i * 0.37);
      }
      day.setSafe(i, 19_000 + i % 700);
      amount.setSafe(i, BigDecimal.valueOf(i % 1_000_000, 2));
    }
    root.setRowCount(rows);
    return root;
  }
}
