package dev.transforms.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.publish.StagingMarks;
import dev.transforms.testengine.IdTables;
import dev.transforms.testengine.TestInput;
import dev.transforms.testengine.TestOutput;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class TransformsCliTest {

  @TempDir Path dir;

  /** Doubles the ids of /cli/in. */
  public static class Doubler {
    @Transform(description = "doubles ids")
    public void doubled(@TableInput("/cli/in") TestInput in, @TableOutput("/cli/doubled") TestOutput out) {
      out.append(in.ids().stream().mapToLong(v -> v * 2).toArray());
    }
  }

  /** Doubles the doubled ids again: downstream of {@link Doubler}. */
  public static class Redoubler {
    @Transform
    public void quadrupled(@TableInput("/cli/doubled") TestInput in, @TableOutput("/cli/quadrupled") TestOutput out) {
      out.append(in.ids().stream().mapToLong(v -> v * 2).toArray());
    }
  }

  /** Fails the way a missing class on an engine's classpath does: the top message says nothing. */
  public static class FailingDeepDown {
    @Transform
    public void failsDeepDown(@TableInput("/cli/in") TestInput in, @TableOutput("/cli/never") TestOutput out) {
      throw new IllegalStateException(null, new ExceptionInInitializerError(
          new IllegalStateException("engine setup failed", new ClassNotFoundException("org.example.MissingDriver"))));
    }
  }

  /** Writes a table of its own in a namespace that two builds create at once. */
  public static class FirstOfTwo {
    @Transform
    public void first(@TableOutput("/race/shared/first") TestOutput out) {
      out.append(1, 2);
    }
  }

  /** The other writer of that namespace. */
  public static class SecondOfTwo {
    @Transform
    public void second(@TableOutput("/race/shared/second") TestOutput out) {
      out.append(3);
    }
  }

  /** Always fails. */
  public static class Failing {
    @Transform
    public void fails(@TableInput("/cli/in") TestInput in, @TableOutput("/cli/never") TestOutput out) {
      throw new IllegalArgumentException("bad data");
    }
  }

  /** A transform named like one of another class: the classpath holds both, and neither is planned. */
  public static class OneTwin {
    @Transform(name = "twin")
    public void one(@TableOutput("/twins/one") TestOutput out) {}
  }

  /** The other transform named {@code twin}. */
  public static class OtherTwin {
    @Transform(name = "twin")
    public void other(@TableOutput("/twins/other") TestOutput out) {}
  }

  record Run(int exitCode, String out, String err) {}

  private Run run(String... args) {
    return run(dir, args);
  }

  /** Runs the command line in this JVM in a working directory, with the exception handler of the real one. */
  static Run run(Path dir, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = TransformsCli.execute(new TransformsCli(Map.of(), dir), new PrintWriter(out, true),
        new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  private void seedInput() {
    seed(dir.resolve("warehouse"));
  }

  /** Creates table /cli/in with ids 1 and 2 in the embedded catalog of a warehouse. */
  static void seed(Path warehouse) {
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(warehouse))) {
      Catalog catalog = catalogs.catalog("local");
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("cli"));
      IdTables.append(catalog.createTable(TableIdentifier.of("cli", "in"), IdTables.SCHEMA), null, Map.of(), 1, 2);
    }
  }

  @Test
  void listAndPlanShowTransformsAndWhereTheirPathsResolve() {
    Run list = run("--class", Doubler.class.getName(), "list");
    assertThat(list.exitCode()).isZero();
    assertThat(list.out()).contains("Doubler.doubled [test] - doubles ids", "in   /cli/in", "out  /cli/doubled",
        "\n1 transform\n").doesNotContain("transform(s)");
    Run plan = run("--class", Doubler.class.getName(), "plan");
    assertThat(plan.exitCode()).isZero();
    assertThat(plan.out()).contains("1. Doubler.doubled [test]", "/cli/doubled -> `local`.`cli`.`doubled`");
  }

  @Test
  void planShowsWhatCanRunAtOnceAndTheCriticalPath() {
    String classes = String.join(",", Doubler.class.getName(), Redoubler.class.getName(), FirstOfTwo.class.getName());
    Run plan = run("--class", classes, "plan");
    assertThat(plan.exitCode()).as(plan.err()).isZero();
    assertThat(plan.out()).contains("Levels (the transforms of a level can run at once",
        "  1. Doubler.doubled, FirstOfTwo.first", "  2. Redoubler.quadrupled",
        "Critical path (2 transforms): Doubler.doubled -> Redoubler.quadrupled");
  }

  @Test
  void buildRunsIndependentTransformsAtOnceAndRefusesABadThreadCount() {
    seedInput();
    String classes = String.join(",", Doubler.class.getName(), Redoubler.class.getName(), FirstOfTwo.class.getName(),
        Failing.class.getName());
    Run build = run("--class", classes, "build", "--threads", "3");
    assertThat(build.exitCode()).isEqualTo(TransformsCli.TRANSFORM_FAILED);
    assertThat(build.out()).contains("SUCCEEDED Redoubler.quadrupled", "SUCCEEDED FirstOfTwo.first",
        "FAILED    Failing.fails");
    Run zero = run("--class", classes, "build", "--threads", "0");
    assertThat(zero.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(zero.err()).contains("Invalid value for option '--threads': '0' is not a whole number from 1 to 256");
    for (String bad : List.of("abc", "257", "-1", "2.5")) {
      Run refused = run("--class", classes, "build", "--threads", bad);
      assertThat(refused.exitCode()).as("--threads %s", bad).isEqualTo(TransformsCli.BAD_USAGE);
      assertThat(refused.err()).as("--threads %s", bad)
          .contains("Invalid value for option '--threads': '" + bad + "' is not a whole number from 1 to 256");
    }
    Run failFast = run("--class", classes, "build", "--threads", "1", "--fail-fast", "--force");
    assertThat(failFast.exitCode()).isEqualTo(TransformsCli.TRANSFORM_FAILED);
    // In plan order, Failing.fails comes after Doubler.doubled and before FirstOfTwo.first.
    assertThat(failFast.out()).contains("SKIPPED   FirstOfTwo.first", "not started: --fail-fast after transform "
        + "Failing.fails failed");
  }

  @Test
  void planOfOneTransformIgnoresTwoUnrelatedTransformsThatShareAName() {
    String classes = String.join(",", Doubler.class.getName(), OneTwin.class.getName(), OtherTwin.class.getName());
    Run plan = run("--class", classes, "plan", "Doubler.doubled");
    assertThat(plan.exitCode()).as(plan.err()).isZero();
    assertThat(plan.out()).contains("1. Doubler.doubled [test]").doesNotContain("twin");
    Run twin = run("--class", classes, "plan", "twin");
    assertThat(twin.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(twin.err()).contains("Two transforms are named twin: ", "name one by its full name");
    Run full = run("--class", classes, "plan", OtherTwin.class.getName() + ".other");
    assertThat(full.exitCode()).as(full.err()).isZero();
    assertThat(full.out()).contains("1. twin [test]", "/twins/other");
  }

  /** A build on another catalog named the embedded one too, and a warehouse folder it never used. */
  @Test
  void theBuildNamesTheCatalogsItsMountsUseAndTheWarehouseOnlyWhenOneIsTheEmbeddedCatalog() throws Exception {
    Path file = dir.resolve("lake.properties");
    Files.writeString(file, String.join("\n", "catalog.lake.type=jdbc",
        "catalog.lake.uri=jdbc:sqlite:" + dir.resolve("lake/catalog.db"),
        "catalog.lake.warehouse=" + dir.resolve("lake").toUri(), "catalog.lake.jdbc.schema-version=V1",
        "mount./=lake"));
    Files.createDirectories(dir.resolve("lake"));
    try (Catalogs catalogs = new Catalogs(TransformsConfig.load(java.util.Optional.of(file), java.util.Optional.empty(),
        Map.of(), dir))) {
      Catalog catalog = catalogs.catalog("lake");
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("cli"));
      IdTables.append(catalog.createTable(TableIdentifier.of("cli", "in"), IdTables.SCHEMA), null, Map.of(), 1, 2);
    }

    Run build = run("--config", file.toString(), "--class", Doubler.class.getName(), "build");

    assertThat(build.exitCode()).as(build.err()).isEqualTo(TransformsCli.OK);
    assertThat(build.out()).contains("Building 1 transform with catalogs [lake]\n").doesNotContain("warehouse");
  }

  @Test
  void buildPrintsProgressAndTheReportAndExitsZero() {
    seedInput();
    Run build = run("--class", Doubler.class.getName(), "build");
    assertThat(build.exitCode()).isEqualTo(TransformsCli.OK);
    assertThat(build.out()).contains("Building 1 transform with catalogs [local]", "[1/1] Doubler.doubled ...",
        "[1/1] Doubler.doubled SUCCEEDED", "SUCCEEDED Doubler.doubled",
        "-> /cli/doubled (local.cli.doubled): +2 rows, -0 rows, 1 file, 1 snapshot, snapshot ");
    // Built again with nothing changed: the progress line and the report spell the status alike.
    Run again = run("--class", Doubler.class.getName(), "build");
    assertThat(again.exitCode()).isEqualTo(TransformsCli.OK);
    assertThat(again.out()).contains("[1/1] Doubler.doubled UP_TO_DATE (", "  UP_TO_DATE Doubler.doubled ")
        .doesNotContain("UP-TO-DATE");
    Run show = run("show", "/cli/doubled");
    assertThat(show.exitCode()).isZero();
    assertThat(show.out()).contains("/cli/doubled -> `local`.`cli`.`doubled`", "1: id: optional long",
        "partition spec: unpartitioned", "transforms.transform=Doubler.doubled",
        "transforms.state.transform = Doubler.doubled", "build state: transform Doubler.doubled, build ",
        "branches and tags:", "  branch   main -> ");
  }

  /** Declares checks on its output. */
  public static class CheckedDoubler {
    @Transform(description = "doubles ids, checked")
    public void checked(@TableInput("/cli/in") TestInput in, @TableOutput("/cli/checked")
        @dev.transforms.api.checks.PrimaryKey("id")
        @dev.transforms.api.checks.RowCount(min = 1, level = dev.transforms.api.checks.Level.WARN) TestOutput out) {
      out.append(in.ids().stream().mapToLong(id -> id * 2).toArray());
    }
  }

  @Test
  void listAndPlanShowTheChecksOfEachOutput() {
    Run list = run("--class", CheckedDoubler.class.getName(), "list");
    assertThat(list.exitCode()).isZero();
    assertThat(list.out()).contains("    out  /cli/checked", "check primary key (id) [FAIL]",
        "check row count (at least 1) [WARN]");
    Run plan = run("--class", CheckedDoubler.class.getName(), "plan");
    assertThat(plan.out()).contains("/cli/checked -> `local`.`cli`.`checked`", "check primary key (id) [FAIL]");

    seedInput();
    Run build = run("--class", CheckedDoubler.class.getName(), "build");
    assertThat(build.exitCode()).isZero();
    assertThat(build.out()).contains("checks: 2 passed");
    assertThat(run("show", "/cli/checked").out()).contains("checks of the published version:",
        "  primary key (id): passed", "  row count (at least 1): passed");
  }

  @Test
  void showPrintsTheSchemaOneColumnALineAndTheInputsAsPathAndSnapshot() {
    seedInput();
    assertThat(run("--class", Doubler.class.getName(), "build").exitCode()).isZero();
    long input;
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(dir.resolve("warehouse")))) {
      input = catalogs.catalog("local").loadTable(TableIdentifier.of("cli", "in")).currentSnapshot().snapshotId();
    }
    Run show = run("show", "/cli/doubled");
    assertThat(show.exitCode()).isZero();
    // Schema.toString() ends its block with a line holding only '}', which read as a stray brace.
    assertThat(show.out().lines()).noneMatch(line -> line.strip().equals("}") || line.strip().endsWith("{"))
        .contains("schema:", "  1: id: optional long");
    assertThat(show.out()).contains(", inputs: /cli/in at snapshot " + input + System.lineSeparator())
        .doesNotContain("OptionalLong");
  }

  @Test
  void showListsEveryBranchAndWhoseStagingBranchItIs() {
    seedInput();
    assertThat(run("--class", Doubler.class.getName(), "build").exitCode()).isZero();
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(dir.resolve("warehouse")))) {
      Table table = catalogs.catalog("local").loadTable(TableIdentifier.of("cli", "doubled"));
      table.manageSnapshots().createTag("audit", table.currentSnapshot().snapshotId())
          .createBranch(StagingMarks.branch("0123456789ab"), table.currentSnapshot().snapshotId()).commit();
    }
    Run show = run("show", "/cli/doubled");
    assertThat(show.exitCode()).isZero();
    assertThat(show.out()).contains("  tag      audit -> ", "  branch   transforms_0123456789ab -> ",
        "(staging branch of build 0123456789ab, no lease: the next build of this output removes it)");
  }

  @Test
  void aFailedTransformExitsOne() {
    seedInput();
    Run build = run("--class", Failing.class.getName(), "build");
    assertThat(build.exitCode()).isEqualTo(TransformsCli.TRANSFORM_FAILED);
    assertThat(build.out()).contains("FAILED", "Transform Failing.fails failed: java.lang.IllegalArgumentException: bad data");
  }

  @Test
  void badUsageAndConfigurationExitTwo() throws Exception {
    assertThat(run("frobnicate").exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(run().exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    Run missingClass = run("--class", "no.such.Type", "list");
    assertThat(missingClass.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(missingClass.err()).contains("Transform class no.such.Type is not on the classpath");
    Files.writeString(dir.resolve("bad.properties"), "mount./X=nowhere\n");
    Run badConfig = run("--config", "bad.properties", "--class", Doubler.class.getName(), "plan");
    assertThat(badConfig.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(badConfig.err()).contains("Mount '/X' names catalog 'nowhere', which is not defined");
    Run unknownTransform = run("--class", Doubler.class.getName(), "build", "nope");
    assertThat(unknownTransform.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    Run badPath = run("show", "relative");
    assertThat(badPath.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(badPath.err()).contains("Invalid dataset path 'relative'");
  }

  @Test
  void theReportShowsEveryCauseOfAFailureAndVerboseAddsTheStackTrace() {
    seedInput();
    Run build = run("--class", FailingDeepDown.class.getName(), "build");
    assertThat(build.exitCode()).isEqualTo(TransformsCli.TRANSFORM_FAILED);
    assertThat(build.out()).contains(
        "      error: TransformFailedException: Transform FailingDeepDown.failsDeepDown failed: "
            + "java.lang.IllegalStateException",
        "        caused by: java.lang.ExceptionInInitializerError",
        "        caused by: java.lang.IllegalStateException: engine setup failed",
        "        caused by: java.lang.ClassNotFoundException: org.example.MissingDriver")
        .doesNotContain("null").doesNotContain("\tat ");
    Run verbose = run("--class", FailingDeepDown.class.getName(), "build", "--verbose");
    assertThat(verbose.out()).contains("Stack trace of FailingDeepDown.failsDeepDown:",
        "Caused by: java.lang.ClassNotFoundException: org.example.MissingDriver", "\tat ");
  }

  @Test
  void showPlanAndListNeverCreateAWarehouseOrACatalogDatabase() {
    assertThat(run("--class", Doubler.class.getName(), "list").exitCode()).isZero();
    assertThat(run("--class", Doubler.class.getName(), "plan").exitCode()).isZero();
    Run show = run("show", "/cli/doubled");
    assertThat(show.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(show.err()).contains("No table at /cli/doubled (`local`.`cli`.`doubled`): catalog 'local' has "
        + "no database yet (" + dir.resolve("warehouse/catalog.db") + "); build first");
    assertThat(dir.resolve("warehouse")).doesNotExist();
  }

  /**
   * Two builds started at once on a warehouse that does not exist yet both create the catalog and the
   * namespace /race/shared; both must succeed (one used to fail before writing anything).
   */
  @Test
  void twoBuildsStartingAtOnceOnANewWarehouseBothSucceed() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 6; round++) {
        String warehouse = "race-" + round;
        CyclicBarrier start = new CyclicBarrier(2);
        Future<Run> first = pool.submit(() -> {
          start.await();
          return run("--warehouse", warehouse, "--class", FirstOfTwo.class.getName(), "build");
        });
        Future<Run> second = pool.submit(() -> {
          start.await();
          return run("--warehouse", warehouse, "--class", SecondOfTwo.class.getName(), "build");
        });
        for (Run build : List.of(first.get(1, TimeUnit.MINUTES), second.get(1, TimeUnit.MINUTES))) {
          assertThat(build.exitCode()).as(build.out() + build.err()).isEqualTo(TransformsCli.OK);
        }
        assertThat(run("--warehouse", warehouse, "show", "/race/shared/first").out()).contains("total-records=2");
        assertThat(run("--warehouse", warehouse, "show", "/race/shared/second").out()).contains("total-records=1");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theRealExceptionHandlerMapsDefinitionErrorsToTwo() {
    assertThat(TransformsCli.execute(new TransformsCli(Map.of(), dir), "--class", "no.such.Type", "list"))
        .isEqualTo(TransformsCli.BAD_USAGE);
  }

  /**
   * The values of --mode (load) and --engine (maintain) complete, as those of graph --format do: the model
   * holds them as completion candidates, and bash offers them after the option.
   */
  @Test
  void theWordsAnOptionTakesComplete() throws Exception {
    picocli.CommandLine root = TransformsCli.commandLine(new TransformsCli(Map.of(), dir));
    assertThat(root.getSubcommands().get("load").getCommandSpec().findOption("--mode").completionCandidates())
        .containsExactly("create", "append", "replace");
    assertThat(root.getSubcommands().get("maintain").getCommandSpec().findOption("--engine").completionCandidates())
        .containsExactly("single-node", "spark");

    Run completion = run("completion");
    assertThat(completion.exitCode()).as(completion.err()).isZero();
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/bash"))
        || Files.isExecutable(Path.of("/usr/bin/bash")), "bash");
    Path script = dir.resolve("transforms-completion");
    Files.writeString(script, completion.out());
    assertThat(complete(script, "transforms", "load", "--mode", "")).isEqualTo("create append replace");
    assertThat(complete(script, "transforms", "load", "--mode", "ap")).isEqualTo("append");
    assertThat(complete(script, "transforms", "maintain", "--engine", "")).isEqualTo("single-node spark");
  }

  /** What bash completes the last word to, with the completion script sourced. */
  private static String complete(Path script, String... words) throws Exception {
    String line = String.join(" ", words);
    StringBuilder array = new StringBuilder();
    for (String word : words) {
      array.append(" '").append(word).append("'");
    }
    String program = "source '" + script + "' 2>/dev/null; COMP_WORDS=(" + array + "); COMP_CWORD="
        + (words.length - 1) + "; COMP_LINE='" + line + "'; COMP_POINT=${#COMP_LINE}; _complete_transforms "
        + "2>/dev/null; echo \"${COMPREPLY[*]}\"";
    Process process = new ProcessBuilder("bash", "-c", program).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes()).strip();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return out;
  }
}
