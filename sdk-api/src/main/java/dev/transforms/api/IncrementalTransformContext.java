package dev.transforms.api;

import dev.transforms.api.Handle;

/**
 * The context of an {@link Incremental} transform: tells whether this build is incremental.
 */
@Handle(engine = Handle.ANY_ENGINE, role = Handle.Role.CONTEXT, artifact = "dev.transforms:sdk-api")
public interface IncrementalTransformContext extends TransformContext {

  /**
   * Whether this build processes only rows added since the last successful build.
   *
   * @return {@code true} for an incremental build, {@code false} for a full build
   */
  boolean isIncremental();
}
