package dev.transforms.singlenode;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.unsafe.UnsafeAllocationManager;

/**
 * Where the single-node engine's Arrow memory comes from.
 *
 * <p>Arrow picks its allocation manager once per JVM, preferring Netty's when {@code arrow-memory-netty}
 * is on the classpath. Spark puts an older Arrow Netty module and an older Netty there, and the mix
 * fails at the first allocation ({@code AbstractMethodError} in Netty, or no allocation manager at all).
 * The engine uses Arrow's Unsafe allocation manager instead, which needs no Netty, and makes it the
 * JVM's default unless {@code arrow.allocation.manager.type} is already set.
 */
final class ArrowMemory {

  private static final String MANAGER_PROPERTY = "arrow.allocation.manager.type";

  static {
    if (System.getProperty(MANAGER_PROPERTY) == null) {
      System.setProperty(MANAGER_PROPERTY, "Unsafe");
    }
  }

  private ArrowMemory() {}

  /**
   * A root allocator on Arrow's Unsafe allocation manager.
   *
   * @return a new root allocator; the caller closes it
   */
  static BufferAllocator newRoot() {
    return new RootAllocator(RootAllocator.configBuilder()
        .allocationManagerFactory(UnsafeAllocationManager.FACTORY)
        .build());
  }
}
