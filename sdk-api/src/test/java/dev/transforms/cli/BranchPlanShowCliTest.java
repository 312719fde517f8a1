package dev.transforms.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.cli.report.LastBuilds;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.testengine.IdTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code transforms plan --branch NAME} and {@code transforms show PATH --branch NAME}: each tells what a
 * build of the branch would see, not what {@code main} holds, and says so on its first line.
 */
public class BranchPlanShowCliTest {

  @TempDir Path dir;

  private TransformsCliTest.Run run(String... args) {
    return TransformsCliTest.run(dir, args);
  }

  private String doubler() {
    return TransformsCliTest.Doubler.class.getName();
  }

  private Table table(String name) {
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(dir.resolve("warehouse")))) {
      return catalogs.catalog("local").loadTable(TableIdentifier.of("cli", name));
    }
  }

  @Test
  void planOnABranchSeesTheBranchsInputsAndOutputs() {
    TransformsCliTest.seed(dir.resolve("warehouse"));
    assertThat(run("--class", doubler(), "build").exitCode()).isZero();
    // Not cut anywhere yet: a build of the branch starts from main, which is up to date.
    TransformsCliTest.Run fresh = run("--class", doubler(), "plan", "--branch", "dev");
    assertThat(fresh.exitCode()).as(fresh.err()).isZero();
    assertThat(fresh.out()).contains("On branch dev (inputs it lacks read at main)").contains("up to date")
        .doesNotContain("runs:");

    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(dir.resolve("warehouse")))) {
      Table in = catalogs.catalog("local").loadTable(TableIdentifier.of("cli", "in"));
      in.manageSnapshots().createBranch("dev").commit();
      IdTables.append(in, "dev", Map.of(), 3);
    }

    assertThat(run("--class", doubler(), "plan").out()).contains("up to date").doesNotContain("runs:");
    TransformsCliTest.Run onBranch = run("--class", doubler(), "plan", "--branch", "dev");
    assertThat(onBranch.out()).contains("runs:").contains("/cli/in");

    assertThat(run("--class", doubler(), "build", "--branch", "dev").exitCode()).isZero();
    assertThat(run("--class", doubler(), "plan", "--branch", "dev").out()).contains("up to date")
        .doesNotContain("runs:");
  }

  @Test
  void planOnABranchNamesAnInputWithNoneOfItsBranches() throws Exception {
    TransformsCliTest.seed(dir.resolve("warehouse"));
    assertThat(run("--class", doubler(), "build").exitCode()).isZero();
    Files.writeString(dir.resolve(TransformsConfig.FILE_NAME), "branch.fallbacks=staging\n");

    TransformsCliTest.Run plan = run("--class", doubler(), "plan", "--branch", "dev");

    assertThat(plan.exitCode()).as(plan.err()).isZero();
    assertThat(plan.out()).contains("fails: Input /cli/in").contains("[dev, staging]");
  }

  @Test
  void showOnABranchShowsItsHeadAndState() {
    TransformsCliTest.seed(dir.resolve("warehouse"));
    assertThat(run("--class", doubler(), "build").exitCode()).isZero();
    long main = table("doubled").currentSnapshot().snapshotId();

    TransformsCliTest.Run before = run("--class", doubler(), "show", "/cli/doubled", "--branch", "dev");
    assertThat(before.exitCode()).as(before.err()).isZero();
    assertThat(before.out()).contains("on branch dev: not cut on this table yet")
        .contains("current snapshot: " + main);

    assertThat(run("--class", doubler(), "build", "--branch", "dev", "--force").exitCode()).isZero();
    long head = table("doubled").refs().get("dev").snapshotId();
    assertThat(head).isNotEqualTo(main);

    TransformsCliTest.Run after = run("--class", doubler(), "show", "/cli/doubled", "--branch", "dev");
    assertThat(after.out()).contains("on branch dev: the current snapshot, build state and checks below are the "
        + "branch's").contains("current snapshot: " + head);
    assertThat(run("--class", doubler(), "show", "/cli/doubled").out()).contains("current snapshot: " + main)
        .doesNotContain("on branch");
  }

  @Test
  void aBranchBuildsPageNamesTheBranchAndItsLastBuildsAreKeptApartFromMains() throws Exception {
    TransformsCliTest.seed(dir.resolve("warehouse"));
    assertThat(run("--class", doubler(), "build").exitCode()).isZero();
    Map<String, LastBuilds.LastBuild> main = LastBuilds.read(dir.resolve("warehouse"));

    TransformsCliTest.Run build = run("--class", doubler(), "build", "--branch", "dev", "--force", "--report",
        dir.resolve("page.html").toString());

    assertThat(build.exitCode()).as(build.err()).isZero();
    assertThat(Files.readString(dir.resolve("page.html"))).contains("on branch dev");
    assertThat(LastBuilds.read(dir.resolve("warehouse"))).isEqualTo(main);
    assertThat(LastBuilds.read(dir.resolve("warehouse"), "dev")).containsOnlyKeys(main.keySet())
        .isNotEqualTo(main);
  }

  @Test
  void aBadBranchNameIsAUsageErrorBeforeAnythingIsRead() {
    TransformsCliTest.Run plan = run("--class", doubler(), "plan", "--branch", "a b");
    assertThat(plan.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(plan.err()).contains("'a b'");
    TransformsCliTest.Run show = run("--class", doubler(), "show", "/cli/doubled", "--branch", "main");
    assertThat(show.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(show.err()).contains("'main'");
    assertThat(dir.resolve("warehouse")).doesNotExist();
  }
}
