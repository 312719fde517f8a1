package dev.transforms.runtime.spi;

import dev.transforms.runtime.ResolvedTable;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.Table;

/**
 * An input parameter bound to its dataset for one build.
 *
 * <p>Engine SPI: it changes only as the {@linkplain dev.transforms.runtime.spi package} promises.
 *
 * @param parameter the validated parameter
 * @param resolved the catalog table the path resolves to
 * @param table the loaded Iceberg table; empty for a file dataset
 * @param fileLocation the folder of a file dataset; empty for a table
 * @param currentSnapshotId the snapshot this build reads, pinned when the transform starts; empty for
 *     a table without snapshots or a file dataset
 * @param previousSnapshotId the snapshot this transform's last successful build consumed; empty on the
 *     first build or when that snapshot no longer exists
 * @param readsAdded whether {@code ADDED} reads return only rows appended after
 *     {@code previousSnapshotId} (an incremental build, not a snapshot input)
 * @param branch the branch the input is read at: {@code main}, or on a branch build the build's branch or
 *     the fallback the table has (see {@code docs/branches.md}); {@code currentSnapshotId} is its head
 */
public record BoundInput(
    ParameterSpec parameter,
    ResolvedTable resolved,
    Optional<Table> table,
    Optional<Path> fileLocation,
    OptionalLong currentSnapshotId,
    OptionalLong previousSnapshotId,
    boolean readsAdded,
    String branch) {

  /**
   * An input read at {@code main}: the value of every build but a branch build.
   *
   * @param parameter the validated parameter
   * @param resolved the catalog table the path resolves to
   * @param table the loaded Iceberg table; empty for a file dataset
   * @param fileLocation the folder of a file dataset; empty for a table
   * @param currentSnapshotId the snapshot this build reads
   * @param previousSnapshotId the snapshot this transform's last successful build consumed
   * @param readsAdded whether {@code ADDED} reads return only rows appended after {@code previousSnapshotId}
   */
  public BoundInput(ParameterSpec parameter, ResolvedTable resolved, Optional<Table> table,
      Optional<Path> fileLocation, OptionalLong currentSnapshotId, OptionalLong previousSnapshotId,
      boolean readsAdded) {
    this(parameter, resolved, table, fileLocation, currentSnapshotId, previousSnapshotId, readsAdded,
        org.apache.iceberg.SnapshotRef.MAIN_BRANCH);
  }

  /**
   * Whether this input is an Iceberg table or plain files.
   *
   * @return the dataset kind
   */
  public DatasetKind kind() {
    return table.isPresent() ? DatasetKind.TABLE : DatasetKind.FILES;
  }
}
