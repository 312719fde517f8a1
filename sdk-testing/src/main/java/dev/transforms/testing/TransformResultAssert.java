package dev.transforms.testing;

import dev.transforms.runtime.CheckResult;
import dev.transforms.runtime.OutputWrites;
import dev.transforms.runtime.TransformResult;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.assertj.core.api.AbstractAssert;

/**
 * AssertJ assertions on what one transform did in a build. Start with
 * {@link TransformsAssertions#assertThat(BuildResult)} and {@link BuildResultAssert#transform(String)},
 * or {@link TransformsAssertions#assertThat(TransformResult)}.
 *
 * <p>Failure messages show the transform's outcome and, when it failed, its error with every cause.
 */
public final class TransformResultAssert extends AbstractAssert<TransformResultAssert, TransformResult> {

  TransformResultAssert(TransformResult actual) {
    super(actual, TransformResultAssert.class);
  }

  private String describe() {
    return actual.transform() + " " + actual.status() + " (" + (actual.incremental() ? "incremental" : "full")
        + ", " + actual.reason() + ")" + actual.errorText("  ", "  ")
            .map(text -> "\n" + text).orElse("");
  }

  private TransformResultAssert hasStatus(TransformResult.Status status) {
    isNotNull();
    if (actual.status() != status) {
      throw failureWithActualExpected(actual.status(), status, "Expecting transform %s to be %s but it was:%n%s",
          actual.transform(), status, describe());
    }
    return myself;
  }

  /**
   * Checks that the transform ran and its outputs were published.
   *
   * <pre>{@code
   * assertThat(result).transform("edit-rows").succeeded().isIncremental();
   * }</pre>
   *
   * @return this assertion
   */
  public TransformResultAssert succeeded() {
    return hasStatus(TransformResult.Status.SUCCEEDED);
  }

  /**
   * Checks that the transform failed, publishing nothing.
   *
   * <pre>{@code
   * assertThat(result).transform("edit-rows").failed();
   * }</pre>
   *
   * @return this assertion
   */
  public TransformResultAssert failed() {
    return hasStatus(TransformResult.Status.FAILED);
  }

  /**
   * Checks that the transform was skipped because something upstream of it failed.
   *
   * <pre>{@code
   * assertThat(result).transform("downstream").wasSkipped();
   * }</pre>
   *
   * @return this assertion
   */
  public TransformResultAssert wasSkipped() {
    return hasStatus(TransformResult.Status.SKIPPED);
  }

  /**
   * Checks that the transform did not run because it was up to date: its inputs, code and settings are
   * those of the build that published its outputs.
   *
   * <pre>{@code
   * assertThat(second).transform("edit-rows").isUpToDate();
   * }</pre>
   *
   * @return this assertion
   */
  public TransformResultAssert isUpToDate() {
    return hasStatus(TransformResult.Status.UP_TO_DATE);
  }

  /**
   * Checks that the transform failed with an error of a type, or caused by one, whose messages
   * (the error's and its causes') contain every given text.
   *
   * <pre>{@code
   * assertThat(result).transform("copy").failedWith(PublishConflictException.class, "/out/copy", "build again");
   * }</pre>
   *
   * @param type the error type expected in the cause chain
   * @param messageParts texts the chain's messages must contain, case-insensitively
   * @return this assertion
   */
  public TransformResultAssert failedWith(Class<? extends Throwable> type, String... messageParts) {
    failed();
    Throwable error = actual.error().orElseThrow();
    Optional<Throwable> match = chain(error).stream().filter(type::isInstance).findFirst();
    if (match.isEmpty()) {
      throw failure("Expecting transform %s to fail with %s but it failed with:%n%s", actual.transform(),
          type.getName(), describe());
    }
    String messages = String.join("\n", chain(error).stream().map(t -> String.valueOf(t.getMessage())).toList())
        .toLowerCase(Locale.ROOT);
    for (String part : messageParts) {
      if (!messages.contains(part.toLowerCase(Locale.ROOT))) {
        throw failure("Expecting the error of transform %s to say \"%s\" but it said:%n%s", actual.transform(), part,
            describe());
      }
    }
    return myself;
  }

  /**
   * Checks that the transform ran incrementally.
   *
   * <pre>{@code
   * assertThat(result).transform("copy").isIncremental();
   * }</pre>
   *
   * @return this assertion
   */
  public TransformResultAssert isIncremental() {
    isNotNull();
    if (!actual.incremental()) {
      throw failure("Expecting transform %s to run incrementally but it ran in full because %s", actual.transform(),
          actual.reason());
    }
    return myself;
  }

