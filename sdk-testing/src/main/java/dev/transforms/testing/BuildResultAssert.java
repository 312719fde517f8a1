package dev.transforms.testing;

import dev.transforms.runtime.TransformResult;
import org.assertj.core.api.AbstractAssert;

/**
 * AssertJ assertions on a build in a test. Start with {@link TransformsAssertions#assertThat(BuildResult)}.
 *
 * <p>Failure messages show the build's report, with every error and its causes.
 */
public final class BuildResultAssert extends AbstractAssert<BuildResultAssert, BuildResult> {

  BuildResultAssert(BuildResult actual) {
    super(actual, BuildResultAssert.class);
  }

  /**
   * Checks that every transform of the build succeeded.
   *
   * <pre>{@code
   * assertThat(warehouse.build(EditRows.class)).succeeded();
   * }</pre>
   *
   * @return this assertion
   */
  public BuildResultAssert succeeded() {
    isNotNull();
    if (!actual.report().succeeded()) {
      throw failure("Expecting the build to succeed but:%n%s", actual.report().format());
    }
    return myself;
  }

  /**
   * Checks that some transform of the build failed or was skipped.
   *
   * <pre>{@code
   * assertThat(warehouse.build(EditRows.class)).failed();
   * }</pre>
   *
   * @return this assertion
   */
  public BuildResultAssert failed() {
    isNotNull();
    if (actual.report().succeeded()) {
      throw failure("Expecting the build to fail but every transform succeeded:%n%s", actual.report().format());
    }
    return myself;
  }

  /**
   * Goes on with assertions on one transform of the build.
   *
   * <pre>{@code
   * assertThat(result).transform("edit-rows").succeeded().isIncremental();
   * }</pre>
   *
   * @param transform the transform's name
   * @return the assertion on its result
   */
  public TransformResultAssert transform(String transform) {
    isNotNull();
    TransformResult result = actual.report().result(transform).orElseThrow(() -> failure(
        "Expecting the build to have run transform %s but it ran %s", transform,
        actual.report().results().stream().map(TransformResult::transform).toList()));
    return new TransformResultAssert(result);
  }

  /**
   * Goes on with assertions on the only transform of the build.
   *
   * <pre>{@code
   * assertThat(warehouse.build(Copy.class)).only().failedWith(PublishConflictException.class);
   * }</pre>
   *
   * @return the assertion on its result
   */
  public TransformResultAssert only() {
    isNotNull();
    if (actual.report().results().size() != 1) {
      throw failure("Expecting a build of one transform but it ran %s",
          actual.report().results().stream().map(TransformResult::transform).toList());
    }
    return new TransformResultAssert(actual.report().results().get(0));
  }
}
