package dev.transforms.benchmarks;

import dev.transforms.singlenode.arrow.ArrowTableWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;

/**
 * {@link ArrowTableWriter} writing one root of N rows to a new unpartitioned zstd table through
 * Iceberg's Java Parquet writer (two threads, two files: the default for large roots) against DuckDB
 * (one file), alternating run by run after two warm-up rounds; prints medians, p90 and the ratio. The
 * rows are those of {@link PyIcebergBenchmark}'s two shapes (3 columns: {@code id long}, {@code name
 * string} 2% null, {@code amount decimal(12,2)} 5% null; 7 columns: those, {@code status string},
 * {@code quantity int}, {@code order_date date}, {@code score double}, with nulls), so the figures sit
 * beside its {@code writeTable} and PyIceberg {@code append} rows. Timed: the writer from build to
 * {@code complete()}, metrics included; not the commit.
 *
 * <p>{@code java -cp CP dev.transforms.benchmarks.DuckDbWriteBenchmark [rows] [runs]}
 */
public final class DuckDbWriteBenchmark {

  private DuckDbWriteBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 9;
    Path dir = Files.createTempDirectory("duckdb-write");
    System.out.printf("%-44s %10s %10s%n", "case (" + rows + " rows, " + runs + " runs)", "median ms", "p90 ms");
    try (BufferAllocator allocator = new RootAllocator()) {
      for (PyIcebergBenchmark.Shape shape :
          List.of(PyIcebergBenchmark.threeColumns(), PyIcebergBenchmark.sevenColumns())) {
        String name = shape.name() + " columns";
        Table table = new HadoopTables(new Configuration()).create(shape.schema(), PartitionSpec.unpartitioned(),
            dir.resolve("t" + shape.name()).toString());
        try (VectorSchemaRoot root =
            PyIcebergBenchmark.rows(allocator, shape, PyIcebergBenchmark.range(0, rows), 0)) {
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
          System.out.printf("%-44s %10.1f %10.1f  (%,d bytes)%n", name + ", Java writer", java[runs / 2],
              java[(int) (runs * 0.9)], bytes[0]);
          System.out.printf("%-44s %10.1f %10.1f  (%,d bytes)%n", name + ", DuckDB", duck[runs / 2],
              duck[(int) (runs * 0.9)], bytes[1]);
          System.out.printf("%-44s %10.2f%n", name + ", ratio of medians (Java / DuckDB)",
              java[runs / 2] / duck[runs / 2]);
        }
      }
    } finally {
      Harness.deleteRecursively(dir);
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
}
