package dev.transforms.runtime;

/**
 * Hears a build's progress, for progress lines on a console. Methods are called one at a time, on the
 * thread that called the build, even while several transforms run at once: a listener needs no locks.
 */
public interface BuildListener {

  /** A listener that ignores everything. */
  BuildListener NONE = new BuildListener() {};

  /**
   * The build is planned and its catalogs started; no transform has run yet.
   *
   * @param transforms the transforms to run, in order
   */
  default void planned(java.util.List<String> transforms) {}

  /**
   * A transform is about to run.
   *
   * @param transform the transform's name
   * @param position its position in the plan, from 1
   * @param total the number of transforms in the plan
   */
  default void started(String transform, int position, int total) {}

  /**
   * A transform finished, ran or not.
   *
   * @param result its result
   * @param position its position in the plan, from 1
   * @param total the number of transforms in the plan
   */
  default void finished(TransformResult result, int position, int total) {}
}
