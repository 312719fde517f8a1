package dev.transforms.singlenode;

import dev.transforms.api.Handle;
import dev.transforms.api.IncrementalTransformContext;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The context of a single-node transform: the build's details plus the Arrow allocator of this run.
 */
@Handle(engine = "single-node", role = Handle.Role.CONTEXT, artifact = "dev.transforms:sdk-single-node")
public interface SingleNodeTransformContext extends IncrementalTransformContext {

  /**
   * The allocator of this transform run, to build Arrow data with. Everything allocated from it must
   * be closed by the time the method returns: the engine checks, and fails the transform when memory
   * is still allocated (a leak). Data returned by {@link IcebergInput} comes from a child of this
   * allocator and is released by the runtime.
   *
   * @return the run's allocator
   */
  BufferAllocator allocator();
}
