package dev.transforms.api.checks;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of a {@link OutputCheck}.
 *
 * @param passed whether the rows meet the expectation
 * @param violations how many rows violate it (0 when passed; may be 0 for a failure not about rows)
 * @param examples up to ten violating rows or values, as text
 * @param message what is wrong, for the report; empty when passed
 */
public record CheckOutcome(boolean passed, long violations, List<String> examples, String message) {

  /**
   * Checks and copies the fields.
   *
   * @param passed whether the rows meet the expectation
   * @param violations how many rows violate it
   * @param examples violating rows or values
   * @param message what is wrong
   */
  public CheckOutcome {
    if (violations < 0) {
      throw new IllegalArgumentException("violations must not be negative: " + violations);
    }
    examples = List.copyOf(examples.subList(0, Math.min(10, examples.size())));
    Objects.requireNonNull(message, "message");
  }

  /**
   * The rows meet the expectation.
   *
   * @return a passing outcome
   */
  public static CheckOutcome pass() {
    return new CheckOutcome(true, 0, List.of(), "");
  }

  /**
   * Some rows violate the expectation.
   *
   * @param violations how many
   * @param examples a few of them, as text (ten at most are kept)
   * @param message what is wrong
   * @return a failing outcome
   */
  public static CheckOutcome fail(long violations, List<String> examples, String message) {
    return new CheckOutcome(false, violations, examples, message);
  }
}
