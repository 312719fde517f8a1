package dev.transforms.history;

import dev.transforms.history.TableContents.Rows;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.testing.TestWarehouse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * One build of the downstream transforms, and what the model says of it: how each transform must have
 * run (up to date, incremental, or full for a reason it gives), and that each incremental variant's output
 * equals its full twin's.
 *
 * <p>What "equal" means, per way of reading (columns an output kept from earlier builds and that hold
 * only nulls are left out: an incremental build never drops a column, a full build writes only what it
 * reads):
 * <ul>
 *   <li>Added rows ({@code added}, {@code compared}): the same rows as {@code current}, the input's
 *       current rows, which the model's rows must equal too. An incremental build may only go ahead over
 *       appends and compactions, and then the rows added since are exactly the new rows. {@code
 *       spark-added} is held to the model's rows in the table's schema when it ran: Spark 3.5 reads a
 *       snapshot in the table's schema of the time, the single-node engine in the snapshot's own.
 *   <li>Raw changes ({@code changes}, {@code spark-changes}): the same changes as {@code changes-full}
 *       (all but {@code _change_ordinal}, a position within each build's range) as long as both outputs
 *       derive from the same oldest snapshot. Once snapshots the variant read have expired, the twin
 *       starts later, at a snapshot that counts as inserting all its rows; then the two must agree on
 *       every snapshot both still describe as a change from its parent. Either way, applying an output's
 *       changes in commit order must give the input's current rows: no change lost or read twice.
 *   <li>Slowly changing dimensions ({@code scd1}, {@code scd2} and their Spark variants): the same rows as
 *       the twin while both derive from the same oldest snapshot. Once the twin starts later, type 1
 *       still gives the same rows and type 2 the same current versions (their {@code valid_from} is the
 *       commit time of a snapshot the twin no longer sees), unless a late change was written: whether it
 *       is ignored depends on the rows before it, which the twin no longer sees.
 *   <li>{@code new-ids}: the current rows whose id the snapshot its last build read did not hold (all of
 *       them when that snapshot expired), from the model's snapshots.
 * </ul>
 */
final class BuildCheck {

  /**
   * A downstream transform.
   *
   * @param name its name
   * @param output its output's path
   * @param incremental whether it is {@code @Incremental}
   * @param readsChanges whether it reads changes (so edits keep it incremental)
   */
  record DownstreamTransform(String name, String output, boolean incremental, boolean readsChanges) {}

  static final List<DownstreamTransform> SINGLE_NODE = List.of(
      new DownstreamTransform("added", Downstream.ADDED, true, false),
      new DownstreamTransform("compared", Downstream.COMPARED, true, false),
      new DownstreamTransform("changes", Downstream.CHANGES, true, true),
      new DownstreamTransform("scd1", Downstream.SCD1, true, true),
      new DownstreamTransform("scd2", Downstream.SCD2, true, true),
      new DownstreamTransform("new-ids", Downstream.NEW_IDS, false, false),
      new DownstreamTransform("current", Downstream.CURRENT, false, false),
      new DownstreamTransform("changes-full", Downstream.CHANGES_FULL, false, false),
      new DownstreamTransform("scd1-full", Downstream.SCD1_FULL, false, false),
      new DownstreamTransform("scd2-full", Downstream.SCD2_FULL, false, false));

  static final List<DownstreamTransform> SPARK = List.of(
      new DownstreamTransform("spark-added", SparkDownstream.ADDED, true, false),
      new DownstreamTransform("spark-changes", SparkDownstream.CHANGES, true, true),
      new DownstreamTransform("spark-scd1", SparkDownstream.SCD1, true, true),
      new DownstreamTransform("spark-scd2", SparkDownstream.SCD2, true, true));

  /** The tally's name for builds killed in a child JVM. */
  static final String KILLED = "killed build";

  private static final String CHANGE_TYPE = "_change_type";
  private static final String ORDINAL = "_change_ordinal";
  private static final String COMMIT = "_commit_snapshot_id";
  private static final Set<String> CHANGE_COLUMNS = Set.of(CHANGE_TYPE, ORDINAL, COMMIT);

  private final TestWarehouse warehouse;
  private final InputSteps input;
  private final InputModel model;
  private final List<DownstreamTransform> transforms;
  private final List<Class<?>> classes;
  /** Transforms whose last build failed: their outputs are older than the input's head. */
  private final Set<String> failed = new HashSet<>();

  BuildCheck(TestWarehouse warehouse, InputSteps input, boolean spark) {
    this.warehouse = warehouse;
    this.input = input;
    this.model = input.model();
    this.transforms = spark ? Stream.concat(SINGLE_NODE.stream(), SPARK.stream()).toList() : SINGLE_NODE;
    this.classes = spark ? List.of(Downstream.class, Downstream.FullTwins.class, SparkDownstream.class)
        : List.of(Downstream.class, Downstream.FullTwins.class);
  }

  /**
   * Builds every transform, one of them failing after it wrote its rows if asked, and checks the build.
   *
   * @param failing the transform that fails, if any
   * @return what the build did, in words
   * @throws Mismatch if a transform ran otherwise than the model says, or an output differs from its twin
   */
  String build(Optional<String> failing) {
    Map<String, InputModel.Expectation> expected = new HashMap<>();
    Map<String, Long> readBefore = new HashMap<>();
    for (DownstreamTransform transform : transforms) {
      expected.put(transform.name(), model.expect(transform.name(), transform.incremental(), transform.readsChanges()));
      readBefore.put(transform.name(), model.reader(transform.name()).lastRead);
    }
    Optional<List<String>> failingRows = failing.map(name -> TableContents.sorted(read(outputOf(name)).rows(), Set.of()));
    Table table = input.table();
    failing.ifPresent(name -> InjectedFailure.arm(table, name));
    BuildReport report;
    try {
      report = warehouse.build(classes.toArray(Class<?>[]::new)).report();
    } finally {
      InjectedFailure.disarm(table);
    }
    List<String> words = new ArrayList<>();
    for (DownstreamTransform transform : transforms) {
      TransformResult result = report.result(transform.name()).orElseThrow(() -> new Mismatch(transform.name()
          + " ran", "the build ran no transform " + transform.name() + "\n" + report.format()));
      InputModel.Expectation expectation = expected.get(transform.name());
      boolean fails = failing.equals(Optional.of(transform.name())) && !expectation.upToDate();
      checkRun(transform, result, expectation, fails, report);
      if (fails) {
        List<String> after = TableContents.sorted(read(transform.output()).rows(), Set.of());
        if (!after.equals(failingRows.orElseThrow())) {
          throw new Mismatch(transform.name() + " failed build publishes nothing", "its output changed\n"
              + TableContents.difference("before", failingRows.get(), "after", after));
        }
        failed.add(transform.name());
      } else if (result.status() == TransformResult.Status.SUCCEEDED) {
        model.built(transform.name(), result.incremental());
        failed.remove(transform.name());
      }
      if (transform.incremental()) {
        BuildTally.Outcome outcome = fails ? BuildTally.Outcome.FAILED : expectation.upToDate() ? BuildTally.Outcome.UP_TO_DATE
            : result.incremental() ? BuildTally.Outcome.INCREMENTAL : BuildTally.Outcome.FULL;
        BuildTally.count(transform.name(), outcome);
        words.add(transform.name() + " " + outcome.words());
      }
    }
    model.buildRead();
    if (report.results().stream().anyMatch(r -> r.status() != TransformResult.Status.UP_TO_DATE)) {
      checkOutputs(report, readBefore);
    }
    return (failing.isPresent() ? "build, " + failing.get() + " failing after it wrote its rows: " : "build: ")
        + String.join(", ", words);
  }

  /**
   * Builds in a JVM of its own, killed once the first transform that runs has written its rows
   * ({@link ChildBuild}), and checks that nothing was published: every output's {@code main} is where it
   * was. What the dead build left (its lease, its staging branch) is the next build's to clear, which
   * {@link #checkOutputs} then checks.
   *
   * @return what the build did, in words
   */
  String killedBuild() {
    Map<String, Long> before = mains();
    ChildBuild.Ended ended = ChildBuild.buildAndKill(warehouse.location());
    if (!ended.killed()) {
      if (ended.exitCode() != 0) {
        throw new Mismatch("child build", "it failed without reaching " + ChildBuild.POINT + ":\n" + ended.output());
      }
      if (!mains().equals(before)) {
        throw new Mismatch("child build", "it ran to its end, so every transform was up to date, yet outputs moved");
      }
      BuildTally.count(KILLED, BuildTally.Outcome.UP_TO_DATE);
      return "build in another JVM, to be killed: nothing to build, every transform up to date";
    }
    BuildTally.count(KILLED, BuildTally.Outcome.FAILED);
    Map<String, Long> after = mains();
    if (!after.equals(before)) {
      throw new Mismatch("killed build publishes nothing", "outputs moved from " + before + " to " + after);
    }
    return "build in another JVM, killed (SIGKILL) once the first transform that ran wrote its rows";
  }

  /** The {@code main} snapshot of every output there is. */
  private Map<String, Long> mains() {
    Map<String, Long> mains = new TreeMap<>();
    for (DownstreamTransform transform : transforms) {
      if (warehouse.exists(transform.output())) {
        Snapshot main = warehouse.table(transform.output()).currentSnapshot();
        mains.put(transform.name(), main == null ? null : main.snapshotId());
      }
    }
    return mains;
  }

  /** Checks how one transform ran against the model's expectation. */
  private void checkRun(DownstreamTransform transform, TransformResult result, InputModel.Expectation expectation,
      boolean fails, BuildReport report) {
    String name = transform.name();
    if (expectation.upToDate()) {
      if (result.status() != TransformResult.Status.UP_TO_DATE) {
        throw new Mismatch(name + " up to date", "the input is at the snapshot its last build read, but it ran: "
            + result.status() + ", " + result.reason());
      }
      return;
    }
    if (fails) {
      boolean injected = result.error().stream()
          .flatMap(e -> Stream.iterate(e, Objects::nonNull, Throwable::getCause))
          .anyMatch(e -> e instanceof InjectedFailure);
      if (result.status() != TransformResult.Status.FAILED || !injected) {
        throw new Mismatch(name + " fails", "it should have failed with the injected failure, but: "
            + result.status() + " " + result.error().map(Throwable::toString).orElse(""));
      }
      return;
    }
    if (result.status() != TransformResult.Status.SUCCEEDED) {
      Mismatch mismatch = new Mismatch(name + " succeeds", result.status() + ": " + result.reason() + "\n"
          + report.format());
      result.error().ifPresent(mismatch::initCause);
      throw mismatch;
    }
    if (result.incremental() != expectation.incremental()) {
      throw new Mismatch(name + (expectation.incremental() ? " incremental" : " full"), "it ran "
          + (result.incremental() ? "incrementally" : "in full") + " (" + result.reason() + "), but the model says "
          + (expectation.incremental() ? "incremental" : "full: " + String.join("; ", expectation.reasons())));
    }
    if (!result.incremental() && expectation.reasons().stream().noneMatch(r -> result.reason().contains(r))) {
      throw new Mismatch(name + " full reason", "it ran in full saying '" + result.reason()
          + "', but the model's reason is " + String.join(" or ", expectation.reasons()));
    }
  }

  /** Checks every output that is current against its twin and the model. */
  private void checkOutputs(BuildReport report, Map<String, Long> readBefore) {
    for (DownstreamTransform transform : transforms) {
      if (warehouse.exists(transform.output())) {
        Set<String> refs = warehouse.table(transform.output()).refs().keySet();
        if (!refs.equals(Set.of("main"))) {
          throw new Mismatch(transform.name() + " output branches", "after the build its output has " + refs);
        }
      }
    }
    // Rows are read in the head's own schema; changes in the table's schema when they were read.
    Rows inputRows = input.expectedRows(model.snapshot(model.head()).schema());
    Rows current = read(Downstream.CURRENT);
    same("current equals the input's rows", "the model", inputRows, "current", current, Set.of());
    for (String added : List.of("added", "compared")) {
      if (current(added)) {
        same(added + " equals current", "current", current, added, read(outputOf(added)), Set.of());
      }
    }
    if (current("spark-added")) {
      // Spark 3.5 reads a snapshot in the table's schema of the time, not in the snapshot's own (the SDK
      // reads it with Iceberg's snapshot-id option): after a schema change with no commit, its rows differ
      // from current's in their columns only.
      same("spark-added equals the input's rows", "the model", changedRows("spark-added"), "spark-added",
          read(SparkDownstream.ADDED), Set.of());
    }

    Rows changesFull = read(Downstream.CHANGES_FULL);
    fold("changes-full", changesFull, changedRows("changes-full"));
    for (String changes : List.of("changes", "spark-changes")) {
      if (current(changes)) {
        Rows variant = read(outputOf(changes));
        fold(changes, variant, changedRows(changes));
        if (sameColumns(changes, "changes-full")) {
          sameChanges(changes, variant, changesFull);
        }
      }
    }

    Rows scd1Full = read(Downstream.SCD1_FULL);
    if (!model.hadLateChanges()) {
      same("scd1-full equals the input's rows", "the model", changedRows("scd1-full"), "scd1-full", scd1Full,
          Set.of());
    }
    for (String scd1 : List.of("scd1", "spark-scd1")) {
      if (current(scd1) && sameColumns(scd1, "scd1-full") && (sameBasis(scd1, "scd1-full") || !model.hadLateChanges())) {
        same(scd1 + " equals scd1-full", "scd1-full", scd1Full, scd1, read(outputOf(scd1)), Set.of());
      }
    }
    Rows scd2Full = read(Downstream.SCD2_FULL);
    for (String scd2 : List.of("scd2", "spark-scd2")) {
      if (!current(scd2) || !sameColumns(scd2, "scd2-full")) {
        continue;
      }
      Rows variant = read(outputOf(scd2));
      if (sameBasis(scd2, "scd2-full")) {
        same(scd2 + " equals scd2-full", "scd2-full", scd2Full, scd2, variant, Set.of());
      } else if (!model.hadLateChanges()) {
        same(scd2 + " current versions equal scd2-full's", "scd2-full", scd2Full.filter(BuildCheck::isCurrent), scd2,
            variant.filter(BuildCheck::isCurrent), Set.of("valid_from", "valid_to"));
      }
    }

    TransformResult newIds = report.result("new-ids").orElseThrow();
    if (newIds.status() == TransformResult.Status.SUCCEEDED) {
      Long previous = readBefore.get("new-ids");
      Set<Long> seen = previous != null && model.isKept(previous) ? model.snapshot(previous).rows().keySet() : Set.of();
      same("new-ids holds the rows with ids new since its last build", "the model",
          inputRows.filter(row -> !seen.contains((Long) row.get("id"))), "new-ids", read(Downstream.NEW_IDS), Set.of());
    }
  }

  /**
   * Raw changes against the twin's: all of them while both start at the same snapshot, else those of the
   * snapshots both describe as changes from their parent.
   */
  private void sameChanges(String name, Rows variant, Rows full) {
    Set<String> ordinal = Set.of(ORDINAL);
    if (sameBasis(name, "changes-full")) {
      same(name + " equals changes-full", "changes-full", full, name, variant, ordinal);
      return;
    }
    Set<Long> described = new HashSet<>(model.keptAncestry());
    described.remove(model.oldestKept());
    same(name + " equals changes-full on the snapshots both describe", "changes-full",
        full.filter(c -> described.contains((Long) c.get(COMMIT))), name,
        variant.filter(c -> described.contains((Long) c.get(COMMIT))), ordinal);
  }

  /**
   * Applies changes in commit order (within a commit, deletes and before images first) to no rows, and
   * checks that this gives the input's rows: every delete removes a row that is there.
   */
  private void fold(String name, Rows changes, Rows inputRows) {
    Set<String> dataColumns = new HashSet<>(inputRows.columns());
    dataColumns.addAll(CHANGE_COLUMNS);
    Rows comparable = changes.withoutNullColumnsBeyond(dataColumns);
    Map<Long, List<Map<String, Object>>> bySnapshot = new TreeMap<>();
    for (Map<String, Object> change : comparable.rows()) {
      bySnapshot.computeIfAbsent((Long) change.get(COMMIT), id -> new ArrayList<>()).add(change);
    }
    List<Long> order = bySnapshot.keySet().stream()
        .sorted((a, b) -> Long.compare(model.sequenceNumber(a), model.sequenceNumber(b))).toList();
    Map<String, Integer> rows = new HashMap<>();
    for (long snapshot : order) {
      List<Map<String, Object>> those = bySnapshot.get(snapshot);
      for (Map<String, Object> change : those) {
        String type = (String) change.get(CHANGE_TYPE);
        if (type.equals("DELETE") || type.equals("UPDATE_BEFORE")) {
          String row = TableContents.text(change, CHANGE_COLUMNS);
          if (rows.merge(row, -1, Integer::sum) < 0) {
            throw new Mismatch(name + " applies to the input's rows", "in snapshot " + input.label(snapshot)
                + " it has " + type + " (" + row + "), a row the changes before did not insert\n"
                + "  changes: " + describe(comparable.rows()));
          }
        }
      }
      for (Map<String, Object> change : those) {
        String type = (String) change.get(CHANGE_TYPE);
        if (type.equals("INSERT") || type.equals("UPDATE_AFTER")) {
          rows.merge(TableContents.text(change, CHANGE_COLUMNS), 1, Integer::sum);
        }
      }
    }
    List<String> folded = rows.entrySet().stream()
        .flatMap(e -> Stream.generate(e::getKey).limit(Math.max(0, e.getValue()))).sorted().toList();
    List<String> expected = TableContents.sorted(inputRows.rows(), Set.of());
    if (!folded.equals(expected)) {
      throw new Mismatch(name + " applies to the input's rows", "its changes, applied in commit order, do not give "
          + "the input's rows\n" + TableContents.difference("the input", expected, name + " applied", folded)
          + "\n  changes: " + describe(comparable.rows()));
    }
  }

  private String describe(List<Map<String, Object>> changes) {
    return changes.stream()
        .sorted((a, b) -> Long.compare(model.sequenceNumber((Long) a.get(COMMIT)), model.sequenceNumber((Long) b.get(COMMIT))))
        .map(c -> input.label((Long) c.get(COMMIT)) + " " + c.get(CHANGE_TYPE) + " (" + TableContents.text(c, CHANGE_COLUMNS) + ")")
        .collect(Collectors.joining("\n    ", "\n    ", ""));
  }

  private static boolean isCurrent(Map<String, Object> version) {
    return Boolean.TRUE.equals(version.get("is_current"));
  }

  /** The model's rows in the columns a transform last read the input's changes in. */
  private Rows changedRows(String transform) {
    return input.expectedRows(model.reader(transform).columns);
  }

  /**
   * Whether a variant and its twin last read the input's changes in the same columns: a variant that
   * failed may run again after a schema change that left its up-to-date twin as it was.
   */
  private boolean sameColumns(String variant, String twin) {
    return Objects.equals(model.reader(variant).columns, model.reader(twin).columns);
  }

  /** Whether a variant's output and its twin's derive from the same oldest snapshot of the input. */
  private boolean sameBasis(String variant, String twin) {
    return Objects.equals(model.reader(variant).basis, model.reader(twin).basis);
  }

  /** Whether a transform's output is that of the head: it is built in this history and did not fail last. */
  private boolean current(String name) {
    return transforms.stream().anyMatch(t -> t.name().equals(name)) && !failed.contains(name);
  }

  private String outputOf(String name) {
    return transforms.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow().output();
  }

  private Rows read(String output) {
    return warehouse.exists(output) ? TableContents.read(warehouse.table(output)) : new Rows(Set.of(), List.of());
  }

  /**
   * Checks that two sets of rows are equal, leaving out some columns, and the columns of the actual rows
   * the expected ones lack where they hold only nulls (see {@link Rows#withoutNullColumnsBeyond}).
   */
  private static void same(String check, String expectedName, Rows expected, String actualName, Rows actual,
      Set<String> without) {
    Rows comparable = actual.withoutNullColumnsBeyond(expected.columns());
    List<String> expectedText = TableContents.sorted(expected.rows(), without);
    List<String> actualText = TableContents.sorted(comparable.rows(), without);
    if (!expectedText.equals(actualText)) {
      throw new Mismatch(check, "they differ\n"
          + TableContents.difference(expectedName, expectedText, actualName, actualText));
    }
  }
}
