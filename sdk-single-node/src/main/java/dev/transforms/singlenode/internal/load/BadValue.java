package dev.transforms.singlenode.internal.load;

/**
 * A value that does not fit its column, thrown by the text parsers and turned into a bad row by the
 * reader that met it. Carries no stack trace: bad rows are expected input, not program errors.
 */
final class BadValue extends Exception {
  private static final long serialVersionUID = 1L;

  BadValue(String message) {
    super(message, null, false, false);
  }
}
