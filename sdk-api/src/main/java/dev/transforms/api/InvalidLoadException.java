package dev.transforms.api;

/**
 * A load's arguments do not fit together or with the table: a schema declaration that does not parse,
 * a file of an unknown format, an existing table for {@code --mode create}, a declared schema that
 * differs from the table's. Nothing was written. The message names the argument, file or column.
 */
public class InvalidLoadException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what went wrong, naming the argument, file or column, and what to do
   */
  public InvalidLoadException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message what went wrong, naming the argument, file or column, and what to do
   * @param cause the underlying failure
   */
  public InvalidLoadException(String message, Throwable cause) {
    super(message, cause);
  }
}
