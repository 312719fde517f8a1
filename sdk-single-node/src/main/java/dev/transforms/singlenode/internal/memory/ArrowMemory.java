package dev.transforms.singlenode.internal.memory;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.unsafe.UnsafeAllocationManager;

/**
 * Where the single-node engine's Arrow memory comes from.
 *
 * <p>Arrow picks a default allocation manager once per JVM, when its allocator class initializes,
 * preferring Netty's when {@code arrow-memory-netty} is on the classpath. Beside Spark that choice
 * breaks: Spark brings an older Arrow Netty module and an older Netty, and the mix fails at class
 * initialization or at the first allocation. The engine allocates with Arrow's Unsafe manager, which
 * needs no Netty, and has Arrow initialize with it as the default.
 *
 * <p>The choice is made through the system property {@code arrow.allocation.manager.type}, which
 * Iceberg's own (shaded) Arrow reads too, and its shaded copy has no Unsafe manager. So the property is
 * set only while Arrow initializes and restored right after, leaving Spark's vectorized reads alone.
 */
public final class ArrowMemory {

  private static final String MANAGER_PROPERTY = "arrow.allocation.manager.type";

  private ArrowMemory() {}

  /**
   * A root allocator on Arrow's Unsafe allocation manager.
   *
   * @return a new root allocator; the caller closes it
   */
  public static BufferAllocator newRoot() {
    return newRoot(Long.MAX_VALUE);
  }

  /**
   * A root allocator on Arrow's Unsafe allocation manager, holding at most some memory.
   *
   * @param limit the most bytes its allocators hold at once
   * @return a new root allocator; the caller closes it
   */
  public static synchronized BufferAllocator newRoot(long limit) {
    String previous = System.getProperty(MANAGER_PROPERTY);
    if (previous == null) {
      System.setProperty(MANAGER_PROPERTY, "Unsafe");
    }
    try {
      return new RootAllocator(RootAllocator.configBuilder()
          .allocationManagerFactory(UnsafeAllocationManager.FACTORY)
          .maxAllocation(limit)
          .build());
    } finally {
      if (previous == null) {
        System.clearProperty(MANAGER_PROPERTY);
      }
    }
  }
}
