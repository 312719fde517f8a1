package dev.transforms.benchmarks;

import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.singlenode.internal.parquet.PageCopyRewrite;
import dev.transforms.singlenode.internal.plan.RewriteRequest;
import dev.transforms.singlenode.internal.duckdb.RootSlices;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.io.CloseableIterable;
import org.duckdb.DuckDBConnection;

/**
 * Where the time of a copy-on-write delete of 1% of a 1M-row file goes, on the shapes of
 * {@link PyIcebergBenchmark} (one file written by Iceberg's Java writer, one row group): the whole
 * {@code RowEdits.delete} by filter; the rewrite alone (the rewrite planner's page copy, {@code PageCopyRewrite.rewrite}) of the file
 * minus a run of 10k positions and minus 10k positions spread over it, by copying the pages that hold no
 * dropped row (re-encoding the others); the delete again with page copy off (the engine's two lanes
 * decode and encode the file), alternating run by run; and DuckDB's COPY of the same rows from
 * Arrow to a zstd Parquet file, encoding only, with the CPU time it used.
 *
 * <pre>
 * java $OPENS -Xmx6g -cp "$CP" dev.transforms.benchmarks.RewriteBenchmark [3|7] [runs]
 * </pre>
 */
public final class RewriteBenchmark {

  private RewriteBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rows = 1_000_000;
    boolean seven = args.length > 0 && args[0].equals("7");
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    Path dir = Files.createTempDirectory("transforms-rewrite-bench");
    Runtime.getRuntime().addShutdownHook(new Thread(() -> Harness.deleteRecursively(dir)));
    TransformsConfig config = TransformsConfig.embedded(dir.resolve("warehouse"));
    PyIcebergBenchmark.Shape shape = seven ? PyIcebergBenchmark.sevenColumns() : PyIcebergBenchmark.threeColumns();
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    try (Catalogs catalogs = new Catalogs(config);
        BufferAllocator allocator = new RootAllocator();
        DuckDBConnection duck = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
        Statement st = duck.createStatement()) {
      Catalog catalog = catalogs.catalog(TransformsConfig.DEFAULT_CATALOG);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench"));
      long[] ids = new long[rows];
      Arrays.setAll(ids, i -> i);
      try (VectorSchemaRoot base = PyIcebergBenchmark.rows(allocator, shape, ids, 0)) {
        Table table = PyIcebergBenchmark.create(catalog, "rewritten", shape.schema(), "copy-on-write");
        List<DataFile> files = PyIcebergBenchmark.writeOneFile(table, base);
        Harness.appendFiles(table, files);
        long baseSnapshot = table.currentSnapshot().snapshotId();
        RewriteRequest request;
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
          request = new RewriteRequest(table, table.schema(), tasks.iterator().next(), false, true);
        }
        long from = rows / 2 - rows / 200;
        long[] run = new long[rows / 100];
        Arrays.setAll(run, i -> from + i);
        long[] spread = new long[rows / 100];
        Arrays.setAll(spread, i -> i * 100L + 7);
        String filter = "id >= " + from + " and id < " + (from + rows / 100);
        System.out.printf(Locale.ROOT, "%d columns, %,d rows in one file of %.1f MB; %d runs after 2 warm-ups;"
                + " load average at the start %.2f%n", shape.schema().columns().size(), rows,
            files.get(0).fileSizeInBytes() / 1e6, runs, os.getSystemLoadAverage());

        String[] names = {"delete 1% by filter (RowEdits)", "  rewrite minus a run of 1%", "  rewrite minus 1% spread"};
        double[][] millis = new double[7][runs];
        double[] copyCpu = new double[runs];
        int[] written = {0};
        for (int r = -2; r < runs; r++) {
          for (int path = 0; path < 2; path++) {
            // 0: the default, pages copied; 1: page copy off, the engine's two lanes decode and encode
            System.setProperty(PageCopyRewrite.SWITCH, path == 0 ? "true" : "false");
            try {
              Harness.rollBack(table, baseSnapshot);
              double delete = Harness.time(() -> RowEdits.on(table).delete(filter));
              if (r >= 0) {
                millis[path * 3][r] = delete;
              }
              if (path == 0) {
                double rewriteRun = Harness.time(() -> rewrite(request, run,
                    dir.resolve("out-" + written[0]++ + ".parquet")));
                double rewriteSpread = Harness.time(() -> rewrite(request, spread,
                    dir.resolve("out-" + written[0]++ + ".parquet")));
                if (r >= 0) {
                  millis[1][r] = rewriteRun;
                  millis[2][r] = rewriteSpread;
                }
              }
            } finally {
              System.clearProperty(PageCopyRewrite.SWITCH);
            }
          }
          long cpu = os.getProcessCpuTime();
          long start = System.nanoTime();
          try (RootSlices slices = new RootSlices(allocator, base, 122_880);
              ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            Data.exportArrayStream(allocator, slices, stream);
            duck.registerArrowStream("rows", stream);
            st.execute("COPY (SELECT * FROM rows) TO '" + dir.resolve("copy.parquet")
                + "' (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1)");
          }
          if (r >= 0) {
            millis[6][r] = (System.nanoTime() - start) / 1e6;
            copyCpu[r] = (os.getProcessCpuTime() - cpu) / 1e6 / millis[6][r];
          }
        }
        for (double[] times : millis) {
          Arrays.sort(times);
        }
        Arrays.sort(copyCpu);
        Harness.header();
        String[] paths = {" [default: pages copied]", " [page copy off: two lanes]"};
        for (int path = 0; path < 2; path++) {
          for (int i = 0; i < (path == 0 ? 3 : 1); i++) {
            Harness.row(names[i] + paths[path], millis[path * 3 + i]);
          }
        }
        Harness.row("DuckDB COPY of the rows from Arrow (encoding only)", millis[6]);
        System.out.printf(Locale.ROOT, "delete, two lanes / pages copied (medians): %.2fx; CPU cores busy during the"
                + " COPY (median): %.2f; load average at the end %.2f%n",
            Harness.median(millis[3]) / Harness.median(millis[0]), Harness.median(copyCpu), os.getSystemLoadAverage());
      }
    }
  }

  /** The page copy of the file minus some positions. */
  private static DataFile rewrite(RewriteRequest request, long[] dropped, Path out) {
    return PageCopyRewrite.rewrite(request, dropped, org.apache.iceberg.Files.localOutput(out.toFile()))
        .orElseThrow(() -> new IllegalStateException("Page copy declined " + request.source()));
  }
}
