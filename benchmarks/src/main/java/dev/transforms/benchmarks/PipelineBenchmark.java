package dev.transforms.benchmarks;

import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * What skipping up-to-date transforms saves a pipeline: 5 independent chains of 10 single-node copies (50
 * transforms, each reading its whole input and writing its whole output), on the embedded catalog. Each
 * measured pair, in one JVM, alternates: rows appended to the root of one chain (a different one each time),
 * then a build of the pipeline, which runs that chain and skips the other 40; and a build of the pipeline with
 * every transform forced, which runs all 50. Prints the medians and their ratio.
 *
 * <p>The transforms are generated and compiled when the harness starts ({@link GeneratedChains}). The
 * builds here run one transform at a time ({@code threads(1)}), so that the ratio is skipping's alone.
 *
 * <pre>{@code java -cp "$CP" dev.transforms.benchmarks.PipelineBenchmark 20000 9}</pre>
 *
 * (rows per root table, measured pairs).
 */
public final class PipelineBenchmark {

  static final int CHAINS = 5;
  static final int LENGTH = 10;
  static final int APPENDED = 100;

  private PipelineBenchmark() {}

  /**
   * Runs the benchmark.
   *
   * @param args rows per root table (20000), measured pairs (9)
   * @throws Exception if a build fails
   */
  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 9;
    Path warehouse = Files.createTempDirectory("transforms-bench");
    Path classes = Files.createTempDirectory("transforms-bench-classes");
    Harness.deleteOnExit(warehouse);
    Harness.deleteOnExit(classes);
    List<Class<?>> chains = GeneratedChains.compile(classes, CHAINS, LENGTH,
        (chain, step) -> GeneratedChains::singleNodeStep);
    try (Transforms transforms = Transforms.open(TransformsConfig.embedded(warehouse));
        BufferAllocator allocator = new RootAllocator()) {
      Catalog catalog = transforms.catalog(TransformsConfig.DEFAULT_CATALOG);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench"));
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench", "pipeline"));
      List<Table> roots = new ArrayList<>();
      long next = 0;
      for (int chain = 0; chain < CHAINS; chain++) {
        Table root = catalog.createTable(TableIdentifier.of(Namespace.of("bench", "pipeline"), "root" + chain),
            GeneratedChains.SCHEMA);
        GeneratedChains.appendRows(root, next, rows, allocator);
        next += rows;
        roots.add(root);
      }
      Transforms.Selection pipeline = Transforms.Selection.of(chains).threads(1);
      expect(transforms.build(pipeline), 50, 0);
      expect(transforms.build(pipeline), 0, 50);

      double[] changed = new double[runs];
      double[] forced = new double[runs];
      for (int i = -2; i < runs; i++) {
        Table root = roots.get(Math.floorMod(i, CHAINS));
        root.refresh();
        GeneratedChains.appendRows(root, next, APPENDED, allocator);
        next += APPENDED;
        double one = Harness.time(() -> expect(transforms.build(pipeline), LENGTH, 50 - LENGTH));
        double all = Harness.time(() -> expect(transforms.build(pipeline.force()), 50, 0));
        if (i >= 0) {
          changed[i] = one;
          forced[i] = all;
        }
      }
      java.util.Arrays.sort(changed);
      java.util.Arrays.sort(forced);
      Harness.header();
      Harness.row("one root changed: 10 run, 40 up to date", changed);
      Harness.row("every transform forced: 50 run", forced);
      System.out.printf("one root changed / everything (medians): %.2fx; %d rows per root, %d pairs%n",
          Harness.median(changed) / Harness.median(forced), rows, runs);
    }
  }

  /** Fails unless the build ran and skipped the given numbers of transforms. */
  private static BuildReport expect(BuildReport report, int ran, int upToDate) {
    Map<TransformResult.Status, Integer> counts = new TreeMap<>();
    report.results().forEach(r -> counts.merge(r.status(), 1, Integer::sum));
    if (!report.succeeded() || counts.getOrDefault(TransformResult.Status.SUCCEEDED, 0) != ran
        || counts.getOrDefault(TransformResult.Status.UP_TO_DATE, 0) != upToDate) {
      throw new IllegalStateException("expected " + ran + " run and " + upToDate + " up to date, got " + counts
          + ":\n" + report.format());
    }
    return report;
  }

}
