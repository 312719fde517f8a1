package dev.transforms.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The text report {@code transforms build} prints: one spelling of each status, counts in the right number. */
class BuildReportFormatTest {

  private static TransformResult result(String name, TransformResult.Status status, String reason,
      OutputWrites... outputs) {
    return new TransformResult(name, "single-node", status, false, reason, List.of(outputs), Duration.ofMillis(20),
        Optional.empty(), List.of(), List.of());
  }

  @Test
  void oneOfEachCountIsSingularAndTheRestPlural() {
    OutputWrites one = new OutputWrites(DatasetPath.of("/a/one"), "local.a.one", 1, 0, 1, 1, OptionalLong.of(7), true,
        List.of());
    OutputWrites many = new OutputWrites(DatasetPath.of("/a/many"), "local.a.many", 2, 1, 3, 2, OptionalLong.of(8),
        false, List.of());
    String text = new BuildReport("b1", List.of(result("copy", TransformResult.Status.SUCCEEDED,
        "not an incremental transform", one, many)), Duration.ofSeconds(1)).format();

    assertThat(text).contains(
        "      -> /a/one (local.a.one): +1 row, -0 rows, 1 file, 1 snapshot, snapshot 7, created\n",
        "      -> /a/many (local.a.many): +2 rows, -1 row, 3 files, 2 snapshots, snapshot 8\n");
  }

  @Test
  void aCheckOfOneViolatingRowSaysRowAndTheVerbAgrees() {
    CheckResult one = new CheckResult(DatasetPath.of("/a/out"), "dated", dev.transforms.api.checks.Level.WARN,
        CheckResult.Outcome.FAILED, 1, List.of(), "");
    CheckResult two = new CheckResult(DatasetPath.of("/a/out"), "keyed", dev.transforms.api.checks.Level.FAIL,
        CheckResult.Outcome.FAILED, 2, List.of(), "");
    assertThat(one.describe()).isEqualTo("/a/out: dated warned, 1 row violates it");
    assertThat(two.describe()).isEqualTo("/a/out: keyed failed, 2 rows violate it");

    dev.transforms.runtime.spi.CheckSpec.RowCount count = new dev.transforms.runtime.spi.CheckSpec
        .RowCount("count", dev.transforms.api.checks.Level.FAIL, 2, 10, 50, -1);
    assertThat(count.problems(OptionalLong.empty(), 1)).containsExactly("1 row, fewer than the minimum 2");
    assertThat(count.problems(OptionalLong.of(4), 1)).containsExactly("1 row, fewer than the minimum 2",
        "1 row, 75.0% fewer than the 4 published (at most 50.0% allowed)");
  }

  @Test
  void anUpToDateTransformIsSpelledAsItsStatusConstant() {
    String text = new BuildReport("b2", List.of(result("again", TransformResult.Status.UP_TO_DATE,
        "its inputs, code and settings are those of its last build")), Duration.ofSeconds(1)).format();

    assertThat(text).contains("  UP_TO_DATE again ").doesNotContain("UP-TO-DATE");
    assertThat(TransformResult.Status.UP_TO_DATE.toString()).isEqualTo("UP_TO_DATE");
  }
}
