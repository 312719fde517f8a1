package dev.transforms.api;

/**
 * No engine on the classpath runs a transform's handle types. The message names the handle and the Maven artifact to add.
 */
public class EngineNotFoundException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   */
  public EngineNotFoundException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   * @param cause the underlying failure
   */
  public EngineNotFoundException(String message, Throwable cause) {
    super(message, cause);
  }
}
