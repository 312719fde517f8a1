package dev.transforms.api;

/**
 * A transform whose advisory level is {@code error} earned advisories while it ran; none of its writes
 * were published and its outputs stay exactly as they were. The message names each advisory: its rule,
 * what was found and the fix.
 */
public class AdvisoryException extends TransformsException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the advisories, one per line
   */
  public AdvisoryException(String message) {
    super(message);
  }
}
