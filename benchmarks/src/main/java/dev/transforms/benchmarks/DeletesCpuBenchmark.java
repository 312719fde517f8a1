package dev.transforms.benchmarks;

import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.arrow.ArrowTableWriter;
import dev.transforms.singlenode.edits.RowEdits;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.unsafe.UnsafeAllocationManager;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The process CPU time, as well as the wall time, of four cases of {@link SingleNodeBenchmark}: the
 * deletes of 1% (copy-on-write, merge-on-read with v2 position deletes and with a v3 deletion
 * vector) and {@code arrow()} of a table with a deletion vector, on the same 1M-row data. On a machine shared with other work, wall
 * time grows with the load, and the big harness measures each group of cases in a window of its
 * own; the CPU the process spends does not grow with the load, so two builds can be compared even
 * on a busy machine. The cases run in turn, run by run, after 3 untimed rounds.
 *
 * <p>Run (from the repository root, built as for {@link SingleNodeBenchmark}; argument: runs, default
 * 21):
 * <pre>
 * java $OPENS -Xmx8g -cp "$CP" dev.transforms.benchmarks.DeletesCpuBenchmark 21
 * </pre>
 */
public final class DeletesCpuBenchmark {
  private static final String[] CASES = {
    "delete 1%, copy-on-write v2",
    "delete 1%, merge-on-read v2 (pos. deletes)",
    "delete 1%, merge-on-read v3 (deletion vec)",
    "arrow() of 1M rows, v3 deletion vector of 1%"
  };

  private DeletesCpuBenchmark() {}

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 21;
    System.setProperty("arrow.allocation.manager.type", "Unsafe");
    BufferAllocator memory = new RootAllocator(RootAllocator.configBuilder()
        .allocationManagerFactory(UnsafeAllocationManager.FACTORY).build());
    Path dir = Files.createTempDirectory("transforms-deletes-cpu-bench");
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(dir.resolve("warehouse")))) {
      Catalog catalog = catalogs.catalog(TransformsConfig.DEFAULT_CATALOG);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench"));
      List<DataFile> files;
      try (VectorSchemaRoot rows = baseRows(memory)) {
        files = ArrowTableWriter.writeDataFiles(table(catalog, "seed", 2, "copy-on-write"), rows);
      }
      Table[] tables = {
        table(catalog, "cow_v2", 2, "copy-on-write"),
        table(catalog, "mor_v2", 2, "merge-on-read"),
        table(catalog, "mor_v3", 3, "merge-on-read"),
        table(catalog, "read_v3", 3, "merge-on-read")
      };
      int reading = tables.length - 1; // the others are deletes
      long[] bases = new long[tables.length];
      for (int t = 0; t < tables.length; t++) {
        AppendFiles append = tables[t].newFastAppend();
        files.forEach(append::appendFile);
        append.commit();
        bases[t] = tables[t].currentSnapshot().snapshotId();
      }
      RowEdits.on(tables[reading]).delete(SingleNodeBenchmark.DELETE_FILTER); // the table read keeps it

      double[][] wall = new double[CASES.length][runs];
      double[][] cpu = new double[CASES.length][runs];
      for (int run = -3; run < runs; run++) {
        for (int c = 0; c < CASES.length; c++) {
          Table table = tables[c];
          table.refresh();
          if (c != reading && table.currentSnapshot().snapshotId() != bases[c]) {
            table.manageSnapshots().rollbackTo(bases[c]).commit();
          }
          System.gc();
          long cpuStart = os.getProcessCpuTime();
          long wallStart = System.nanoTime();
          if (c != reading) {
            long deleted = RowEdits.on(table).delete(SingleNodeBenchmark.DELETE_FILTER);
            check(deleted == SingleNodeBenchmark.DELETED_ROWS, "rows deleted: " + deleted);
          } else {
            try (VectorSchemaRoot read = ArrowTableReader.of(table).readAll(memory)) {
              check(read.getRowCount() == SingleNodeBenchmark.ROWS - SingleNodeBenchmark.DELETED_ROWS,
                  "rows read: " + read.getRowCount());
            }
          }
          if (run >= 0) {
            wall[c][run] = (System.nanoTime() - wallStart) / 1e6;
            cpu[c][run] = (os.getProcessCpuTime() - cpuStart) / 1e6;
          }
        }
      }
      System.out.printf("%-52s %8s %15s %14s%n", "case", "runs", "wall median ms", "cpu median ms");
      for (int c = 0; c < CASES.length; c++) {
        Arrays.sort(wall[c]);
        Arrays.sort(cpu[c]);
        System.out.printf("%-52s %8d %15.1f %14.1f%n",
            CASES[c], runs, Harness.median(wall[c]), Harness.median(cpu[c]));
      }
    } finally {
      Harness.deleteRecursively(dir);
    }
    memory.close();
  }

  /** The rows of {@link SingleNodeBenchmark}'s table: ids 0 to 1M, a double, a short string. */
  private static VectorSchemaRoot baseRows(BufferAllocator memory) {
    VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(SingleNodeBenchmark.SCHEMA), memory);
    root.allocateNew();
    for (int i = 0; i < SingleNodeBenchmark.ROWS; i++) {
      ((BigIntVector) root.getVector("id")).setSafe(i, i);
      ((Float8Vector) root.getVector("a")).setSafe(i, SingleNodeBenchmark.a(i, 0));
      ((VarCharVector) root.getVector("s"))
          .setSafe(i, SingleNodeBenchmark.s(i, 0).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(SingleNodeBenchmark.ROWS);
    return root;
  }

  private static Table table(Catalog catalog, String name, int formatVersion, String deleteMode) {
    return catalog.buildTable(TableIdentifier.of("bench", name), SingleNodeBenchmark.SCHEMA)
        .withProperties(Map.of(
            TableProperties.FORMAT_VERSION, Integer.toString(formatVersion),
            TableProperties.DELETE_MODE, deleteMode))
        .create();
  }

  private static void check(boolean condition, String what) {
    if (!condition) {
      throw new IllegalStateException("Check failed: " + what);
    }
  }
}
