package dev.transforms.benchmarks;

import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.spark.SparkSessions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.spark.sql.SparkSession;

/**
 * What running independent transforms at once saves: 4 independent chains of 6 transforms (24 in all),
 * steps alternating between Spark and the single-node engine, each copying its whole input (100,000
 * rows by default) to its output, on the embedded catalog and a local Spark session. Every build is
 * forced (all 24 run); measured pairs alternate a build with {@code threads(1)} and one with
 * {@code threads(4)}, in one JVM, after a warm-up pair. Prints the medians and their ratio.
 *
 * <pre>{@code java $OPENS -Xmx6g -cp "$CP" dev.transforms.benchmarks.ParallelBuildBenchmark 100000 5}</pre>
 *
 * (rows per root table, measured pairs).
 */
public final class ParallelBuildBenchmark {

  static final int CHAINS = 4;
  static final int LENGTH = 6;

  private ParallelBuildBenchmark() {}

  /**
   * Runs the benchmark.
   *
   * @param args rows per root table (100000), measured pairs (5), threads of the parallel builds (4),
   *     {@code shared} to run every build in one Spark session created first
   * @throws Exception if a build fails
   */
  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    boolean sharedSession = args.length > 3 && args[3].equals("shared");
    Path warehouse = Files.createTempDirectory("transforms-bench");
    Path classes = Files.createTempDirectory("transforms-bench-classes");
    Harness.deleteOnExit(warehouse);
    Harness.deleteOnExit(classes);
    List<Class<?>> steps = GeneratedChains.compile(classes, CHAINS, LENGTH,
        (chain, step) -> (chain + step) % 2 == 0 ? GeneratedChains::sparkStep : GeneratedChains::singleNodeStep);
    TransformsConfig config = TransformsConfig.embedded(warehouse);
    SparkSession session = sharedSession ? SparkSessions.builder(config).getOrCreate() : null;
    try (Transforms transforms = Transforms.open(config);
        BufferAllocator allocator = new RootAllocator()) {
      Catalog catalog = transforms.catalog(TransformsConfig.DEFAULT_CATALOG);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench"));
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench", "pipeline"));
      for (int chain = 0; chain < CHAINS; chain++) {
        Table root = catalog.createTable(TableIdentifier.of(Namespace.of("bench", "pipeline"), "root" + chain),
            GeneratedChains.SCHEMA);
        GeneratedChains.appendRows(root, (long) chain * rows, rows, allocator);
      }
      Transforms.Selection pipeline = Transforms.Selection.of(steps).force();
      double[] one = new double[runs];
      double[] many = new double[runs];
      for (int i = -1; i < runs; i++) {
        double sequential = Harness.time(() -> expect(transforms.build(pipeline.threads(1))));
        double parallel = Harness.time(() -> expect(transforms.build(pipeline.threads(threads))));
        if (i >= 0) {
          one[i] = sequential;
          many[i] = parallel;
        }
      }
      Arrays.sort(one);
      Arrays.sort(many);
      Harness.header();
      Harness.row("24 transforms, threads(1)", one);
      Harness.row("24 transforms, threads(" + threads + ")", many);
      System.out.printf("threads(%d) / threads(1) (medians): %.2fx; %d rows per root, %d pairs, %d cores%n", threads,
          Harness.median(many) / Harness.median(one), rows, runs, Runtime.getRuntime().availableProcessors());
    } finally {
      if (session != null) {
        session.stop();
      }
    }
  }

  /** Fails unless all 24 ran and published. */
  private static BuildReport expect(BuildReport report) {
    long ran = report.results().stream().filter(r -> r.status() == TransformResult.Status.SUCCEEDED).count();
    if (ran != (long) CHAINS * LENGTH) {
      throw new IllegalStateException("expected " + CHAINS * LENGTH + " transforms to run:\n" + report.format());
    }
    return report;
  }

}
