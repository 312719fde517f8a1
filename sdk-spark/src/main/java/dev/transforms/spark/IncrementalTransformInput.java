package dev.transforms.spark;

import dev.transforms.api.Handle;
import dev.transforms.api.Input;
import dev.transforms.api.ReadMode;
import dev.transforms.api.TableInput;
import java.util.OptionalLong;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * An input of an {@code @Incremental} Spark transform, declared with {@link TableInput} or
 * {@link Input}: reads only the rows appended since the last successful build when the build is
 * incremental.
 *
 * <p>The runtime makes a build incremental only when the input changed by appends alone since the
 * snapshot the last build read; any delete, overwrite or rewrite makes the build full, in which case
 * {@link #dataframe()} returns every row. Plain file inputs are always read whole.
 */
@Handle(engine = "spark", role = Handle.Role.INPUT, paths = {TableInput.class, Input.class},
    artifact = "dev.transforms:sdk-spark")
public interface IncrementalTransformInput extends TransformInput {

  /**
   * The rows to process: on an incremental build those appended since the last successful build, on
   * a full build all of them. Same as {@code dataframe(ReadMode.ADDED)}.
   *
   * @return the rows
   */
  @Override
  Dataset<Row> dataframe();

  /**
   * The rows of one view of the input.
   *
   * @param mode {@link ReadMode#CURRENT} every row as of this build; {@link ReadMode#PREVIOUS} every
   *     row as of the snapshot the last successful build read (none on a first build);
   *     {@link ReadMode#ADDED} the rows appended since then on an incremental build, every row on a
   *     full build
   * @return the rows, with the input's columns even when there are none
   */
  Dataset<Row> dataframe(ReadMode mode);

  /**
   * The snapshot this build reads.
   *
   * @return the snapshot id, or empty for files or a table without snapshot
   */
  OptionalLong currentSnapshotId();

  /**
   * The snapshot the last successful build read.
   *
   * @return the snapshot id, or empty on a first build, for files, or when it no longer exists
   */
  OptionalLong previousSnapshotId();
}
