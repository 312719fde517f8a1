package dev.transforms.testing;

import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;

/**
 * The outcome of a build in a test, with the checks tests make most.
 *
 * @param report the runtime's report
 */
public record BuildResult(BuildReport report) {

  /**
   * Fails the test, showing the report and the first error, unless every transform succeeded (or was up
   * to date).
   *
   * @return this result
   * @throws AssertionError if a transform failed or was skipped
   */
  public BuildResult assertSucceeded() {
    if (!report.succeeded()) {
      AssertionError error = new AssertionError("Expected the build to succeed, but:\n" + report.format());
      report.results().stream().flatMap(r -> r.error().stream()).findFirst().ifPresent(error::initCause);
      throw error;
    }
    return this;
  }

  /**
   * The result of one transform.
   *
   * @param transform the transform's name
   * @return its result
   * @throws AssertionError if the build did not plan that transform
   */
  public TransformResult transform(String transform) {
    return report.result(transform).orElseThrow(() -> new AssertionError("The build ran no transform named "
        + transform + "; it ran " + report.results().stream().map(TransformResult::transform).toList()));
  }

  /**
   * The result of the only transform of the build.
   *
   * @return its result
   * @throws AssertionError if the build ran more or fewer than one transform
   */
  public TransformResult only() {
    if (report.results().size() != 1) {
      throw new AssertionError("Expected a build of one transform, but it ran "
          + report.results().stream().map(TransformResult::transform).toList());
    }
    return report.results().get(0);
  }
}
