package dev.transforms.benchmarks;

import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.arrow.ArrowTableWriter;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;

/**
 * What skipping up-to-date transforms saves a pipeline: 5 independent chains of 10 single-node copies (50
 * transforms, each reading its whole input and writing its whole output), on the embedded catalog. Each
 * measured pair, in one JVM, alternates: rows appended to the root of one chain (a different one each time),
 * then a build of the pipeline, which runs that chain and skips the other 40; and a build of the pipeline with
 * every transform forced, which runs all 50. Prints the medians and their ratio.
 *
 * <p>The transforms are generated and compiled when the harness starts, as a user's would be: one class per
 * chain.
 *
 * <pre>{@code java -cp "$CP" dev.transforms.benchmarks.PipelineBenchmark 20000 9}</pre>
 *
 * (rows per root table, measured pairs).
 */
public final class PipelineBenchmark {

  static final int CHAINS = 5;
  static final int LENGTH = 10;
  static final int APPENDED = 100;
  static final Schema SCHEMA = new Schema(
      Types.NestedField.optional(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "v", Types.StringType.get()));

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
    List<Class<?>> chains = compileChains(classes);
    try (Transforms transforms = Transforms.open(TransformsConfig.embedded(warehouse));
        BufferAllocator allocator = new RootAllocator()) {
      Catalog catalog = transforms.catalog(TransformsConfig.DEFAULT_CATALOG);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench"));
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench", "pipeline"));
      List<Table> roots = new ArrayList<>();
      long next = 0;
      for (int chain = 0; chain < CHAINS; chain++) {
        Table root = catalog.createTable(TableIdentifier.of(Namespace.of("bench", "pipeline"), "root" + chain), SCHEMA);
        append(root, next, rows, allocator);
        next += rows;
        roots.add(root);
      }
      Transforms.Selection pipeline = Transforms.Selection.of(chains);
      expect(transforms.build(pipeline), 50, 0);
      expect(transforms.build(pipeline), 0, 50);

      double[] changed = new double[runs];
      double[] forced = new double[runs];
      for (int i = -2; i < runs; i++) {
        Table root = roots.get(Math.floorMod(i, CHAINS));
        root.refresh();
        append(root, next, APPENDED, allocator);
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

  private static void append(Table table, long from, int count, BufferAllocator allocator) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(SCHEMA), allocator)) {
      root.allocateNew();
      BigIntVector id = (BigIntVector) root.getVector("id");
      VarCharVector v = (VarCharVector) root.getVector("v");
      for (int i = 0; i < count; i++) {
        id.setSafe(i, from + i);
        v.setSafe(i, ("value-" + (from + i)).getBytes(StandardCharsets.UTF_8));
      }
      root.setRowCount(count);
      AppendFiles append = table.newAppend();
      ArrowTableWriter.writeDataFiles(table, root).forEach(append::appendFile);
      append.commit();
    }
  }

  /** Writes, compiles and loads one class per chain: {@code root -> step0 -> ... -> step9}. */
  private static List<Class<?>> compileChains(Path folder) throws IOException, ClassNotFoundException {
    List<String> sources = new ArrayList<>();
    for (int chain = 0; chain < CHAINS; chain++) {
      StringBuilder source = new StringBuilder("""
          package bench;

          import dev.transforms.api.TableInput;
          import dev.transforms.api.TableOutput;
          import dev.transforms.api.Transform;
          import dev.transforms.singlenode.IcebergInput;
          import dev.transforms.singlenode.IcebergOutput;

          public class Chain%d {
          """.formatted(chain));
      for (int step = 0; step < LENGTH; step++) {
        String input = step == 0 ? "/bench/pipeline/root" + chain : "/bench/pipeline/c" + chain + "_" + (step - 1);
        source.append("""
              @Transform(name = "c%d-%d")
              public void step%d(@TableInput("%s") IcebergInput in,
                  @TableOutput("/bench/pipeline/c%d_%d") IcebergOutput out) {
                out.writeTable(in.arrow());
              }
            """.formatted(chain, step, step, input, chain, step));
      }
      source.append("}\n");
      Path file = folder.resolve("bench").resolve("Chain" + chain + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, source);
      sources.add(file.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> arguments = new ArrayList<>(List.of("-proc:none", "-classpath", System.getProperty("java.class.path"),
        "-d", folder.toString()));
    arguments.addAll(sources);
    if (javac.run(null, null, null, arguments.toArray(String[]::new)) != 0) {
      throw new IllegalStateException("the generated chains did not compile");
    }
    URLClassLoader loader = new URLClassLoader(new URL[] {folder.toUri().toURL()},
        PipelineBenchmark.class.getClassLoader());
    List<Class<?>> chains = new ArrayList<>();
    for (int chain = 0; chain < CHAINS; chain++) {
      chains.add(loader.loadClass("bench.Chain" + chain));
    }
    return chains;
  }
}
