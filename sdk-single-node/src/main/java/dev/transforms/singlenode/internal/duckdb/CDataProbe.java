package dev.transforms.singlenode.internal.duckdb;

import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Whether Arrow's C data interface works in this JVM: it needs {@code java.nio}'s direct-buffer
 * constructor, which Java 17 only opens with {@code --add-opens=java.base/java.nio=ALL-UNNAMED}. Without
 * it, exporting a stream fails (after allocating), so writers check first and keep to the Java path.
 */
public final class CDataProbe {

  private CDataProbe() {}

  /**
   * Asks Arrow for a direct buffer over no memory, as the C data interface does for every structure it
   * allocates (allocating one and failing would leave it allocated).
   *
   * @return true when that works
   */
  public static boolean works() {
    try {
      MemoryUtil.directBuffer(0L, 0);
      return true;
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }
}
