package dev.transforms.api;

/**
 * An input dataset does not exist. The message names the path and the catalog table it resolved to.
 */
public class DatasetNotFoundException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   */
  public DatasetNotFoundException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   * @param cause the underlying failure
   */
  public DatasetNotFoundException(String message, Throwable cause) {
    super(message, cause);
  }
}
