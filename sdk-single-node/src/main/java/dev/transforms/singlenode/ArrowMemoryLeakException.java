package dev.transforms.singlenode;

import dev.transforms.api.TransformsException;

/**
 * Thrown when a single-node transform returns while Arrow memory it allocated from {@link
 * SingleNodeTransformContext#allocator()} is still allocated. The transform fails and nothing it
 * wrote is published.
 */
public final class ArrowMemoryLeakException extends TransformsException {

  private static final long serialVersionUID = 1L;

  private final long leakedBytes;

  /**
   * Creates the exception.
   *
   * @param leakedBytes how many bytes were still allocated
   * @param detail the allocator's description of what is still allocated
   */
  public ArrowMemoryLeakException(long leakedBytes, String detail) {
    super("The transform leaked " + leakedBytes + " bytes of Arrow memory: close every vector and root"
        + " you allocate from the context allocator before returning.\n" + detail);
    this.leakedBytes = leakedBytes;
  }

  /**
   * How many bytes were still allocated when the transform returned.
   *
   * @return the leaked byte count
   */
  public long leakedBytes() {
    return leakedBytes;
  }
}
