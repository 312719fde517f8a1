package dev.transforms.benchmarks;

import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.internal.parquet.FileBytes;
import dev.transforms.singlenode.internal.parquet.PagedColumnPlan;
import dev.transforms.singlenode.internal.plan.DirectScan;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Where the time of {@code arrow()} of one file goes (issue 45): the table {@code bench.one_file} of a
 * warehouse kept between runs, 1M rows of the 7-column shape in one Parquet file PyIceberg writes (zstd,
 * one row group), read by {@link ArrowTableReader#readAll} several times in this JVM. Each call prints its
 * wall and process CPU time, page faults, heap allocated and the time the JIT compilers spent meanwhile;
 * with {@code --phases} the parts of a read are timed on their own before it:
 * loading the table, planning the files ({@link DirectScan}), reading the footer and page headers
 * ({@link PagedColumnPlan}). Meant to be started once per measurement (a fresh JVM), old and new builds
 * in turn, on the classpath and with the options {@code benchmarks/pyiceberg/run} gives its harnesses.
 *
 * <p>Arguments: {@code --warehouse DIR} (required; made on the first run, which needs {@code --python
 * PATH} and {@code --worker PATH}), {@code --calls N} (default 5), {@code --rows N} (default 1,000,000),
 * {@code --phases}. Each call's line ends with the wall-clock instants it started and ended at, to pick
 * its samples out of a flight recording of the whole run.
 */
public final class ArrowOneFileBenchmark {

  private static final String TABLE = "one_file";

  private ArrowOneFileBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = SideBySide.options(args, Set.of("phases"),
        Set.of("warehouse", "python", "worker", "calls", "rows"));
    Path warehouse = Path.of(ObjectStoreBenchmark.required(options, "warehouse"));
    int calls = Integer.parseInt(options.getOrDefault("calls", "5"));
    int rows = Integer.parseInt(options.getOrDefault("rows", "1000000"));
    boolean phases = options.containsKey("phases");
    boolean fresh = !Files.exists(warehouse);
    try (BufferAllocator root = PyIcebergBenchmark.newAllocator();
        Catalogs catalogs = new Catalogs(TransformsConfig.embedded(warehouse))) {
      Catalog catalog = catalogs.catalog(TransformsConfig.DEFAULT_CATALOG);
      TableIdentifier id = TableIdentifier.of(BenchTables.NAMESPACE, TABLE);
      if (fresh) {
        make(catalog, warehouse, options, rows, root);
      }
      var cpu = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      for (int call = 1; call <= calls; call++) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "call %d", call));
        if (phases) {
          long t0 = System.nanoTime();
          Table table = catalog.loadTable(id);
          long t1 = System.nanoTime();
          DirectScan scan = DirectScan.planWithDeletes(table, table.currentSnapshot().snapshotId(), table.schema())
              .orElseThrow();
          long t2 = System.nanoTime();
          List<FileBytes> files = new ArrayList<>();
          for (DirectScan.ScanFile file : scan.files()) {
            files.add(FileBytes.open(scan.io(), file.location(), file.size()));
          }
          PagedColumnPlan.plan(files, scan.schema().columns());
          for (FileBytes file : files) {
            file.close();
          }
          long t3 = System.nanoTime();
          line.append(String.format(Locale.ROOT, " load %.1f plan %.1f footer+pages %.1f", (t1 - t0) / 1e6,
              (t2 - t1) / 1e6, (t3 - t2) / 1e6));
        }
        Table table = catalog.loadTable(id);
        System.gc();
        long faults0 = minorFaults();
        long heap0 = allocatedBytes();
        long jit0 = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
        long cpu0 = cpu.getProcessCpuTime();
        java.time.Instant from = java.time.Instant.now();
        long start = System.nanoTime();
        try (VectorSchemaRoot read = ArrowTableReader.of(table).readAll(root)) {
          long ms = System.nanoTime() - start;
          long cpuMs = cpu.getProcessCpuTime() - cpu0;
          long faults = minorFaults() - faults0;
          long heap = allocatedBytes() - heap0;
          long jit = ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jit0;
          BenchTables.check(read.getRowCount() == rows, "rows: " + read.getRowCount());
          line.append(String.format(Locale.ROOT, " readAll %.1f ms cpu %.1f ms faults %d jit %d ms heap %.1f MB",
              ms / 1e6, cpuMs / 1e6, faults, jit, heap / 1e6)).append(" from ").append(from).append(" to ").append(java.time.Instant.now());
        }
        System.out.println(line);
      }
    }
  }

  /** The bytes every live thread allocated on the heap so far (threads that ended are left out). */
  private static long allocatedBytes() {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
      sum += Math.max(0, bytes);
    }
    return sum;
  }

  /** The process's minor page faults so far (field 10 of {@code /proc/self/stat}); -1 where unknown. */
  private static long minorFaults() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[7]);
    } catch (java.io.IOException | RuntimeException e) {
      return -1;
    }
  }

  /** The warehouse's one table: 1M rows PyIceberg appends in one file. */
  private static void make(Catalog catalog, Path warehouse, Map<String, String> options, int rows,
      BufferAllocator root) throws Exception {
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of(BenchTables.NAMESPACE));
    String python = ObjectStoreBenchmark.required(options, "python");
    String worker = options.getOrDefault("worker", "benchmarks/pyiceberg/worker.py");
    Path dir = Files.createTempDirectory("transforms-one-file");
    Harness.deleteOnExit(dir);
    try (LineWorker py = new LineWorker("PyIceberg", List.of(python, worker))) {
      py.setUp(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("cmd", "open")
          .put("warehouse", warehouse.toString()).put("catalog", TransformsConfig.DEFAULT_CATALOG));
      PyIcebergBenchmark.Shape shape = PyIcebergBenchmark.sevenColumns();
      Table table = BenchTables.createByJava(catalog, TABLE, shape.schema(), "copy-on-write");
      List<DataFile> files = BenchTables.appendByPyIceberg(py, table, shape, rows, rows, root, dir);
      System.err.printf(Locale.ROOT, "made %s: %d file(s), %s bytes%n", TABLE, files.size(),
          Arrays.toString(files.stream().mapToLong(DataFile::fileSizeInBytes).toArray()));
    }
  }
}
