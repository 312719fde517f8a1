package dev.transforms.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.cli.report.BuildReportPage;
import dev.transforms.cli.report.LastBuilds;
import dev.transforms.cli.report.TimedResult;
import dev.transforms.runtime.TransformResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code transforms build --report FILE.html} and the record of last builds that the graph reads. */
class BuildReportPageTest {

  @TempDir Path dir;

  private TransformsCliTest.Run run(String... args) {
    return TransformsCliTest.run(dir, args);
  }

  @Test
  void theBuildPageShowsEachTransformItsRowsAndTheFailureWithItsCauses() throws Exception {
    TransformsCliTest.seed(dir.resolve("warehouse"));
    String classes = TransformsCliTest.Doubler.class.getName() + "," + TransformsCliTest.FailingDeepDown.class.getName();
    TransformsCliTest.Run build = run("--class", classes, "build", "--report", "build.html");
    assertThat(build.exitCode()).isEqualTo(TransformsCli.TRANSFORM_FAILED);
    assertThat(build.out()).contains("Build page: " + dir.resolve("build.html"));
    String page = Files.readString(dir.resolve("build.html"));
    assertThat(page).startsWith("<!DOCTYPE html>").contains("<span id=\"status\">FAILED</span>",
        "data-transform=\"Doubler.doubled\"", "data-transform=\"FailingDeepDown.failsDeepDown\"",
        "/cli/doubled", "+2 rows, -0 rows</span>, 1 file", "caused by: java.lang.ClassNotFoundException: org.example.MissingDriver");
    assertThat(page).doesNotContain("<script src", "<link");
    // The text report is still printed as before.
    assertThat(build.out()).contains("SUCCEEDED Doubler.doubled", "FAILED    FailingDeepDown.failsDeepDown");

    Map<String, LastBuilds.LastBuild> last = LastBuilds.read(dir.resolve("warehouse"));
    assertThat(last.get("Doubler.doubled").status()).isEqualTo("SUCCEEDED");
    assertThat(last.get("Doubler.doubled").rowsWritten()).isEqualTo(2);
    assertThat(last.get("FailingDeepDown.failsDeepDown").status()).isEqualTo("FAILED");
    assertThat(last.get("FailingDeepDown.failsDeepDown").error()).contains("TransformFailedException");

    // A later build of one transform keeps the other's entry.
    assertThat(run("--class", classes, "build", "Doubler.doubled").exitCode()).isZero();
    assertThat(LastBuilds.read(dir.resolve("warehouse"))).containsKeys("Doubler.doubled", "FailingDeepDown.failsDeepDown");
  }

  @Test
  void anUnwritableReportIsAUsageErrorBeforeAnythingIsBuilt() {
    TransformsCliTest.seed(dir.resolve("warehouse"));
    TransformsCliTest.Run build = run("--class", TransformsCliTest.Doubler.class.getName(), "build", "--report", "missing/build.html");
    assertThat(build.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(build.err()).contains("Cannot write --report", "missing", "does not exist");
    assertThat(build.out()).doesNotContain("Building");
    assertThat(LastBuilds.read(dir.resolve("warehouse"))).isEmpty();
  }

  @Test
  void anUpToDateTransformHasAColourOfItsOwnAndWasNotBuilt() {
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    TransformResult upToDate = new TransformResult("same", "test", TransformResult.Status.UP_TO_DATE, false,
        "its inputs, code and settings are those of its last build", List.of(), Duration.ofMillis(5),
        Optional.empty(), List.of(), List.of());
    TransformResult built = new TransformResult("copy", "test", TransformResult.Status.SUCCEEDED, false,
        "not an incremental transform", List.of(new dev.transforms.runtime.OutputWrites(
            dev.transforms.runtime.DatasetPath.of("/a/out"), "local.a.out", 1, 0, 1, 1,
            java.util.OptionalLong.of(7), true, List.of())), Duration.ofSeconds(1), Optional.empty(), List.of(),
        List.of());
    String page = BuildReportPage.render(new dev.transforms.runtime.BuildReport("b1", List.of(upToDate, built),
        Duration.ofSeconds(2)), List.of(new TimedResult(upToDate, t0, t0.plusMillis(5)),
        new TimedResult(built, t0, t0.plusSeconds(1))), new dev.transforms.runtime.secrets.SecretMasker(
        java.util.Set.of()));

    assertThat(page).containsPattern("\\.UP_TO_DATE:not\\(g\\) \\{ background: #[0-9a-f]{6}; }")
        .contains("<tr id=\"row-same\" class=\"UP_TO_DATE\"><td>same</td><td class=\"status\">UP_TO_DATE</td>"
            + "<td>test</td><td>-<br><span class=\"muted\">its inputs, code and settings are those of its last build"
            + "</span></td>")
        .contains("<div class=\"bar UP_TO_DATE\"", "<td>full<br><span class=\"muted\">not an incremental transform",
            "<span class=\"rows\">+1 row, -0 rows</span>, 1 file, created",
            "transforms that ran at the same time are in lanes of their own.")
        .doesNotContain("UP-TO-DATE", "one lane per transforms", "1 files", "1 rows");
  }

  @Test
  void transformsThatOverlapGetLanesOfTheirOwn() {
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    List<TimedResult> timed = List.of(timed("a", t0, 10), timed("b", t0.plusSeconds(2), 3), timed("c", t0.plusSeconds(6), 2),
        timed("d", t0.plusSeconds(11), 1));
    assertThat(BuildReportPage.lanes(timed)).containsExactly(0, 1, 1, 0);
  }

  @Test
  void twoBuildsRecordingAtOnceKeepEachOthersEntries() throws Exception {
    Path warehouse = Files.createDirectories(dir.resolve("warehouse"));
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    java.util.concurrent.ExecutorService builds = java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
      for (String build : List.of("left", "right")) {
        done.add(builds.submit(() -> {
          for (int i = 0; i < 40; i++) {
            LastBuilds.record(warehouse, List.of(timed(build + "-" + i, t0, 1)),
                new dev.transforms.runtime.secrets.SecretMasker(java.util.Set.of()));
          }
        }));
      }
      for (java.util.concurrent.Future<?> future : done) {
        future.get(60, java.util.concurrent.TimeUnit.SECONDS);
      }
    } finally {
      builds.shutdownNow();
    }
    assertThat(LastBuilds.read(warehouse)).hasSize(80).containsKeys("left-0", "left-39", "right-0", "right-39");
  }

  private static TimedResult timed(String name, Instant start, int seconds) {
    return new TimedResult(new TransformResult(name, "test", TransformResult.Status.SUCCEEDED, false, "", List.of(),
        Duration.ofSeconds(seconds), Optional.empty(), List.of(), List.of()), start, start.plusSeconds(seconds));
  }
}
