package dev.transforms.runtime.spi;

/**
 * Runs transforms of one kind for one build.
 *
 * <p>The runtime has already validated the transform, resolved every path, loaded the tables, decided
 * whether the build is incremental, and cut a staging branch on every existing output table. The
 * engine builds the handles, invokes the method through {@link TransformRun#invoke(Object[])}, and
 * makes sure that every write it issues lands on {@link TransformRun#stagingBranch()} of existing
 * output tables, stamped with {@link TransformRun#commitProperties()}. Publication (the fast-forward of
 * each output's {@code main}) and the report are the runtime's.
 *
 * <p>Engine SPI: it changes only as the {@linkplain dev.transforms.runtime.spi package} promises.
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

  /**
   * Evaluates data expectations on what a transform staged for one output, before it is published,
   * reading no more of the output than the checks need. Called after {@link #run} returned.
   *
   * @param run the run that staged the output
   * @param output the staged output
   * @param checks the checks to evaluate; engine-neutral ones ({@code HasColumn}, {@code Check}) are
   *     evaluated by the runtime and never passed here
   * @return one result per check, in the order given
   */
  default java.util.List<dev.transforms.runtime.CheckResult> evaluate(TransformRun run, StagedOutput output,
      java.util.List<dev.transforms.runtime.spi.CheckSpec> checks) {
    return checks.stream().map(check -> new dev.transforms.runtime.CheckResult(
        output.output().parameter().requirePath(), check.name(), check.level(),
        dev.transforms.runtime.CheckResult.Outcome.ERROR, 0, java.util.List.of(),
        "engine " + run.spec().engine() + " cannot evaluate this check")).toList();
  }

  /** Releases what the engine holds (a Spark session it started, Arrow memory). */
  @Override
  void close();
}
