package dev.transforms.runtime.build;

import dev.transforms.runtime.spec.TransformSpec;

/**
 * Hears a build's progress, for progress lines on a console. Methods are called on the build's thread.
 */
public interface BuildListener {

  /** A listener that ignores everything. */
  BuildListener NONE = new BuildListener() {};

  /**
   * A transform is about to run.
   *
   * @param spec the transform
   * @param position its position in the plan, from 1
   * @param total the number of transforms in the plan
   */
  default void started(TransformSpec spec, int position, int total) {}

  /**
   * A transform finished, ran or not.
   *
   * @param result its result
   * @param position its position in the plan, from 1
   * @param total the number of transforms in the plan
   */
  default void finished(TransformResult result, int position, int total) {}
}
