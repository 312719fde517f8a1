package dev.transforms.api;

/**
 * A {@link Transform} method is not a valid transform: the message names the class, the method, the parameter when there is one, and the rule broken. The annotation processor reports the same rule as a compile error.
 */
public class InvalidTransformException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   */
  public InvalidTransformException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   * @param cause the underlying failure
   */
  public InvalidTransformException(String message, Throwable cause) {
    super(message, cause);
  }
}
