package dev.transforms.benchmarks;

import dev.transforms.api.Handle;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.build.BuildOptions;
import dev.transforms.runtime.internal.build.BuildRunner;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.validate.ReflectiveModels;
import dev.transforms.runtime.spi.BuildEnvironment;
import dev.transforms.runtime.spi.Engine;
import dev.transforms.runtime.spi.EngineProvider;
import dev.transforms.runtime.spi.TransformRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;

/**
 * The runtime's own cost for one transform whose body is empty: validate, plan, resolve, load the
 * input and output tables, decide incremental, stage the output branch, invoke, publish (state stamp
 * and fast-forward) and report, on the embedded SQLite catalog.
 *
 * <p>Run: {@code mvn -q -pl benchmarks -am package -DskipTests && java -cp "$(cat benchmarks/target/cp.txt)"
 * dev.transforms.benchmarks.RuntimeOverheadBenchmark} (see docs/benchmarks.md for the exact command).
 */
public final class RuntimeOverheadBenchmark {

  /** A handle whose engine does nothing but invoke. */
  @Handle(engine = "noop", role = Handle.Role.INPUT, paths = TableInput.class, artifact = "dev.transforms:benchmarks")
  public interface NoopInput {}

  /** A handle whose engine does nothing but invoke. */
  @Handle(engine = "noop", role = Handle.Role.OUTPUT, paths = TableOutput.class, artifact = "dev.transforms:benchmarks")
  public interface NoopOutput {}

  /** The empty transform. */
  public static class Empty {
    @Transform
    public void empty(@TableInput("/bench/in") NoopInput in, @TableOutput("/bench/out") NoopOutput out) {}
  }

  /** Binds the handles and invokes; nothing else. */
  public static final class NoopEngine implements EngineProvider, Engine {
    @Override public String name() {
      return "noop";
    }

    @Override public Engine start(BuildEnvironment build) {
      return this;
    }

    @Override public void run(TransformRun run) {
      run.invoke(new Object[] {new NoopInput() {}, new NoopOutput() {}});
    }

    @Override public void close() {}
  }

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    Path warehouse = Files.createTempDirectory("transforms-bench");
    Harness.deleteOnExit(warehouse);
    TransformsConfig config = TransformsConfig.embedded(warehouse);
    try (BuildRunner runner = new BuildRunner(config, null, List.of(new NoopEngine()))) {
      Catalog catalog = runner.catalogs().catalog("local");
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("bench"));
      Schema schema = new Schema(Types.NestedField.optional(1, "id", Types.LongType.get()));
      catalog.createTable(TableIdentifier.of("bench", "in"), schema);
      catalog.createTable(TableIdentifier.of("bench", "out"), schema);

      Harness.header();
      double[] validate = Harness.measure(50, runs, () -> BuildPlan.of(ReflectiveModels.transformsOf(Empty.class)));
      Harness.row("validate + plan", validate);
      BuildPlan plan = BuildPlan.of(ReflectiveModels.transformsOf(Empty.class));
      double[] build = Harness.measure(30, runs, () -> {
        BuildReport report = runner.run(plan, BuildListener.NONE, BuildOptions.forcing(plan));
        if (!report.succeeded()) {
          throw new IllegalStateException(report.format());
        }
        return report;
      });
      Harness.row("build of one empty transform (existing output)", build);
      double[] skipped = Harness.measure(30, runs, () -> runner.run(plan, BuildListener.NONE));
      Harness.row("build of one up-to-date transform (skipped)", skipped);
      double[] whole = Harness.measure(30, runs, () -> {
        BuildPlan fresh = BuildPlan.of(ReflectiveModels.transformsOf(Empty.class));
        return runner.run(fresh, BuildListener.NONE, BuildOptions.forcing(fresh));
      });
      Harness.row("validate + plan + build", whole);
    }
  }
}
