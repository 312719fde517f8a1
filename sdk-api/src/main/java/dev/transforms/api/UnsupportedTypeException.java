package dev.transforms.api;

/**
 * A column has a type that has no Arrow (or no Iceberg) counterpart in this SDK, for example an
 * Iceberg {@code variant} or {@code geometry}, or an Arrow union, interval or dictionary-encoded
 * column. The message names the column and its type; see {@code docs/arrow-types.md} for the types
 * that are supported.
 */
public class UnsupportedTypeException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message names the column and its type, and what to do instead
   */
  public UnsupportedTypeException(String message) {
    super(message);
  }
}
