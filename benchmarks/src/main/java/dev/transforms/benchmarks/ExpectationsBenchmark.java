package dev.transforms.benchmarks;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.api.checks.NotNull;
import dev.transforms.api.checks.PrimaryKey;
import dev.transforms.runtime.BuildReport;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.arrow.ArrowTableWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
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
 * What auditing data expectations costs a single-node build: the same transform (copy a 1M-row input
 * into its output) built with no checks and with a primary key and two not-null checks on the output,
 * alternating, in one JVM. Prints the medians of each and the overhead of the checks.
 *
 * <pre>{@code java $OPENS -Xmx8g -cp "$CP" dev.transforms.benchmarks.ExpectationsBenchmark 15}</pre>
 */
public final class ExpectationsBenchmark {

  static final int ROWS = 1_000_000;
  static final String IN = "/Bench/in/rows";
  static final Schema SCHEMA = new Schema(
      Types.NestedField.optional(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "status", Types.StringType.get()),
      Types.NestedField.optional(3, "amount", Types.DoubleType.get()));

  private ExpectationsBenchmark() {}

  /** The copy without checks. */
  public static class Plain {
    /**
     * Copies the input.
     *
     * @param in the input
     * @param out the output
     */
    @Transform(name = "plain")
    public void copy(@TableInput(IN) IcebergInput in, @TableOutput("/Bench/out/plain") IcebergOutput out) {
      try (VectorSchemaRoot rows = in.arrow()) {
        out.writeTable(rows);
      }
    }
  }

  /** The same copy, audited. */
  public static class Checked {
    /**
     * Copies the input under a primary key and two not-null checks.
     *
     * @param in the input
     * @param out the output
     */
    @Transform(name = "checked")
    public void copy(@TableInput(IN) IcebergInput in,
        @TableOutput("/Bench/out/checked") @PrimaryKey("id") @NotNull({"status", "amount"}) IcebergOutput out) {
      try (VectorSchemaRoot rows = in.arrow()) {
        out.writeTable(rows);
      }
    }
  }

  /**
   * Runs the benchmark.
   *
   * @param args the number of measured builds of each transform (default 15)
   * @throws Exception if a build fails
   */
  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    Path warehouse = Files.createTempDirectory("transforms-bench");
    Harness.deleteOnExit(warehouse);
    try (Transforms transforms = Transforms.open(TransformsConfig.embedded(warehouse))) {
      seed(transforms.catalog(TransformsConfig.DEFAULT_CATALOG));
      double[] plain = new double[runs];
      double[] checked = new double[runs];
      double[] plainCpu = new double[runs];
      double[] checkedCpu = new double[runs];
      for (int i = -2; i < runs; i++) {
        long cpu = cpuNanos();
        double p = Harness.time(() -> succeed(transforms.build(Transforms.Selection.of(Plain.class).force())));
        long between = cpuNanos();
        double c = Harness.time(() -> succeed(transforms.build(Transforms.Selection.of(Checked.class).force())));
        long after = cpuNanos();
        if (i >= 0) {
          plain[i] = p;
          checked[i] = c;
          plainCpu[i] = (between - cpu) / 1e6;
          checkedCpu[i] = (after - between) / 1e6;
        }
      }
      for (double[] sorted : new double[][] {plain, checked, plainCpu, checkedCpu}) {
        Arrays.sort(sorted);
      }
      Harness.header();
      Harness.row("build, 1M rows, no checks: wall", plain);
      Harness.row("build, 1M rows, primary key + 2 not null: wall", checked);
      Harness.row("build, 1M rows, no checks: process CPU", plainCpu);
      Harness.row("build, 1M rows, primary key + 2 not null: CPU", checkedCpu);
      System.out.printf("overhead of the checks (medians): wall %.1f%%, CPU %.1f%%%n",
          100 * (Harness.median(checked) / Harness.median(plain) - 1),
          100 * (Harness.median(checkedCpu) / Harness.median(plainCpu) - 1));
    }
  }

  /** CPU time of the whole process: what other processes' load does not inflate. */
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static void succeed(BuildReport report) {
    if (!report.succeeded()) {
      throw new IllegalStateException(report.format());
    }
  }

  private static void seed(Catalog catalog) {
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("Bench"));
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("Bench", "in"));
    Table table = catalog.createTable(TableIdentifier.of(Namespace.of("Bench", "in"), "rows"), SCHEMA);
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(SCHEMA), allocator)) {
      root.allocateNew();
      BigIntVector id = (BigIntVector) root.getVector("id");
      VarCharVector status = (VarCharVector) root.getVector("status");
      Float8Vector amount = (Float8Vector) root.getVector("amount");
      byte[][] statuses = {"open".getBytes(StandardCharsets.UTF_8), "paid".getBytes(StandardCharsets.UTF_8),
          "late".getBytes(StandardCharsets.UTF_8)};
      for (int i = 0; i < ROWS; i++) {
        id.setSafe(i, i * 7L + 3);
        status.setSafe(i, statuses[i % 3]);
        amount.setSafe(i, i * 0.5);
      }
      root.setRowCount(ROWS);
      AppendFiles append = table.newAppend();
      ArrowTableWriter.writeDataFiles(table, root).forEach(append::appendFile);
      append.commit();
    }
  }
}
