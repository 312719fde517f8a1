package dev.transforms.singlenode.arrow;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

/**
 * A rough timing of the Arrow reader and writer on 1M rows x 3 columns; not a unit test. Run with
 * {@code java -cp <test classpath> dev.transforms.singlenode.arrow.ArrowIoTiming [rows] [rounds]}.
 */
public final class ArrowIoTiming {
  private static final java.lang.management.ThreadMXBean CPU =
      java.lang.management.ManagementFactory.getThreadMXBean();

  private ArrowIoTiming() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 6;
    Schema schema =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "value", Types.DoubleType.get()),
            optional(3, "name", Types.StringType.get()));
    Path dir = Files.createTempDirectory("arrow-timing");
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot input =
            VectorSchemaRoot.create(ArrowSchemas.toArrow(schema), allocator)) {
      BigIntVector id = (BigIntVector) input.getVector("id");
      Float8Vector value = (Float8Vector) input.getVector("value");
      VarCharVector name = (VarCharVector) input.getVector("name");
      for (int i = 0; i < rows; i++) {
        id.setSafe(i, i);
        value.setSafe(i, i * 0.5);
        name.setSafe(i, ("name-" + (i % 1000)).getBytes(StandardCharsets.UTF_8));
      }
      input.setRowCount(rows);

      Table table = null;
      for (int round = 0; round < rounds; round++) {
        table =
            TableFixtures.create(dir, "t" + round, schema, PartitionSpec.unpartitioned(), 2);
        long start = System.nanoTime();
        long startCpu = CPU.getCurrentThreadCpuTime();
        List<DataFile> files = ArrowTableWriter.writeDataFiles(table, input);
        long wrote = System.nanoTime();
        long wroteCpu = CPU.getCurrentThreadCpuTime();
        TableFixtures.commit(table, files);
        long read0 = System.nanoTime();
        long read0Cpu = CPU.getCurrentThreadCpuTime();
        long count;
        try (VectorSchemaRoot out = ArrowTableReader.of(table).readAll(allocator)) {
          count = out.getRowCount();
        }
        long read1 = System.nanoTime();
        long read1Cpu = CPU.getCurrentThreadCpuTime();
        long batched = 0;
        try (ArrowBatchReader batches = ArrowTableReader.of(table).openBatches(allocator)) {
          while (batches.loadNextBatch()) {
            batched += batches.getVectorSchemaRoot().getRowCount();
          }
        }
        long read2 = System.nanoTime();
        long read2Cpu = CPU.getCurrentThreadCpuTime();
        System.out.printf(
            "round %d: write %d rows %.3f s (cpu %.3f, %d files); readAll %d rows %.3f s (cpu %.3f);"
                + " batches %d rows %.3f s (cpu %.3f)%n",
            round,
            rows,
            (wrote - start) / 1e9,
            (wroteCpu - startCpu) / 1e9,
            files.size(),
            count,
            (read1 - read0) / 1e9,
            (read1Cpu - read0Cpu) / 1e9,
            batched,
            (read2 - read1) / 1e9,
            (read2Cpu - read1Cpu) / 1e9);
      }
    }
  }
}
