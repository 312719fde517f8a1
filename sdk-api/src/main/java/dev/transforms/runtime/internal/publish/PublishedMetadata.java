package dev.transforms.runtime.internal.publish;

import dev.transforms.runtime.internal.incremental.IncrementalState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.exceptions.ValidationException;

/**
 * What an output's metadata becomes when a build publishes it, in one commit: {@code main} at the
 * staging branch's head, the staged shape applied, the build's state stored, its marks removed. The
 * publication and the recovery of a dead build's publication commit it alike.
 */
final class PublishedMetadata {

  private PublishedMetadata() {}

  /**
   * The metadata of an output once a build's staging branch is published: {@code main} at the
   * branch's head, the build's staged shape applied, its state stored, its marks removed.
   *
   * @param base the output's committed metadata
   * @param buildId the build
   * @param branch the build's staging branch
   * @param state the build's state
   * @param extra further properties to store (how the checks came out)
   * @return the metadata to commit over {@code base}
   * @throws ValidationException if the branch is gone or does not descend from {@code main}
   */
  static TableMetadata published(TableMetadata base, String buildId, String branch, IncrementalState state,
      Map<String, String> extra) {
    return published(base, buildId, branch, BuildBranch.MAIN, state, extra);
  }

  /**
   * The metadata of an output once a build's staging branch is published to the branch the build
   * publishes: as {@link #published(TableMetadata, String, String, IncrementalState, Map)} for
   * {@code main}; for a branch build, that branch at the staging branch's head (cut from {@code main}
   * on its first build, even when the run changed no row), the state stored under the branch's keys,
   * {@code main} and its state untouched.
   *
   * @param base the output's committed metadata
   * @param buildId the build
   * @param branch the build's staging branch
   * @param target the branch the build publishes
   * @param state the build's state
   * @param extra further properties to store (how the checks came out)
   * @return the metadata to commit over {@code base}
   * @throws ValidationException if the staging branch is gone or does not descend from the target
   */
  static TableMetadata published(TableMetadata base, String buildId, String branch, BuildBranch target,
      IncrementalState state, Map<String, String> extra) {
    SnapshotRef ref = base.ref(branch);
    if (ref == null) {
      throw new ValidationException("staging branch %s disappeared", branch);
    }
    Snapshot main = target.head(base);
    boolean descends = main == null;
    for (Snapshot s = base.snapshot(ref.snapshotId()); s != null && !descends;
        s = s.parentId() == null ? null : base.snapshot(s.parentId())) {
      descends = s.snapshotId() == main.snapshotId();
    }
    if (!descends) {
      throw new ValidationException("cannot fast-forward %s to %s: %s is not an ancestor of it", target.name(), branch,
          target.name());
    }
    List<Snapshot> staged = new ArrayList<>();
    for (Snapshot s = base.snapshot(ref.snapshotId()); s != null && (main == null || s.snapshotId() != main.snapshotId());
        s = s.parentId() == null ? null : base.snapshot(s.parentId())) {
      staged.add(s);
    }
    // A run that changed no row publishes no snapshot: its empty snapshots go with its branch.
    boolean changesRows = staged.stream().anyMatch(PublishedMetadata::changesRows);
    TableMetadata.Builder builder = TableMetadata.buildFrom(base);
    if (changesRows) {
      builder.setBranchSnapshot(ref.snapshotId(), target.name());
    } else if (!target.isMain() && main != null && base.ref(target.name()) == null) {
      builder.setBranchSnapshot(main.snapshotId(), target.name()); // the branch is cut where main is
    }
    builder.removeRef(branch);
    if (!changesRows && !staged.isEmpty()) {
      builder.removeSnapshots(staged.stream().map(Snapshot::snapshotId).toList());
    }
    Optional<StagedShape> shape = StagedShape.staged(base, buildId);
    if (shape.isPresent() && !shape.get().appliesTo(base)) {
      throw new ValidationException("the schema, spec or sort order build %s staged is gone from the table", buildId);
    }
    if (target.isMain()) {
      shape.ifPresent(s -> s.applyTo(builder, base));
    }
    Map<String, String> next = new LinkedHashMap<>();
    stateProperties(state, changesRows ? base.snapshot(ref.snapshotId()) : main, extra)
        .forEach((key, value) -> next.put(target.stateKey(key), value));
    Set<String> removed = staleStateKeys(base.properties(), next, target);
    removed.add(StagingMarks.leaseKey(buildId));
    removed.add(StagedShape.key(buildId));
    removed.retainAll(base.properties().keySet());
    builder.setProperties(next);
    if (!removed.isEmpty()) {
      builder.removeProperties(removed);
    }
    return builder.build();
  }

  /**
   * Deletes the manifest lists of the snapshots a publication dropped (the empty snapshots of a run that
   * changed no row): nothing references them any more. Their manifests are those of their parents.
   */
  static void deleteDroppedManifestLists(TableOperations operations, TableMetadata base, TableMetadata updated) {
    for (Snapshot snapshot : base.snapshots()) {
      if (updated.snapshot(snapshot.snapshotId()) == null && snapshot.manifestListLocation() != null) {
        try {
          operations.io().deleteFile(snapshot.manifestListLocation());
        } catch (RuntimeException e) {
          // An orphan file at worst: orphan-file maintenance removes it.
        }
      }
    }
  }

  /** Whether a snapshot added or removed a data or delete file; one without a summary counts as a change. */
  private static boolean changesRows(Snapshot snapshot) {
    Map<String, String> summary = snapshot.summary();
    if (summary == null) {
      return true;
    }
    for (String key : List.of("added-data-files", "deleted-data-files", "added-delete-files", "removed-delete-files",
        "added-dvs", "removed-dvs")) {
      if (number(summary, key) > 0) {
        return true;
      }
    }
    return false;
  }

  static Map<String, String> stateProperties(IncrementalState state, Snapshot head, Map<String, String> extra) {
    Map<String, String> next = new LinkedHashMap<>(state.toProperties());
    next.put(IncrementalState.SNAPSHOT_ID, head == null ? IncrementalState.NO_SNAPSHOT : Long.toString(head.snapshotId()));
    next.put(IncrementalState.SEQUENCE_NUMBER, head == null ? "0" : Long.toString(head.sequenceNumber()));
    next.putAll(extra);
    return next;
  }

  private static Set<String> staleStateKeys(Map<String, String> current, Map<String, String> next,
      BuildBranch target) {
    Set<String> stale = new LinkedHashSet<>();
    for (String key : current.keySet()) {
      boolean owned = target.isMain()
          ? key.startsWith(IncrementalState.PREFIX) || key.startsWith(OutputPublisher.CHECKS_PREFIX)
          : target.ownsKey(key);
      if (owned && !next.containsKey(key)) {
        stale.add(key);
      }
    }
    return stale;
  }

  /** A number in a snapshot summary; 0 when absent. */
  static long number(Map<String, String> summary, String key) {
    String value = summary == null ? null : summary.get(key);
    return value == null ? 0 : Long.parseLong(value);
  }
}
