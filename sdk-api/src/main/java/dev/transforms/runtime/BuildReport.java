package dev.transforms.runtime;

import dev.transforms.runtime.Counts;
import dev.transforms.runtime.secrets.CauseChain;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of a build: one result per planned transform, in the order they ran.
 *
 * @param buildId the build's identifier
 * @param results one result per transform
 * @param duration the whole build's duration
 */
public record BuildReport(String buildId, List<TransformResult> results, Duration duration) {

  /**
   * Whether every transform succeeded.
   *
   * @return {@code true} when nothing failed or was skipped
   */
  public boolean succeeded() {
    return results.stream().allMatch(TransformResult::succeeded);
  }

  /**
   * The result of one transform.
   *
   * @param transform a transform name
   * @return its result, if it was planned
   */
  public Optional<TransformResult> result(String transform) {
    return results.stream().filter(r -> r.transform().equals(transform)).findFirst();
  }

  /**
   * Every advisory of the build, transform by transform in the order they ran.
   *
   * @return the advisories; empty when none was earned
   */
  public List<Advisory> advisories() {
    return results.stream().flatMap(r -> r.advisories().stream()).toList();
  }

  /**
   * The report as a text table, one line per transform and one per output, as the command line
   * prints it. A failure shows its error and every cause, one line each ({@link CauseChain}); each
   * advisory a transform earned gets a line of its own.
   *
   * @return the formatted report
   */
  public String format() {
    StringBuilder out = new StringBuilder();
    out.append(String.format("Build %s: %s in %s%n", buildId, succeeded() ? "SUCCEEDED" : "FAILED", seconds(duration)));
    // The names' column is as wide as the longest name, so that a long one does not shift the columns after it.
    int width = Math.max(40, results.stream().mapToInt(r -> r.transform().length()).max().orElse(0));
    for (TransformResult result : results) {
      out.append(String.format("  %-9s %-" + width + "s %-11s %-11s %8s  %s%n", result.status(),
          result.transform(),
          result.engine(), result.status() == TransformResult.Status.SKIPPED
              || result.status() == TransformResult.Status.UP_TO_DATE ? "-"
              : result.incremental() ? "incremental" : "full",
          seconds(result.duration()), result.reason()));
      result.recovery().forEach(line -> out.append("      recovered: ").append(line).append('\n'));
      for (OutputWrites output : result.outputs()) {
        if (!output.published() && result.status() == TransformResult.Status.SUCCEEDED) {
          out.append(String.format("      -> %s (%s): not written by the transform, nothing published%s%n", output.path(),
              output.identifier(), output.snapshotId().isPresent()
                  ? "; it keeps its rows (snapshot " + output.snapshotId().getAsLong() + ") and the transform stays "
                      + "out of date until a build writes it"
                  : ""));
          continue;
        }
        out.append(String.format("      -> %s (%s): +%s, -%s, %s, %s, snapshot %s%s%n",
            output.path(), output.identifier(), Counts.of(output.rowsAdded(), "row"),
            Counts.of(output.rowsDeleted(), "row"), Counts.of(output.filesAdded(), "file"),
            Counts.of(output.snapshots(), "snapshot"),
            output.snapshotId().isPresent() ? Long.toString(output.snapshotId().getAsLong()) : "none",
            output.created() ? ", created" : ""));
        output.schemaChanges().forEach(change -> out.append("         schema: ").append(change).append('\n'));
      }
      long passed = result.checks().stream().filter(c -> c.outcome() == CheckResult.Outcome.PASSED).count();
      if (passed > 0) {
        out.append("      checks: ").append(passed).append(" passed\n");
      }
      result.checks().stream().filter(c -> c.outcome() != CheckResult.Outcome.PASSED)
          .forEach(c -> out.append("      check ").append(c.describe()).append('\n'));
      result.advisories().forEach(a -> out.append("      advisory ").append(a.describe()).append('\n'));
      result.errorText("      error: ", "        ").ifPresent(out::append);
    }
    return out.toString();
  }

  private static String seconds(Duration duration) {
    return String.format("%.2fs", duration.toNanos() / 1e9);
  }
}
