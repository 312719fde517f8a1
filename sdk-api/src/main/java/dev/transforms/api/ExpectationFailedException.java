package dev.transforms.api;

/**
 * A check declared on an output at level {@code FAIL} did not hold for what the transform staged; the
 * output was not published and stays exactly as it was. The message names the output, the check, how
 * many rows violate it, and up to ten examples.
 */
public class ExpectationFailedException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the failed checks, with their outputs, counts and examples
   */
  public ExpectationFailedException(String message) {
    super(message);
  }
}
