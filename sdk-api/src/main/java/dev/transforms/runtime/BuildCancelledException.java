package dev.transforms.runtime;

import dev.transforms.api.TransformsException;

/** A transform stopped because its build was cancelled; what it wrote is discarded, not published. */
public final class BuildCancelledException extends TransformsException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message which transform, what became of it, and why the build was cancelled
   */
  public BuildCancelledException(String message) {
    super(message);
  }
}
