package dev.transforms.api.checks;

import java.util.OptionalLong;
import org.apache.iceberg.Table;

/** What a {@link OutputCheck} is given: the output as the transform staged it, not yet published. */
public interface CheckContext {

  /**
   * The output's dataset path.
   *
   * @return the path, such as {@code /Shop/clean/orders}
   */
  String path();

  /**
   * The output table. Read the staged rows at {@link #snapshotId()} (its {@code main} still holds the
   * previous version); do not write to it.
   *
   * @return the Iceberg table
   */
  Table table();

  /**
   * The snapshot holding everything the transform wrote: the head of the build's staging branch.
   *
   * @return the snapshot id
   */
  long snapshotId();

  /**
   * The output's {@code main} as last published, to compare against.
   *
   * @return its snapshot id; empty on the first build
   */
  OptionalLong publishedSnapshotId();
}
