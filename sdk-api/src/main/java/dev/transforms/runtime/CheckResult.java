package dev.transforms.runtime;

import dev.transforms.api.checks.Level;
import java.util.List;

/**
 * What one data expectation found in what a transform staged for an output.
 *
 * @param output the output's dataset path
 * @param check the check's name
 * @param level what a failure does
 * @param outcome passed, failed, or could not be evaluated
 * @param violations how many rows violate it (0 when passed)
 * @param examples up to ten violating rows or values, as text
 * @param detail what is wrong, or why it could not be evaluated; empty when passed
 */
public record CheckResult(DatasetPath output, String check, Level level, Outcome outcome, long violations,
    List<String> examples, String detail) {

  /** The examples a result keeps. */
  public static final int EXAMPLES = 10;

  /**
   * Copies the examples, keeping {@value #EXAMPLES} at most.
   *
   * @param output the output
   * @param check the check's name
   * @param level the level
   * @param outcome the outcome
   * @param violations violating rows
   * @param examples examples
   * @param detail what is wrong
   */
  public CheckResult {
    examples = List.copyOf(examples.subList(0, Math.min(EXAMPLES, examples.size())));
  }

  /** How a check came out. */
  public enum Outcome {
    /** The rows meet the expectation. */
    PASSED,
    /** Some rows violate it. */
    FAILED,
    /** It could not be evaluated (a column it names is missing, a predicate does not parse...). */
    ERROR
  }

  /**
   * Whether this result stops the publication: a {@code FAIL} check that failed or could not be
   * evaluated.
   *
   * @return whether it blocks
   */
  public boolean blocks() {
    return level == Level.FAIL && outcome != Outcome.PASSED;
  }

  /**
   * One line for reports: the output, the check, the outcome, the count, the detail.
   *
   * @return the line
   */
  public String describe() {
    String status = outcome == Outcome.PASSED ? "passed" : level == Level.WARN ? "warned" : outcome == Outcome.ERROR
        ? "could not be evaluated" : "failed";
    return output + ": " + check + " " + status + (outcome == Outcome.FAILED && violations > 0 ? ", "
        + dev.transforms.runtime.Counts.of(violations, "row") + " "
        + dev.transforms.runtime.Counts.verb(violations, "violates", "violate") + " it" : "") + (detail.isEmpty() ? "" : " (" + detail + ")")
        + (examples.isEmpty() ? "" : "; e.g. " + String.join(" | ", examples));
  }
}
