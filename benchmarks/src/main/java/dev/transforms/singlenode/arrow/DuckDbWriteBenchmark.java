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
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
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
 * {@link ArrowTableWriter} writing one root of N rows to an unpartitioned zstd table through Iceberg's
 * Java Parquet writer (two threads, two files, the default for large roots) against DuckDB (one file),
 * alternating run by run after two warm-up rounds; prints medians, p90 and the ratio, for a 3-column
 * shape ({@code id long}, {@code name string}, {@code score double} 1 in 17 null) and a 7-column one
 * (those, {@code day date}, {@code amount decimal(12,2)} 1 in 20 null, {@code quantity int}, {@code
 * at timestamptz}). Timed: the writer from build to {@code complete()}, metrics included; not the commit.
 *
 * <p>{@code java -cp CP dev.transforms.singlenode.arrow.DuckDbWriteBenchmark [rows] [runs]}
 */
public final class DuckDbWriteBenchmark {
  private static final Schema SEVEN = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()),
      Types.NestedField.optional(3, "score", Types.DoubleType.get()),
      Types.NestedField.optional(4, "day", Types.DateType.get()),
      Types.NestedField.optional(5, "amount", Types.DecimalType.of(12, 2)),
      Types.NestedField.optional(6, "quantity", Types.IntegerType.get()),
      Types.NestedField.optional(7, "at", Types.TimestampType.withZone()));
  private static final Schema THREE = new Schema(SEVEN.columns().subList(0, 3));

  private DuckDbWriteBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 9;
    Path dir = Files.createTempDirectory("duckdb-write");
    System.out.printf("%-40s %10s %10s%n", "case (" + rows + " rows, " + runs + " runs)", "median ms", "p90 ms");
    try (BufferAllocator allocator = new RootAllocator()) {
      for (Schema schema : List.of(THREE, SEVEN)) {
        String shape = schema.columns().size() + " columns";
        Table table = new HadoopTables(new Configuration()).create(schema, PartitionSpec.unpartitioned(),
            dir.resolve("t" + schema.columns().size()).toString());
        try (VectorSchemaRoot root = root(allocator, schema, rows)) {
          double[] java = new double[runs];
          double[] duck = new double[runs];
          long[] bytes = new long[2];
          for (int i = -2; i < runs; i++) {
            boolean javaFirst = (i & 1) == 0;
            double a = time(table, root, !javaFirst, bytes);
            double b = time(table, root, javaFirst, bytes);
            if (i >= 0) {
              java[i] = javaFirst ? a : b;
              duck[i] = javaFirst ? b : a;
            }
          }
          Arrays.sort(java);
          Arrays.sort(duck);
          System.out.printf("%-40s %10.1f %10.1f  (%,d bytes)%n", shape + ", Java writer", java[runs / 2],
              java[(int) (runs * 0.9)], bytes[0]);
          System.out.printf("%-40s %10.1f %10.1f  (%,d bytes)%n", shape + ", DuckDB", duck[runs / 2],
              duck[(int) (runs * 0.9)], bytes[1]);
          System.out.printf("%-40s %10.2f%n", shape + ", ratio of medians (Java / DuckDB)",
              java[runs / 2] / duck[runs / 2]);
        }
      }
    } finally {
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static double time(Table table, VectorSchemaRoot root, boolean duckDb, long[] bytes) {
    long start = System.nanoTime();
    List<DataFile> files;
    try (ArrowTableWriter writer = ArrowTableWriter.builder(table).duckDbParquet(duckDb).build()) {
      writer.write(root);
      files = writer.complete();
    }
    double ms = (System.nanoTime() - start) / 1e6;
    long size = 0;
    for (DataFile file : files) {
      size += file.fileSizeInBytes();
      table.io().deleteFile(file.location());
    }
    bytes[duckDb ? 1 : 0] = size;
    return ms;
  }

  private static VectorSchemaRoot root(BufferAllocator allocator, Schema schema, int rows) {
    VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(schema), allocator);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector name = (VarCharVector) root.getVector("name");
    Float8Vector score = (Float8Vector) root.getVector("score");
    for (int i = 0; i < rows; i++) {
      id.setSafe(i, i);
      name.setSafe(i, ("name-" + Long.toString(i * 2654435761L % 100_003, 36)).getBytes(StandardCharsets.UTF_8));
      if (i % 17 == 0) {
        score.setNull(i);
      } else {
        score.setSafe(i, i * 0.37);
      }
    }
    if (schema.columns().size() > 3) {
      DateDayVector day = (DateDayVector) root.getVector("day");
      DecimalVector amount = (DecimalVector) root.getVector("amount");
      IntVector quantity = (IntVector) root.getVector("quantity");
      TimeStampMicroTZVector at = (TimeStampMicroTZVector) root.getVector("at");
      for (int i = 0; i < rows; i++) {
        day.setSafe(i, 19_000 + i % 700);
        if (i % 20 == 0) {
          amount.setNull(i);
        } else {
          amount.setSafe(i, BigDecimal.valueOf(i % 1_000_000, 2));
        }
        quantity.setSafe(i, i % 100);
        at.setSafe(i, 1_767_225_600_000_000L + i * 1_000_003L);
      }
    }
    root.setRowCount(rows);
    return root;
  }
}
