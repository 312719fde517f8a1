package dev.transforms.testing;

import dev.transforms.runtime.TransformResult;
import org.apache.iceberg.Table;

/** Entry points of the SDK's AssertJ assertions. */
public final class TransformsAssertions {

  private TransformsAssertions() {}

  /**
   * Starts assertions on a table.
   *
   * <pre>{@code
   * assertThatTable(warehouse.table("/Examples/iceberg/edited-spark"))
   *     .hasColumns("id", "as_of", "status")
   *     .containsExactlyInAnyOrder(Row.of(1L, LocalDate.of(2026, 4, 2), "Archived"));
   * }</pre>
   *
   * @param table the table; a null table fails the first assertion
   * @return the assertion
   */
  public static TableAssert assertThatTable(Table table) {
    return new TableAssert(table);
  }

  /**
   * Starts assertions on a build.
   *
   * <pre>{@code
   * assertThat(warehouse.build(EditRows.class)).transform("edit-rows").succeeded().isIncremental();
   * }</pre>
   *
   * @param build the build's result
   * @return the assertion
   */
  public static BuildResultAssert assertThat(BuildResult build) {
    return new BuildResultAssert(build);
  }

  /**
   * Starts assertions on one transform's result.
   *
   * <pre>{@code
   * assertThat(result.only()).failedWith(PublishConflictException.class, "build again");
   * }</pre>
   *
   * @param result the transform's result
   * @return the assertion
   */
  public static TransformResultAssert assertThat(TransformResult result) {
    return new TransformResultAssert(result);
  }
}
