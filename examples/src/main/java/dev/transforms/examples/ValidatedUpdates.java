package dev.transforms.examples;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.api.checks.AllowedValues;
import dev.transforms.api.checks.Level;
import dev.transforms.api.checks.NotNull;
import dev.transforms.api.checks.PrimaryKey;
import dev.transforms.api.checks.RowCount;
import dev.transforms.api.checks.ValueRange;
import dev.transforms.spark.TableTransformInput;
import dev.transforms.spark.TableTransformOutput;

/**
 * Publishes the row updates only when they are sound: one row per {@code id}, a date on every row, a
 * status the downstream jobs know, at least one row. Updates dated before 2026 are published but
 * reported, so someone looks at them.
 *
 * <p>The checks run on what the transform staged, after the method returns and before anything is
 * published: an input with a duplicate {@code id} or an unknown status leaves the output exactly as it
 * was, and the build report names the check, the number of rows that violate it and a few of them.
 */
public class ValidatedUpdates {

  /** The validated copy of the row updates. */
  public static final String VALIDATED = "/Examples/iceberg/validated-updates";

  /**
   * Copies the updates, under checks.
   *
   * @param updates the row updates
   * @param validated the output, published only when every FAIL check passes
   */
  @Transform(description = "publish row updates only when their keys, dates and statuses are sound")
  public void validateUpdates(
      @TableInput(SparkRowEdits.UPDATES) TableTransformInput updates,
      @TableOutput(VALIDATED)
      @PrimaryKey("id")
      @NotNull("as_of")
      @AllowedValues(column = "status", values = {"Active", "Stale", "Archived"})
      @RowCount(min = 1)
      @ValueRange(column = "as_of", min = "2026-01-01", level = Level.WARN, name = "dated 2026 or later")
      TableTransformOutput validated) {
    validated.writeDataFrame(updates.dataframe());
  }
}
