package dev.transforms.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.Transforms;
import dev.transforms.runtime.internal.publish.StagingMarks;
import dev.transforms.runtime.spi.CrashPoints;
import dev.transforms.testing.BuildResult;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * One cell of the crash matrix: sets up a warehouse, kills a child build at one point, checks what
 * readers see, builds once more and checks that nothing was lost, doubled or left behind. For a case on
 * a branch, readers of {@code main} must see exactly what the setup left, at every point and after every
 * build; the branch (read at {@code main} while it is not cut) holds the old result or the new one.
 */
final class CrashCell {

  /** Work in this JVM (catalogs, the shared Spark session) is done one cell at a time. */
  private static final Object PARENT = new Object();
  private static final Schema EVENTS_SCHEMA = new Schema(
      Types.NestedField.optional(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "v", Types.StringType.get()));
  private static final int INPUT_ROWS = 400;
  private static final int ADDED_ROWS = 40;
  private static final int LATER_ROWS = 20;

  private final CrashCase crashCase;
  private final String point;
  private final Path warehouse;

  CrashCell(CrashCase crashCase, String point, Path warehouse) {
    this.crashCase = crashCase;
    this.point = point;
    this.warehouse = warehouse;
  }

  /**
   * Runs the cell.
   *
   * @return what readers saw after the kill, per output: {@code old} or {@code new}
   * @throws Exception when the cell fails (a check, or a child that never reached the point)
   */
  String run() throws Exception {
    Map<String, List<String>> old = new LinkedHashMap<>();
    Map<String, List<String>> oldColumns = new LinkedHashMap<>();
    synchronized (PARENT) {
      try (TestWarehouse w = new TestWarehouse(warehouse)) {
        w.createTable(CrashTransforms.EVENTS, EVENTS_SCHEMA, rows(0, INPUT_ROWS));
        if (crashCase.plainFolder()) {
          w.sparkSession().table(w.resolve(CrashTransforms.EVENTS).sparkIdentifier()).write()
              .parquet(filesFolder(w).toUri().toString());
        }
        crashCase.setup().ifPresent(setup -> assertSucceeded(w.build(setup), "setup build"));
        w.append(CrashTransforms.EVENTS, rows(INPUT_ROWS, INPUT_ROWS + ADDED_ROWS));
        for (String output : outputs()) {
          old.put(output, read(w, output));
          oldColumns.put(output, columns(w, output));
        }
      }
    }
    crashCase.killedBefore().ifPresent(kill -> killChild(kill.transform(), kill.point()));
    killChild(crashCase.crashed(), point);

    List<String> expected = strings(0, INPUT_ROWS + ADDED_ROWS);
    List<String> seen = new ArrayList<>();
    synchronized (PARENT) {
      try (TestWarehouse w = new TestWarehouse(warehouse)) {
        checkMainAsSetUp(w, old, "after the kill");
        for (String output : outputs()) {
          List<String> now = read(w, output, crashCase.branch());
          List<String> columnsNow = columns(w, output);
          boolean isOld = now.equals(old.get(output)) && columnsNow.equals(oldColumns.get(output));
          boolean isNew = now.equals(expected) && !crashCase.failing() && columnsNow.equals(newColumns(output));
          if (isOld || isNew) {
            seen.add(isNew && !isOld ? "new" : "old");
          } else if (point.equals("files.moved-aside") && !Files.exists(filesFolder(w))) {
            // The one documented instant when a plain folder is absent: the next build puts it back.
            seen.add("absent");
          } else {
            throw new AssertionError("after the kill, " + output + " holds " + now.size() + " rows of columns "
                + columnsNow + ", neither the " + old.get(output).size() + " rows of " + oldColumns.get(output)
                + " before nor the " + expected.size() + " of " + newColumns(output) + " of the new result");
          }
        }
        BuildResult next = w.build(afterKill());
        assertSucceeded(next, "build after the kill");
        boolean recovered = !next.report().results().get(0).recovery().isEmpty();
        checkComplete(w, expected, "after the kill");
        checkMainAsSetUp(w, old, "after the build that followed the kill");

        w.append(CrashTransforms.EVENTS, rows(INPUT_ROWS + ADDED_ROWS, INPUT_ROWS + ADDED_ROWS + LATER_ROWS));
        assertSucceeded(w.build(afterKill()),
            "build of later rows");
        checkComplete(w, strings(0, INPUT_ROWS + ADDED_ROWS + LATER_ROWS), "after later rows");
        checkMainAsSetUp(w, old, "after later rows");
        return String.join("/", seen) + (recovered ? ", recovered" : "");
      }
    }
  }

