package dev.transforms.testengine;

import dev.transforms.api.Handle;
import dev.transforms.api.IncrementalTransformContext;
import dev.transforms.runtime.spi.BoundInput;
import dev.transforms.runtime.spi.BoundOutput;
import dev.transforms.runtime.spi.BuildEnvironment;
import dev.transforms.runtime.spi.Engine;
import dev.transforms.runtime.spi.EngineProvider;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformRun;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;

/** A tiny engine over one-column tables, so the runtime can be tested without Spark or Arrow. */
public final class TestEngine implements EngineProvider, Engine {

  /** How many times an engine was started, to check engines start lazily. */
  public static volatile int starts;

  @Override
  public String name() {
    return "test";
  }

  @Override
  public Engine start(BuildEnvironment build) {
    starts++;
    return new TestEngine();
  }

  @Override
  public void run(TransformRun run) {
    Object[] args = new Object[run.spec().parameters().size()];
    for (ParameterSpec p : run.spec().parameters()) {
      if (p.role() == Handle.Role.CONTEXT) {
        args[p.index()] = new IncrementalTransformContext() {
          @Override public boolean isIncremental() { return run.isIncremental(); }
          @Override public String transformName() { return run.spec().name(); }
          @Override public String buildId() { return run.build().buildId(); }
        };
      } else if (p.role() == Handle.Role.INPUT) {
        args[p.index()] = input(run.input(p));
      } else {
        args[p.index()] = output(run, run.output(p));
      }
    }
    run.invoke(args);
  }

  private static TestInput input(BoundInput bound) {
    Table table = bound.table().orElseThrow();
    return new TestInput() {
      @Override public List<Long> ids() {
        return bound.currentSnapshotId().isPresent() ? IdTables.ids(table, bound.currentSnapshotId().getAsLong()) : List.of();
      }
      @Override public List<Long> addedIds() {
        if (!bound.readsAdded() || bound.previousSnapshotId().isEmpty()) {
          return ids();
        }
        long from = bound.previousSnapshotId().getAsLong();
        long to = bound.currentSnapshotId().getAsLong();
        return from == to ? List.of() : IdTables.appendedIds(table, from, to);
      }
      @Override public OptionalLong currentSnapshotId() { return bound.currentSnapshotId(); }
      @Override public OptionalLong previousSnapshotId() { return bound.previousSnapshotId(); }
    };
  }

  private static TestOutput output(TransformRun run, BoundOutput bound) {
    return new TestOutput() {
      @Override public Table table() {
        Table table = run.staging().table(bound)
            .orElseGet(() -> run.staging().createTable(bound, IdTables.SCHEMA, PartitionSpec.unpartitioned(), Map.of()));
        table.refresh();
        return table;
      }
      @Override public void append(long... ids) {
        IdTables.append(table(), run.branch(bound), run.commitProperties(), ids);
      }
      @Override public void addColumn(String name) {
        List<org.apache.iceberg.types.Types.NestedField> columns = new java.util.ArrayList<>(table().schema().columns());
        columns.add(org.apache.iceberg.types.Types.NestedField.optional(10_000, name,
            org.apache.iceberg.types.Types.StringType.get()));
        dev.transforms.runtime.spi.OutputShapes.replace(run, bound,
            new org.apache.iceberg.Schema(columns), Optional.empty());
      }
      @Override public void appendNothing() {
        table().newAppend().toBranch(run.branch(bound)).commit();
      }
      @Override public void deleteAll() {
        table().newDelete().deleteFromRowFilter(org.apache.iceberg.expressions.Expressions.alwaysTrue())
            .toBranch(run.branch(bound)).commit();
      }
      @Override public List<Long> ids() {
        Optional<Table> staged = run.staging().table(bound);
        if (staged.isEmpty()) {
          return List.of();
        }
        Table table = staged.get();
        table.refresh();
        org.apache.iceberg.SnapshotRef head = table.refs().get(run.branch(bound));
        return head == null ? List.of() : IdTables.ids(table, head.snapshotId());
      }
    };
  }

  /** Evaluates checks on the one column {@code id}: enough to test the audit without a real engine. */
  @Override
  public List<dev.transforms.runtime.CheckResult> evaluate(TransformRun run,
      dev.transforms.runtime.spi.StagedOutput output, List<dev.transforms.runtime.spi.CheckSpec> checks) {
    List<Long> ids = IdTables.ids(output.table(), output.stagedSnapshotId());
    long published = output.publishedSnapshotId().isPresent()
        ? IdTables.ids(output.table(), output.publishedSnapshotId().getAsLong()).size() : -1;
    var path = output.output().parameter().requirePath();
    List<dev.transforms.runtime.CheckResult> results = new java.util.ArrayList<>();
    for (var check : checks) {
      long violations;
      if (check instanceof dev.transforms.runtime.spi.CheckSpec.NotNull) {
        violations = ids.stream().filter(java.util.Objects::isNull).count();
      } else if (check instanceof dev.transforms.runtime.spi.CheckSpec.PrimaryKey
          || check instanceof dev.transforms.runtime.spi.CheckSpec.Unique) {
        violations = ids.size() - new java.util.HashSet<>(ids).size();
      } else if (check instanceof dev.transforms.runtime.spi.CheckSpec.RowCount r) {
        violations = ids.size() < r.min() || ids.size() > r.max()
            || (published > 0 && r.maxDropPercent() >= 0 && ids.size() < published * (1 - r.maxDropPercent() / 100))
            ? 1 : 0;
      } else {
        violations = -1;
      }
      results.add(new dev.transforms.runtime.CheckResult(path, check.name(), check.level(),
          violations == 0 ? dev.transforms.runtime.CheckResult.Outcome.PASSED
              : violations < 0 ? dev.transforms.runtime.CheckResult.Outcome.ERROR
              : dev.transforms.runtime.CheckResult.Outcome.FAILED,
          Math.max(0, violations), List.of(), violations < 0 ? "not supported by the test engine" : ""));
    }
    return results;
  }

  @Override
  public void close() {}
}
