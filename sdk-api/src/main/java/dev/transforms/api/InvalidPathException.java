package dev.transforms.api;

/**
 * A dataset path breaks one of the path rules (absolute, non-empty segments, no {@code .} or {@code ..}, no control characters, bounded length). The message quotes the path and names the rule.
 */
public class InvalidPathException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   */
  public InvalidPathException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   * @param cause the underlying failure
   */
  public InvalidPathException(String message, Throwable cause) {
    super(message, cause);
  }
}
