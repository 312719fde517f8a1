package dev.transforms.runtime.maintenance;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What {@link TableMaintenance} does to a table, and the safety rules it may relax.
 *
 * <p>Defaults follow Iceberg's: snapshots older than five days expire, the last one is always kept;
 * orphan files must be at least three days old, and are listed, not deleted, unless
 * {@link #deleteOrphans()} says so.
 *
 * @param expireSnapshots expire old snapshots of {@code main} (never a branch or a tag)
 * @param olderThan snapshots older than this expire
 * @param retainLast this many of the newest snapshots of {@code main} are kept whatever their age
 * @param keepIncrementalState keep the snapshots that a downstream incremental transform recorded as
 *     the input state of its last build (otherwise they expire and that transform rebuilds in full)
 * @param rewriteManifests regroup the current snapshot's manifests by partition
 * @param compact rewrite small data files and files with deletes
 * @param removeOrphans look for files under the table's location that no snapshot or metadata file
 *     references
 * @param orphanOlderThan only files older than this count as orphans: a younger one may belong to a
 *     write still running
 * @param deleteOrphans delete the orphan files found; otherwise they are only listed (a dry run)
 * @param allowShortRetention accept an {@code orphanOlderThan} under {@link #MIN_ORPHAN_AGE}, at the
 *     risk of deleting the files of writes still running
 * @param equivalentSchemes URI schemes to treat as the same when listed files and metadata are
 *     compared, such as {@code s3a -> s3}
 * @param equivalentAuthorities URI authorities to treat as the same, such as
 *     {@code bucket.internal -> bucket}
 * @param metadataDeleteAfterCommit when present, sets {@code write.metadata.delete-after-commit.enabled}
 * @param metadataPreviousVersions when present, sets {@code write.metadata.previous-versions-max}
 */
public record MaintenanceOptions(
    boolean expireSnapshots,
    Duration olderThan,
    int retainLast,
    boolean keepIncrementalState,
    boolean rewriteManifests,
    boolean compact,
    boolean removeOrphans,
    Duration orphanOlderThan,
    boolean deleteOrphans,
    boolean allowShortRetention,
    Map<String, String> equivalentSchemes,
    Map<String, String> equivalentAuthorities,
    Optional<Boolean> metadataDeleteAfterCommit,
    Optional<Integer> metadataPreviousVersions) {

  /** Iceberg's default age after which a snapshot expires. */
  public static final Duration DEFAULT_OLDER_THAN = Duration.ofDays(5);
  /** The shortest orphan retention accepted without {@code allowShortRetention}. */
  public static final Duration MIN_ORPHAN_AGE = Duration.ofDays(3);

  /**
   * Checks the values and copies the maps.
   *
   * @throws IllegalArgumentException naming the argument that is out of range
   */
  public MaintenanceOptions {
    if (retainLast < 1) {
      throw new IllegalArgumentException("--retain-last must be at least 1, was " + retainLast);
    }
    if (olderThan.isNegative() || orphanOlderThan.isNegative()) {
      throw new IllegalArgumentException("--older-than and --orphans-older-than must not be negative");
    }
    if (metadataPreviousVersions.isPresent() && metadataPreviousVersions.get() < 1) {
      throw new IllegalArgumentException("--metadata-previous-versions must be at least 1, was "
          + metadataPreviousVersions.get());
    }
    equivalentSchemes = Map.copyOf(equivalentSchemes);
    equivalentAuthorities = Map.copyOf(equivalentAuthorities);
  }

  /**
   * Every action with Iceberg's defaults, orphan removal as a dry run.
   *
   * @return the options
   */
  public static MaintenanceOptions all() {
    return new MaintenanceOptions(true, DEFAULT_OLDER_THAN, 1, false, true, true, true, MIN_ORPHAN_AGE, false,
        false, Map.of(), Map.of(), Optional.empty(), Optional.empty());
  }

  /**
   * No action: start from this and switch on what is wanted.
   *
   * @return the options
   */
  public static MaintenanceOptions none() {
    return new MaintenanceOptions(false, DEFAULT_OLDER_THAN, 1, false, false, false, false, MIN_ORPHAN_AGE, false,
        false, Map.of(), Map.of(), Optional.empty(), Optional.empty());
  }

  /**
   * These options with snapshot expiry on.
   *
   * @param age snapshots older than this expire
   * @param retain how many of the newest are kept whatever their age
   * @return the new options
   */
  public MaintenanceOptions withExpiry(Duration age, int retain) {
    return new MaintenanceOptions(true, age, retain, keepIncrementalState, rewriteManifests, compact, removeOrphans,
        orphanOlderThan, deleteOrphans, allowShortRetention, equivalentSchemes, equivalentAuthorities,
        metadataDeleteAfterCommit, metadataPreviousVersions);
  }

  /**
   * These options, keeping or not the snapshots of downstream incremental state.
   *
   * @param keep whether to keep them
   * @return the new options
   */
  public MaintenanceOptions withKeepIncrementalState(boolean keep) {
    return new MaintenanceOptions(expireSnapshots, olderThan, retainLast, keep, rewriteManifests, compact,
        removeOrphans, orphanOlderThan, deleteOrphans, allowShortRetention, equivalentSchemes, equivalentAuthorities,
        metadataDeleteAfterCommit, metadataPreviousVersions);
  }

  /**
   * These options with manifest rewriting on or off.
   *
   * @param on whether to rewrite manifests
   * @return the new options
   */
  public MaintenanceOptions withRewriteManifests(boolean on) {
    return new MaintenanceOptions(expireSnapshots, olderThan, retainLast, keepIncrementalState, on, compact,
        removeOrphans, orphanOlderThan, deleteOrphans, allowShortRetention, equivalentSchemes, equivalentAuthorities,
        metadataDeleteAfterCommit, metadataPreviousVersions);
  }

  /**
   * These options with compaction on or off.
   *
   * @param on whether to compact
   * @return the new options
   */
  public MaintenanceOptions withCompact(boolean on) {
    return new MaintenanceOptions(expireSnapshots, olderThan, retainLast, keepIncrementalState, rewriteManifests, on,
        removeOrphans, orphanOlderThan, deleteOrphans, allowShortRetention, equivalentSchemes, equivalentAuthorities,
        metadataDeleteAfterCommit, metadataPreviousVersions);
  }

  /**
   * These options with orphan removal on.
   *
   * @param age only files older than this count as orphans
   * @param delete delete them (otherwise only list them)
   * @param allowShort accept an age under {@link #MIN_ORPHAN_AGE}
   * @return the new options
   */
  public MaintenanceOptions withOrphans(Duration age, boolean delete, boolean allowShort) {
    return new MaintenanceOptions(expireSnapshots, olderThan, retainLast, keepIncrementalState, rewriteManifests,
        compact, true, age, delete, allowShort, equivalentSchemes, equivalentAuthorities,
        metadataDeleteAfterCommit, metadataPreviousVersions);
  }

  /**
   * These options with declared equivalent schemes and authorities.
   *
   * @param schemes scheme to the scheme it stands for
   * @param authorities authority to the authority it stands for
   * @return the new options
   */
  public MaintenanceOptions withEquivalents(Map<String, String> schemes, Map<String, String> authorities) {
    return new MaintenanceOptions(expireSnapshots, olderThan, retainLast, keepIncrementalState, rewriteManifests,
        compact, removeOrphans, orphanOlderThan, deleteOrphans, allowShortRetention, schemes, authorities,
        metadataDeleteAfterCommit, metadataPreviousVersions);
  }

  /**
   * These options with table properties about old metadata files to set.
   *
   * @param deleteAfterCommit {@code write.metadata.delete-after-commit.enabled}, if present
   * @param previousVersions {@code write.metadata.previous-versions-max}, if present
   * @return the new options
   */
  public MaintenanceOptions withMetadataRetention(Optional<Boolean> deleteAfterCommit,
      Optional<Integer> previousVersions) {
    return new MaintenanceOptions(expireSnapshots, olderThan, retainLast, keepIncrementalState, rewriteManifests,
        compact, removeOrphans, orphanOlderThan, deleteOrphans, allowShortRetention, equivalentSchemes,
        equivalentAuthorities, deleteAfterCommit, previousVersions);
  }
}
