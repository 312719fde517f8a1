package dev.transforms.singlenode;

import dev.transforms.runtime.BuildReport;
import dev.transforms.Transforms;

/** Builds for tests that change what a transform does between builds by hand (a static field, not its code). */
public final class Builds {

  private Builds() {}

  /**
   * Builds the transforms of some classes even when they are up to date.
   *
   * @param runner the runtime
   * @param classes classes holding {@code @Transform} methods
   * @return the report
   */
  public static BuildReport forced(Transforms runner, Class<?>... classes) {
    return runner.build(Transforms.Selection.of(classes).force());
  }
}