  /**
   * Checks that the transform ran in full, for a reason containing the given text.
   *
   * <pre>{@code
   * assertThat(result).transform("copy").isFull("semantic version changed");
   * }</pre>
   *
   * @param reasonPart text the reason must contain, case-insensitively; empty for any reason
   * @return this assertion
   */
  public TransformResultAssert isFull(String reasonPart) {
    isNotNull();
    if (actual.incremental()) {
      throw failure("Expecting transform %s to run in full but it ran incrementally", actual.transform());
    }
    if (!actual.reason().toLowerCase(Locale.ROOT).contains(reasonPart.toLowerCase(Locale.ROOT))) {
      throw failureWithActualExpected(actual.reason(), reasonPart,
          "Expecting transform %s to run in full because of \"%s\" but the reason was \"%s\"", actual.transform(),
          reasonPart, actual.reason());
    }
    return myself;
  }

  /**
   * Checks how many rows the transform added to one output.
   *
   * <pre>{@code
   * assertThat(result).transform("copy").addedRows("/out/copy", 2);
   * }</pre>
   *
   * @param output the output's dataset path
   * @param rows the expected number of rows added
   * @return this assertion
   */
  public TransformResultAssert addedRows(String output, long rows) {
    succeeded();
    OutputWrites writes = actual.outputs().stream().filter(o -> o.path().toString().equals(output)).findFirst()
        .orElseThrow(() -> failure("Transform %s has no output %s; its outputs are %s", actual.transform(), output,
            actual.outputs().stream().map(o -> o.path().toString()).toList()));
    if (writes.rowsAdded() != rows) {
      throw failureWithActualExpected(writes.rowsAdded(), rows, "Expecting transform %s to add %s to %s but it "
          + "added %d", actual.transform(), dev.transforms.runtime.Counts.of(rows, "row"), output, writes.rowsAdded());
    }
    return myself;
  }

  /**
   * Checks that a data expectation declared on the transform's outputs failed (whether it stopped the
   * publication or only warned), with a given number of violating rows.
   *
   * <pre>{@code
   * assertThat(result).only().failed().failedCheck("primary key (order_id)", 2);
   * }</pre>
   *
   * @param check the check's name, as the report shows it
   * @param violations the expected number of violating rows
   * @return this assertion
   */
  public TransformResultAssert failedCheck(String check, long violations) {
    CheckResult result = check(check);
    if (result.outcome() == CheckResult.Outcome.PASSED || result.violations() != violations) {
      throw failureWithActualExpected(result.describe(), check + " failed, " + dev.transforms.runtime.Counts.of(violations, "row") + " "
          + dev.transforms.runtime.Counts.verb(violations, "violates", "violate") + " it",
          "Expecting check %s of transform %s to fail with %s but: %s", check, actual.transform(),
          dev.transforms.runtime.Counts.of(violations, "violating row"), result.describe());
    }
    return myself;
  }

  /**
   * Checks that a data expectation declared on the transform's outputs passed.
   *
   * <pre>{@code
   * assertThat(result).only().succeeded().passedCheck("not null (customer_id)");
   * }</pre>
   *
   * @param check the check's name, as the report shows it
   * @return this assertion
   */
  public TransformResultAssert passedCheck(String check) {
    CheckResult result = check(check);
    if (result.outcome() != CheckResult.Outcome.PASSED) {
      throw failure("Expecting check %s of transform %s to pass but: %s", check, actual.transform(), result.describe());
    }
    return myself;
  }

  /**
   * Checks that the transform earned an advisory of a rule while it ran.
   *
   * <pre>{@code
   * assertThat(result).only().succeeded().earnedAdvisory("withcolumn-loop");
   * }</pre>
   *
   * @param rule the rule's identifier, such as {@code cartesian-product}
   * @return this assertion
   */
  public TransformResultAssert earnedAdvisory(String rule) {
    isNotNull();
    if (actual.advisories().stream().noneMatch(a -> a.rule().equals(rule))) {
      throw failure("Expecting transform %s to earn advisory %s but it earned %s", actual.transform(), rule,
          actual.advisories().stream().map(dev.transforms.runtime.Advisory::rule).toList());
    }
    return myself;
  }

  /**
   * Checks that the transform earned no advisory.
   *
   * @return this assertion
   */
  public TransformResultAssert earnedNoAdvisory() {
    isNotNull();
    if (!actual.advisories().isEmpty()) {
      throw failure("Expecting transform %s to earn no advisory but it earned: %s", actual.transform(),
          actual.advisories().stream().map(dev.transforms.runtime.Advisory::describe).toList());
    }
    return myself;
  }

  private CheckResult check(String name) {
    isNotNull();
    return actual.checks().stream().filter(c -> c.check().equals(name)).findFirst()
        .orElseThrow(() -> failure("Transform %s evaluated no check named %s; it evaluated %s", actual.transform(),
            name, actual.checks().stream().map(CheckResult::check).toList()));
  }

  private static List<Throwable> chain(Throwable error) {
    List<Throwable> chain = new java.util.ArrayList<>();
    for (Throwable t = error; t != null && !chain.contains(t); t = t.getCause()) {
      chain.add(t);
    }
    return chain;
  }
}
