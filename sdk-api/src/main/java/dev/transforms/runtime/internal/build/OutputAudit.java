package dev.transforms.runtime.internal.build;

import dev.transforms.api.ExpectationFailedException;
import dev.transforms.api.checks.CheckContext;
import dev.transforms.api.checks.CheckOutcome;
import dev.transforms.api.checks.OutputCheck;
import dev.transforms.runtime.CheckResult;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.spi.BoundOutput;
import dev.transforms.runtime.spi.CheckSpec;
import dev.transforms.runtime.Counts;
import dev.transforms.runtime.spi.Engine;
import dev.transforms.runtime.spi.StagedOutput;
import dev.transforms.runtime.spi.TransformRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

/**
 * The audit of write-audit-publish: evaluates the data expectations declared on a transform's outputs
 * against what the transform staged, after its method returned and before anything is published.
 *
 * <p>Checks that need only metadata or user code ({@code HasColumn}, {@code Check}) are evaluated
 * here; the others go to the transform's engine, which reads the staged rows its own way (Spark on
 * the staging branch, the single-node engine with its own reader), only the columns they need and,
 * in an incremental build that only appended, only the appended rows. A check naming a column the
 * output does not have cannot be evaluated: it counts as failed, naming the column.
 */
final class OutputAudit {


  private OutputAudit() {}

  /**
   * Evaluates every check of every output of a run.
   *
   * @param engine the run's engine
   * @param run the run, its method returned
   * @param published the snapshot each output's {@code main} had when the run started
   * @return the results, output by output, each in declared order
   */
  static List<CheckResult> audit(Engine engine, TransformRun run, Map<DatasetPath, OptionalLong> published) {
    List<CheckResult> all = new ArrayList<>();
    for (BoundOutput output : run.outputs()) {
      List<CheckSpec> checks = output.parameter().checks();
      if (checks.isEmpty()) {
        continue;
      }
      DatasetPath path = output.parameter().requirePath();
      Optional<Table> staged = run.staging().table(output);
      if (staged.isEmpty()) {
        checks.forEach(check -> all.add(error(path, check, "the transform created no table for this output")));
        continue;
      }
      Table table = staged.get();
      table.refresh();
      SnapshotRef head = table.refs().get(run.branch(output));
      if (head == null) {
        checks.forEach(check -> all.add(error(path, check, output.existing().isEmpty()
            ? "the transform wrote no rows to this output" : "the staging branch " + run.branch(output) + " is gone")));
        continue;
      }
      OptionalLong base = published.getOrDefault(path, OptionalLong.empty());
      StagedOutput stagedOutput = new StagedOutput(output, table, run.branch(output), head.snapshotId(), base,
          run.isIncremental() && appendsOnly(table, head.snapshotId(), base) ? base : OptionalLong.empty());
      all.addAll(auditOne(engine, run, stagedOutput, checks));
    }
    return all;
  }

