package dev.transforms.runtime;

import java.util.List;
import java.util.OptionalLong;

/**
 * What one build wrote to one output, summed over the snapshots it published.
 *
 * @param path the output's dataset path
 * @param identifier the table written, as {@code catalog.namespace.table}
 * @param rowsAdded rows added (the {@code added-records} of the published snapshots)
 * @param rowsDeleted rows deleted ({@code deleted-records})
 * @param filesAdded data files added ({@code added-data-files})
 * @param snapshots snapshots published
 * @param snapshotId the output's {@code main} snapshot after publishing; empty if it has none
 * @param created whether this build created the table
 * @param schemaChanges how the build changed the output's schema, one change per line (such as
 *     {@code email added (string)}); empty when it kept the schema or created the table
 * @param published whether the build published to the output: false when the transform did not write it,
 *     a new output (not created) or, in a full build, an existing one (left with its rows and its state, so
 *     the transform stays out of date until a build writes it)
 */
public record OutputWrites(
    DatasetPath path,
    String identifier,
    long rowsAdded,
    long rowsDeleted,
    long filesAdded,
    int snapshots,
    OptionalLong snapshotId,
    boolean created,
    List<String> schemaChanges,
    boolean published) {

  /** Copies the changes. */
  public OutputWrites {
    schemaChanges = List.copyOf(schemaChanges);
  }

  /**
   * What a build published to an output.
   *
   * @param path the output's dataset path
   * @param identifier the table written
   * @param rowsAdded rows added
   * @param rowsDeleted rows deleted
   * @param filesAdded data files added
   * @param snapshots snapshots published
   * @param snapshotId the output's {@code main} snapshot after publishing
   * @param created whether this build created the table
   * @param schemaChanges how the build changed the output's schema
   */
  public OutputWrites(DatasetPath path, String identifier, long rowsAdded, long rowsDeleted, long filesAdded,
      int snapshots, OptionalLong snapshotId, boolean created, List<String> schemaChanges) {
    this(path, identifier, rowsAdded, rowsDeleted, filesAdded, snapshots, snapshotId, created, schemaChanges, true);
  }
}
