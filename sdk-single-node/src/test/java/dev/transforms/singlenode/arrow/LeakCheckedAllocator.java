package dev.transforms.singlenode.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An Arrow allocator per test that fails the test when any of its memory is still allocated at the
 * end. Use with {@code @RegisterExtension final LeakCheckedAllocator memory = new LeakCheckedAllocator();}
 * and {@code memory.get()} in the test.
 */
public final class LeakCheckedAllocator implements BeforeEachCallback, AfterEachCallback {
  private BufferAllocator allocator;

  /** The current test's allocator. */
  public BufferAllocator get() {
    return allocator;
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    allocator = new RootAllocator();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    try {
      assertThat(allocator.getAllocatedMemory()).as("Arrow memory still allocated").isZero();
    } finally {
      allocator.close();
    }
  }
}
