package dev.transforms.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.cli.report.LastBuilds;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.testengine.IdTables;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code transforms build --branch}, {@code promote}, {@code branch list} and {@code branch drop} on the
 * command line: a session from the first branch build to promote, and bad branch names refused as usage
 * errors that name them, before anything is built.
 */
public class BranchCliTest {

  @TempDir Path dir;

  private TransformsCliTest.Run run(String... args) {
    return TransformsCliTest.run(dir, args);
  }

  private String doubler() {
    return TransformsCliTest.Doubler.class.getName();
  }

  /** The ids of a table at a branch; empty when it has no such branch. */
  private java.util.List<Long> ids(String table, String branch) {
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(dir.resolve("warehouse")))) {
      Table loaded = catalogs.catalog("local").loadTable(TableIdentifier.of("cli", table));
      return loaded.refs().containsKey(branch) ? IdTables.ids(loaded, loaded.refs().get(branch).snapshotId())
          : java.util.List.of();
    }
  }

  @Test
  void aSessionFromTheFirstBranchBuildToPromote() {
    TransformsCliTest.seed(dir.resolve("warehouse"));
    assertThat(run("--class", doubler(), "build").exitCode()).isZero();
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(dir.resolve("warehouse")))) {
      Table in = catalogs.catalog("local").loadTable(TableIdentifier.of("cli", "in"));
      in.manageSnapshots().createBranch("dev").commit();
      IdTables.append(in, "dev", Map.of(), 3);
    }

    TransformsCliTest.Run build = run("--class", doubler(), "build", "--branch", "dev");

    assertThat(build.exitCode()).as(build.out() + build.err()).isZero();
    assertThat(build.out()).contains("Building 1 transform on branch dev");
    // The test engine's output appends what it writes: the branch holds main's rows and the new build's.
    assertThat(ids("doubled", "dev")).containsExactly(2L, 2L, 4L, 4L, 6L);
    assertThat(ids("doubled", "main")).containsExactly(2L, 4L);
    assertThat(run("--class", doubler(), "branch", "list").out()).contains("dev  /cli/doubled");

    Path warehouse = dir.resolve("warehouse");
    Map<String, LastBuilds.LastBuild> onDev = LastBuilds.read(warehouse, "dev");
    assertThat(onDev).hasSize(1);

    TransformsCliTest.Run promote = run("--class", doubler(), "promote", "dev");

    assertThat(promote.exitCode()).as(promote.err()).isZero();
    assertThat(promote.out()).contains("Promoted branch dev: main of /cli/doubled");
    assertThat(ids("doubled", "main")).containsExactly(2L, 2L, 4L, 4L, 6L);
    assertThat(run("--class", doubler(), "branch", "list").out()).contains("No branch is built on the outputs");
    // main now holds what was built on dev: the graph shows that build as main's last, naming the branch it ran
    // on, and dev's record is gone
    Map<String, LastBuilds.LastBuild> onMain = LastBuilds.read(warehouse);
    assertThat(onMain.keySet()).isEqualTo(onDev.keySet());
    onDev.forEach((name, built) -> {
      assertThat(built.promotedFrom()).isEmpty();
      LastBuilds.LastBuild promoted = onMain.get(name);
      assertThat(promoted.promotedFrom()).isEqualTo("dev");
      assertThat(promoted).usingRecursiveComparison().ignoringFields("promotedFrom").isEqualTo(built);
    });
    // main's next build of the transform is main's own again
    assertThat(run("--class", doubler(), "build", "--force").exitCode()).isZero();
    assertThat(LastBuilds.read(warehouse).values()).allSatisfy(b -> assertThat(b.promotedFrom()).isEmpty());
    assertThat(LastBuilds.file(warehouse, "dev")).doesNotExist();
  }

  @Test
  void dropRemovesTheBranchAndLeavesMain() {
    TransformsCliTest.seed(dir.resolve("warehouse"));
    assertThat(run("--class", doubler(), "build").exitCode()).isZero();
    assertThat(run("--class", doubler(), "build", "--branch", "dev", "--force").exitCode()).isZero();
    assertThat(ids("doubled", "dev")).containsExactly(2L, 2L, 4L, 4L);

    Path warehouse = dir.resolve("warehouse");
    Map<String, LastBuilds.LastBuild> onMain = LastBuilds.read(warehouse);
    assertThat(LastBuilds.file(warehouse, "dev")).exists();

    TransformsCliTest.Run drop = run("--class", doubler(), "branch", "drop", "dev");

    assertThat(drop.exitCode()).as(drop.err()).isZero();
    assertThat(drop.out()).contains("Dropped branch dev from /cli/doubled");
    assertThat(ids("doubled", "dev")).isEmpty();
    assertThat(ids("doubled", "main")).containsExactly(2L, 4L);
    // the dropped branch's builds are forgotten; main's record is as it was
    assertThat(LastBuilds.file(warehouse, "dev")).doesNotExist();
    assertThat(LastBuilds.read(warehouse)).isEqualTo(onMain);
  }

  @Test
  void badBranchNamesAreUsageErrorsNamingThem() {
    TransformsCliTest.Run main = run("--class", doubler(), "build", "--branch", "main");
    assertThat(main.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(main.err()).contains("Branch 'main'");
    TransformsCliTest.Run staging = run("--class", doubler(), "promote", "transforms_0123");
    assertThat(staging.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(staging.err()).contains("'transforms_0123'", "staging");
    TransformsCliTest.Run spaces = run("--class", doubler(), "branch", "drop", "a b");
    assertThat(spaces.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(spaces.err()).contains("'a b'");
    assertThat(dir.resolve("warehouse")).doesNotExist();
  }

  @Test
  void branchCommandsOnAWarehouseThatDoesNotExistCreateNothing() {
    Path nowhere = dir.resolve("typo");
    TransformsCliTest.Run promote = run("--class", doubler(), "--warehouse", nowhere.toString(), "promote", "dev");
    assertThat(promote.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(promote.err()).contains("No output has branch 'dev'", "nothing was promoted");
    TransformsCliTest.Run drop = run("--class", doubler(), "--warehouse", nowhere.toString(), "branch", "drop", "dev");
    assertThat(drop.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    TransformsCliTest.Run list = run("--class", doubler(), "--warehouse", nowhere.toString(), "branch", "list");
    assertThat(list.exitCode()).isZero();
    assertThat(list.out()).contains("No branch is built on the outputs");
    assertThat(nowhere).doesNotExist();
  }

  @Test
  void aBranchNoOutputHasIsRefusedNamingTheBranchesThereAre() {
    TransformsCliTest.seed(dir.resolve("warehouse"));
    assertThat(run("--class", doubler(), "build").exitCode()).isZero();
    TransformsCliTest.Run none = run("--class", doubler(), "promote", "dev");
    assertThat(none.exitCode()).as(none.out()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(none.err()).contains("No output has branch 'dev'", "nothing was promoted",
        "No branch is built on the outputs");
    assertThat(run("--class", doubler(), "build", "--branch", "dev", "--force").exitCode()).isZero();

    TransformsCliTest.Run promote = run("--class", doubler(), "promote", "devv");
    TransformsCliTest.Run drop = run("--class", doubler(), "branch", "drop", "devv");

    assertThat(promote.exitCode()).as(promote.out()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(promote.err()).contains("No output has branch 'devv'", "nothing was promoted",
        "The branches built on the outputs: dev");
    assertThat(drop.exitCode()).as(drop.out()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(drop.err()).contains("No output has branch 'devv'", "nothing was dropped",
        "The branches built on the outputs: dev");
    assertThat(ids("doubled", "dev")).containsExactly(2L, 2L, 4L, 4L);
    assertThat(ids("doubled", "main")).containsExactly(2L, 4L);
  }

  @Test
  void aBranchBuildWithEverythingUpToDateSaysNothingWasBuiltOnTheBranchAndWhy() {
    TransformsCliTest.seed(dir.resolve("warehouse"));
    assertThat(run("--class", doubler(), "build").exitCode()).isZero();

    TransformsCliTest.Run build = run("--class", doubler(), "build", "--branch", "dev");

    assertThat(build.exitCode()).as(build.out() + build.err()).isZero();
    assertThat(build.out()).contains("UP_TO_DATE").contains("Nothing was built on branch dev: every transform is up "
        + "to date with main, so no output has the branch (none was cut)");
    assertThat(ids("doubled", "dev")).isEmpty();
    assertThat(run("--class", doubler(), "branch", "list").out()).contains("No branch is built on the outputs");

    run("--class", doubler(), "build", "--branch", "dev", "--force");
    TransformsCliTest.Run again = run("--class", doubler(), "build", "--branch", "dev");
    assertThat(again.out()).contains("Nothing was built on branch dev: every transform is up to date on it");
    TransformsCliTest.Run built = run("--class", doubler(), "build", "--branch", "dev", "--force");
    assertThat(built.out()).doesNotContain("Nothing was built");
  }
}
