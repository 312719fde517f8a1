package dev.transforms.api;

/**
 * The root of every error the SDK raises. All are unchecked; each message names the transform, path, column or argument at fault and, where it can, what to do about it.
 */
public class TransformsException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   */
  public TransformsException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   * @param cause the underlying failure
   */
  public TransformsException(String message, Throwable cause) {
    super(message, cause);
  }
}
