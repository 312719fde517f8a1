package dev.transforms.api;

/**
 * Another writer moved an output's {@code main} while this build ran; nothing of this build was published and no commit was lost. Run the build again.
 */
public class PublishConflictException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   */
  public PublishConflictException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   * @param cause the underlying failure
   */
  public PublishConflictException(String message, Throwable cause) {
    super(message, cause);
  }
}
