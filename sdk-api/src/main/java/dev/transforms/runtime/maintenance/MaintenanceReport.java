package dev.transforms.runtime.maintenance;

import java.util.List;

/**
 * What maintenance did to one table.
 *
 * @param path the table's dataset path
 * @param expiredSnapshots the snapshots expired
 * @param keptForIncrementalState snapshots that would have expired but were kept because a downstream
 *     incremental transform recorded them as its input state
 * @param compaction what compaction rewrote ({@link CompactionResult#NOTHING} when not asked)
 * @param manifestsRewritten manifests replaced by the manifest rewrite
 * @param orphanFiles the orphan files found, deleted or not
 * @param orphansDeleted whether they were deleted (false: a dry run)
 * @param lines what was done, a line per step, as the command line prints it
 */
public record MaintenanceReport(
    String path,
    List<Long> expiredSnapshots,
    List<Long> keptForIncrementalState,
    CompactionResult compaction,
    int manifestsRewritten,
    List<String> orphanFiles,
    boolean orphansDeleted,
    List<String> lines) {

  /**
   * Copies the lists so the report stays immutable.
   *
   * @param path the table's path
   * @param expiredSnapshots snapshots expired
   * @param keptForIncrementalState snapshots kept for downstream state
   * @param compaction the compaction's result
   * @param manifestsRewritten manifests replaced
   * @param orphanFiles orphan files found
   * @param orphansDeleted whether they were deleted
   * @param lines the report's lines
   */
  public MaintenanceReport {
    expiredSnapshots = List.copyOf(expiredSnapshots);
    keptForIncrementalState = List.copyOf(keptForIncrementalState);
    orphanFiles = List.copyOf(orphanFiles);
    lines = List.copyOf(lines);
  }
}