  private static List<CheckResult> auditOne(Engine engine, TransformRun run, StagedOutput staged,
      List<CheckSpec> checks) {
    DatasetPath path = staged.output().parameter().requirePath();
    Schema schema = schemaOf(staged);
    Map<CheckSpec, CheckResult> results = new LinkedHashMap<>();
    List<CheckSpec> forEngine = new ArrayList<>();
    for (CheckSpec check : checks) {
      List<String> missing = check.columns().stream().filter(c -> schema.findField(c) == null).toList();
      if (!missing.isEmpty()) {
        results.put(check, error(path, check, "column" + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing)
            + (missing.size() == 1 ? " is" : " are") + " not in the output; its columns: "
            + schema.columns().stream().map(Types.NestedField::name).toList()));
      } else if (check instanceof CheckSpec.HasColumn hasColumn) {
        results.put(check, hasColumn(path, schema, hasColumn));
      } else if (check instanceof CheckSpec.Custom custom) {
        results.put(check, custom(run, staged, custom));
      } else {
        results.put(check, null);
        forEngine.add(check);
      }
    }
    if (!forEngine.isEmpty()) {
      List<CheckResult> evaluated = engine.evaluate(run, staged, forEngine);
      for (int i = 0; i < forEngine.size(); i++) {
        results.put(forEngine.get(i), evaluated.get(i));
      }
    }
    return new ArrayList<>(results.values());
  }

  private static Schema schemaOf(StagedOutput staged) {
    Snapshot head = staged.table().snapshot(staged.stagedSnapshotId());
    Integer schemaId = head == null ? null : head.schemaId();
    Schema schema = schemaId == null ? null : staged.table().schemas().get(schemaId);
    return schema == null ? staged.table().schema() : schema;
  }

  private static CheckResult hasColumn(DatasetPath path, Schema schema, CheckSpec.HasColumn check) {
    Types.NestedField field = schema.findField(check.column());
    if (field == null) {
      return new CheckResult(path, check.name(), check.level(), CheckResult.Outcome.FAILED, 0, List.of(),
          "the output has no column " + check.column() + "; its columns: "
              + schema.columns().stream().map(Types.NestedField::name).toList());
    }
    String actual = field.type().toString().toLowerCase(Locale.ROOT).replace(" ", "");
    if (!check.type().isEmpty() && !actual.equals(check.type().replace(" ", ""))) {
      return new CheckResult(path, check.name(), check.level(), CheckResult.Outcome.FAILED, 0, List.of(),
          "column " + check.column() + " is " + field.type() + ", not " + check.type());
    }
    return passed(path, check);
  }

  private static CheckResult custom(TransformRun run, StagedOutput staged, CheckSpec.Custom check) {
    DatasetPath path = staged.output().parameter().requirePath();
    try {
      ClassLoader loader = run.spec().method().getDeclaringClass().getClassLoader();
      OutputCheck instance = (OutputCheck) Class.forName(check.className(), true, loader).getConstructor().newInstance();
      CheckOutcome outcome = instance.check(new CheckContext() {
        @Override public String path() { return path.toString(); }
        @Override public Table table() { return staged.table(); }
        @Override public long snapshotId() { return staged.stagedSnapshotId(); }
        @Override public OptionalLong publishedSnapshotId() { return staged.publishedSnapshotId(); }
      });
      if (outcome == null) {
        return error(path, check, check.className() + ".check returned null; return CheckOutcome.pass() or fail(...)");
      }
      return outcome.passed() ? passed(path, check) : new CheckResult(path, check.name(), check.level(),
          CheckResult.Outcome.FAILED, outcome.violations(), outcome.examples(), outcome.message());
    } catch (ReflectiveOperationException | LinkageError e) {
      return error(path, check, "cannot create " + check.className() + ": " + e);
    } catch (Exception e) {
      return error(path, check, check.className() + " threw " + e);
    }
  }

  /** Whether every snapshot after {@code base} up to {@code head} only appended rows (or compacted them). */
  private static boolean appendsOnly(Table table, long head, OptionalLong base) {
    if (base.isEmpty()) {
      return false;
    }
    for (Snapshot s = table.snapshot(head); s != null; s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
      if (s.snapshotId() == base.getAsLong()) {
        return true;
      }
      if (!dev.transforms.runtime.spi.ChangeRange.keepsEarlierRows(s)) {
        return false;
      }
    }
    return false;
  }

  static CheckResult passed(DatasetPath path, CheckSpec check) {
    return new CheckResult(path, check.name(), check.level(), CheckResult.Outcome.PASSED, 0, List.of(), "");
  }

  static CheckResult error(DatasetPath path, CheckSpec check, String detail) {
    return new CheckResult(path, check.name(), check.level(), CheckResult.Outcome.ERROR, 0, List.of(), detail);
  }

  /**
   * Fails the build when a check at level {@code FAIL} did not pass.
   *
   * @param transform the transform's name
   * @param results every result
   * @throws ExpectationFailedException naming each blocking check, its output, count and examples
   */
  static void enforce(String transform, List<CheckResult> results) {
    List<CheckResult> blocking = results.stream().filter(CheckResult::blocks).toList();
    if (!blocking.isEmpty()) {
      throw new ExpectationFailedException("Transform " + transform + " did not publish: " + blocking.size()
          + " check" + (blocking.size() == 1 ? "" : "s") + " failed on what it wrote, which stays unpublished:\n  - "
          + blocking.stream().map(CheckResult::describe).collect(Collectors.joining("\n  - ")));
    }
  }

  /**
   * The table properties that record, on each output, how its checks came out for the published version.
   *
   * @param results every result
   * @return the properties by output
   */
  static Map<DatasetPath, Map<String, String>> properties(List<CheckResult> results) {
    Map<DatasetPath, Map<String, String>> properties = new LinkedHashMap<>();
    for (CheckResult result : results) {
      String value = result.outcome() == CheckResult.Outcome.PASSED ? "passed"
          : "warned: " + (result.outcome() == CheckResult.Outcome.ERROR ? result.detail()
              : Counts.of(result.violations(), "row") + " " + Counts.verb(result.violations(), "violates", "violate")
                  + " it");
      properties.computeIfAbsent(result.output(), p -> new LinkedHashMap<>()).put(dev.transforms.runtime.internal.publish.OutputPublisher.CHECKS_PREFIX + result.check(), value);
    }
    return properties;
  }
}
