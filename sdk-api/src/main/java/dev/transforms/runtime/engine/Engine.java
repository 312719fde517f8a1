package dev.transforms.runtime.engine;

/**
 * Runs transforms of one kind for one build.
 *
 * <p>The runtime has already validated the transform, resolved every path, loaded the tables, decided
 * whether the build is incremental, and cut a staging branch on every existing output table. The
 * engine builds the handles, invokes the method through {@link TransformRun#invoke(Object[])}, and
 * makes sure that every write it issues lands on {@link TransformRun#stagingBranch()} of existing
 * output tables, stamped with {@link TransformRun#commitProperties()}. Publication (the fast-forward of
 * each output's {@code main}) and the report are the runtime's.
 */
public interface Engine extends AutoCloseable {

  /**
   * Runs one transform.
   *
   * @param run the transform, its bound datasets and the incremental decision
   * @throws dev.transforms.api.TransformFailedException if the method threw
   * @throws RuntimeException for an engine failure; the runtime discards every staged write either way
   */
  void run(TransformRun run);

  /** Releases what the engine holds (a Spark session it started, Arrow memory). */
  @Override
  void close();
}
