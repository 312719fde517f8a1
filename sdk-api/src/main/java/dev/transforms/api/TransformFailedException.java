package dev.transforms.api;

/**
 * A transform's method threw. Nothing it wrote reached any output. The cause is the method's own exception.
 */
public class TransformFailedException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   */
  public TransformFailedException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   * @param cause the underlying failure
   */
  public TransformFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