  private List<String> outputs() {
    String name = crashCase.crashed().getSimpleName();
    if (name.startsWith("Spark")) {
      return name.equals("SparkFiles") ? List.of(CrashTransforms.FILES_OUT) : List.of(CrashTransforms.SPARK_OUT);
    }
    return name.startsWith("TwoOutputs") ? List.of(CrashTransforms.FIRST_OF_TWO, CrashTransforms.SECOND_OF_TWO)
        : List.of(CrashTransforms.SINGLE_OUT);
  }

  private static Row[] rows(int from, int to) {
    Row[] rows = new Row[to - from];
    for (int id = from; id < to; id++) {
      rows[id - from] = Row.of((long) id, "v" + id);
    }
    return rows;
  }

  private static List<String> strings(int from, int to) {
    List<String> rows = new ArrayList<>();
    for (int id = from; id < to; id++) {
      rows.add(id + ":v" + id);
    }
    rows.sort(null);
    return rows;
  }

  private static void assertSucceeded(BuildResult result, String what) {
    assertThat(result.report().succeeded()).as(what + ":\n" + result.report().format()
        + result.report().results().get(0).error().map(CrashCell::describe).orElse("")).isTrue();
  }

  private static String describe(Throwable error) {
    java.io.StringWriter out = new java.io.StringWriter();
    error.printStackTrace(new java.io.PrintWriter(out));
    return out.toString();
  }

  private Path filesFolder(TestWarehouse w) {
    return w.config().filesRoot().resolve(CrashTransforms.FILES_OUT.substring(1));
  }

  /** The build after the kill: the case's transform, on its branch. */
  private Transforms.Selection afterKill() {
    Transforms.Selection selection = Transforms.Selection.of(crashCase.after());
    return crashCase.onBranch() ? selection.branch(crashCase.branch()) : selection;
  }

  /** On a branch: {@code main} of every output holds exactly the rows the setup left. */
  private void checkMainAsSetUp(TestWarehouse w, Map<String, List<String>> old, String when) {
    if (crashCase.onBranch()) {
      for (String output : outputs()) {
        assertThat(read(w, output)).as("main of " + output + " " + when + " (a branch build must not touch it)")
            .isEqualTo(old.get(output));
      }
    }
  }

  /**
   * The rows a reader of an output's branch sees: at the branch where the table has it, else at
   * {@code main}, where a build of the branch starts.
   */
  private List<String> read(TestWarehouse w, String output, String branch) {
    if (!branch.equals(CrashCase.MAIN) && w.exists(output) && w.table(output).refs().containsKey(branch)) {
      List<String> rows = new ArrayList<>(w.rows(output, branch).stream().map(r -> r.get(0) + ":" + r.get(1))
          .toList());
      rows.sort(null);
      return rows;
    }
    return read(w, output);
  }

