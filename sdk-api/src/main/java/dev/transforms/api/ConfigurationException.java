package dev.transforms.api;

/**
 * The configuration is missing, unreadable or inconsistent: an unknown catalog, an unmounted path, an unset environment variable. Secrets never appear in the message.
 */
public class ConfigurationException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   */
  public ConfigurationException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message what went wrong, naming the transform, path or argument, and what to do
   * @param cause the underlying failure
   */
  public ConfigurationException(String message, Throwable cause) {
    super(message, cause);
  }
}
