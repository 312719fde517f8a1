package dev.transforms.api;

/**
 * A transform declared {@code @Incremental(requireIncremental = true)} but this build cannot be incremental; the message gives the reason.
 */
public class IncrementalRequiredException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   */
  public IncrementalRequiredException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   * @param cause the underlying failure
   */
  public IncrementalRequiredException(String message, Throwable cause) {
    super(message, cause);
  }
}