  /** The rows a reader of an output sees, as {@code id:v}, sorted; none for a missing output. */
  private List<String> read(TestWarehouse w, String output) {
    List<String> rows = new ArrayList<>();
    if (output.equals(CrashTransforms.FILES_OUT)) {
      Path folder = filesFolder(w);
      if (Files.isDirectory(folder)) {
        w.sparkSession().read().parquet(folder.toUri().toString()).collectAsList()
            .forEach(r -> rows.add(r.getLong(0) + ":" + r.getString(1)));
      }
    } else if (w.exists(output)) {
      Table table = w.table(output);
      if (table.currentSnapshot() != null) {
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
          records.forEach(r -> rows.add(r.getField("id") + ":" + r.getField("v")));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    rows.sort(null);
    return rows;
  }

  /** The columns a reader of an output sees; none for a missing output. */
  private List<String> columns(TestWarehouse w, String output) {
    if (output.equals(CrashTransforms.FILES_OUT) || !w.exists(output)) {
      return output.equals(CrashTransforms.FILES_OUT) ? List.of("id", "v") : List.of();
    }
    return w.table(output).schema().columns().stream().map(Types.NestedField::name).toList();
  }

  /** The columns of an output once the crashed transform published. */
  private List<String> newColumns(String output) {
    return crashCase.reshapes() ? List.of("id", "v", CrashTransforms.ADDED_COLUMN) : List.of("id", "v");
  }

  /**
   * The files under a table's folder that a build of the SDK wrote ({@code transforms-BUILD-...}) and that
   * the table does not reference: what a dead or losing first build would leave.
   */
  private static List<String> strayStagedFiles(Table table) throws IOException {
    Path folder = Path.of(java.net.URI.create(table.location().replaceFirst("^file:/+", "file:///")));
    java.util.Set<String> referenced = new java.util.HashSet<>();
    for (org.apache.iceberg.Snapshot snapshot : table.snapshots()) {
      referenced.add(name(snapshot.manifestListLocation()));
      for (org.apache.iceberg.ManifestFile manifest : snapshot.allManifests(table.io())) {
        referenced.add(name(manifest.path()));
      }
      snapshot.addedDataFiles(table.io()).forEach(f -> referenced.add(name(f.location())));
      snapshot.addedDeleteFiles(table.io()).forEach(f -> referenced.add(name(f.location())));
    }
    try (Stream<Path> files = Files.walk(folder)) {
      return files.filter(Files::isRegularFile).map(f -> f.getFileName().toString())
          .filter(name -> name.startsWith("transforms-") && !referenced.contains(name)).sorted().toList();
    }
  }

  private static String name(String location) {
    return location.substring(location.lastIndexOf('/') + 1);
  }

  /** Every output holds exactly the expected rows, and nothing of any build is left beside it. */
  private void checkComplete(TestWarehouse w, List<String> expected, String when) throws IOException {
    for (String output : outputs()) {
      assertThat(read(w, output, crashCase.branch())).as(output + " " + when).isEqualTo(expected);
      assertThat(columns(w, output)).as("columns of " + output + " " + when).isEqualTo(newColumns(output));
      if (output.equals(CrashTransforms.FILES_OUT)) {
        Path folder = filesFolder(w);
        try (Stream<Path> versions = Files.list(folder.resolveSibling("." + folder.getFileName() + ".versions"))) {
          assertThat(versions.map(p -> p.getFileName().toString()).toList()).as("versions of " + output + " " + when)
              .hasSize(1).noneMatch(name -> name.endsWith(".lease"));
        }
        try (Stream<Path> siblings = Files.list(folder.getParent())) {
          assertThat(siblings.map(p -> p.getFileName().toString()).sorted().toList()).as("beside " + output)
              .containsExactly("." + folder.getFileName() + ".versions", folder.getFileName().toString());
        }
        continue;
      }
      Table table = w.table(output);
      Set<String> refs = new LinkedHashSet<>(List.of(CrashCase.MAIN, crashCase.branch()));
      assertThat(table.refs()).as("refs of " + output + " " + when).containsOnlyKeys(refs);
      Set<String> marks = new LinkedHashSet<>();
      table.properties().keySet().stream()
          .filter(k -> k.startsWith(StagingMarks.LEASE_PREFIX) || k.startsWith(StagingMarks.SHAPE_PREFIX))
          .forEach(marks::add);
      assertThat(marks).as("staging marks on " + output + " " + when).isEmpty();
      assertThat(strayStagedFiles(table)).as("files of dead builds under " + output + " " + when).isEmpty();
    }
  }

  /** Runs a child build and kills it where it reaches the point; fails if it never does. */
  private void killChild(Class<?> transform, String at) {
    Path errors = warehouse.resolveSibling(warehouse.getFileName() + "-" + at.replace('#', '_') + ".err");
    Map<String, String> properties = new java.util.HashMap<>(Map.of(CrashPoints.PROPERTY, at));
    if (crashCase.onBranch()) {
      properties.put(CrashChild.BRANCH, crashCase.branch());
    }
    ChildBuild child = ChildBuild.start(warehouse, transform, errors, properties);
    ChildBuild.Ended ended = child.killAt(line -> line.startsWith(CrashPoints.MARKER));
    if (!ended.killed()) {
      throw new AssertionError(crashCase + ": the build of " + transform.getSimpleName() + " never reached " + at
          + " (exit code " + ended.code() + "):\n" + ended.output() + child.errorTail());
    }
  }

  /**
   * The matrix as a Markdown table, one row per cell: the case, the point its build was killed at,
   * what readers of each output saw after the kill, and whether the next build had leftovers to handle.
   */
  static String matrix(Map<CrashCase, Map<String, String>> results) {
    StringBuilder out = new StringBuilder("| build killed | at | outputs after the kill | next build |\n|---|---|---|---|\n");
    results.forEach((crashCase, row) -> row.forEach((point, outcome) -> {
      String seen = outcome.replace(", recovered", "");
      out.append("| ").append(crashCase.name()).append(" | `").append(point).append("` | ").append(seen)
          .append(" | ").append(outcome.endsWith(", recovered") ? "recovered" : outcome.equals("FAILED") ? "" : "nothing left")
          .append(" |\n");
    }));
    return out.toString();
  }
}
