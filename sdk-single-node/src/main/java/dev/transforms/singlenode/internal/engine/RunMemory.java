package dev.transforms.singlenode.internal.engine;

import dev.transforms.singlenode.ArrowMemoryLeakException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The Arrow memory of one transform run: a child allocator for data the runtime hands out (released
 * after the method returns) and one for the transform's own allocations (must be empty by then).
 */
final class RunMemory implements AutoCloseable {

  private final BufferAllocator run;
  private final BufferAllocator runtime;
  private final BufferAllocator user;
  private final List<AutoCloseable> owned = new ArrayList<>();

  RunMemory(BufferAllocator parent, String name) {
    this.run = parent.newChildAllocator(name, 0, Long.MAX_VALUE);
    this.runtime = run.newChildAllocator(name + "/runtime", 0, Long.MAX_VALUE);
    this.user = run.newChildAllocator(name + "/transform", 0, Long.MAX_VALUE);
  }

  BufferAllocator runtime() {
    return runtime;
  }

  BufferAllocator user() {
    return user;
  }

  /** Registers runtime-owned data to release after the run; returns it. */
  synchronized <T extends AutoCloseable> T own(T resource) {
    owned.add(resource);
    return resource;
  }

  /**
   * Releases runtime-owned data and checks the transform released its own.
   *
   * @throws ArrowMemoryLeakException if the transform left memory allocated
   */
  @Override
  public synchronized void close() {
    RuntimeException failure = null;
    for (AutoCloseable resource : owned) {
      try {
        resource.close();
      } catch (Exception e) {
        failure = failure == null ? new IllegalStateException("Cannot release Arrow data: " + e, e) : failure;
      }
    }
    owned.clear();
    long leaked = user.getAllocatedMemory();
    if (leaked > 0) {
      String detail = user.toVerboseString();
      throw new ArrowMemoryLeakException(leaked, detail);
    }
    user.close();
    runtime.close();
    run.close();
    if (failure != null) {
      throw failure;
    }
  }
}
