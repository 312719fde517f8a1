package dev.transforms.api;

/**
 * The transforms cannot be ordered into one build: a cycle, or an output produced by two transforms. The message names every transform involved.
 */
public class PlanException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   */
  public PlanException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   * @param cause the underlying failure
   */
  public PlanException(String message, Throwable cause) {
    super(message, cause);
  }
}
