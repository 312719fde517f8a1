package dev.transforms.runtime.internal.publish;

import dev.transforms.runtime.internal.incremental.IncrementalState;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileIO;

/** The snapshots only some branches reach, and their removal with the files only they hold. */
final class BranchSnapshots {

  /** Threads that read the expired snapshots' manifests and delete their files. */
  private static final int CLEANUP_THREADS = 8;

  private BranchSnapshots() {}

  /**
   * The snapshots reachable from the given branches and from no other ref of the table: what a build
   * committed to its staging branch and nothing else sees.
   *
   * @param table the table, as loaded
   * @param branches the branches
   * @return their snapshot ids, newest first per branch
   */
  static Set<Long> onlyOn(Table table, Set<String> branches) {
    Set<Long> shared = new HashSet<>();
    table.refs().forEach((name, ref) -> {
      if (!branches.contains(name)) {
        if (ref.isBranch()) {
          walk(table, ref.snapshotId(), shared, Set.of());
        } else {
          shared.add(ref.snapshotId());
        }
      }
    });
    Set<Long> only = new LinkedHashSet<>();
    for (String branch : branches) {
      SnapshotRef ref = table.refs().get(branch);
      if (ref != null) {
        walk(table, ref.snapshotId(), only, shared);
      }
    }
    return only;
  }

  /**
   * The snapshots a build committed that no ref reaches: what is left of a staging branch whose
   * removal was committed but whose snapshots were not expired yet.
   *
   * @param table the table, as loaded
   * @param buildId the build, as its snapshots' summaries name it
   * @return their ids
   */
  static Set<Long> unreachableOf(Table table, String buildId) {
    Set<Long> reachable = new HashSet<>();
    table.refs().forEach((name, ref) -> walk(table, ref.snapshotId(), reachable, Set.of()));
    Set<Long> unreachable = new LinkedHashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      if (!reachable.contains(snapshot.snapshotId()) && snapshot.summary() != null
          && buildId.equals(snapshot.summary().get(IncrementalState.SUMMARY_BUILD_ID))) {
        unreachable.add(snapshot.snapshotId());
      }
    }
    return unreachable;
  }

  private static void walk(Table table, long head, Set<Long> into, Set<Long> stopAt) {
    Snapshot snapshot = table.snapshot(head);
    while (snapshot != null && !stopAt.contains(snapshot.snapshotId()) && into.add(snapshot.snapshotId())) {
      snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
    }
  }

  /**
   * Expires snapshots that no ref reaches any more, deleting the files only they held. Nothing else is
   * expired: no age-based retention applies, so the table's own history stays as it is.
   *
   * <p>The expired snapshots' manifests are read and their files deleted one by one on threads of this
   * call, not on Iceberg's shared worker pool nor through the file IO's bulk delete (S3's runs on a pool
   * of its own): both pools are shut down by JVM shutdown hooks of their own, which run beside the
   * build's ({@code StopOnSignal}) on Ctrl-C or SIGTERM. A build discarded then would commit the expiry
   * and fail to delete a single file, leaving them where no snapshot names them (and its lease, removed
   * after this, on the table).
   *
   * @param table the table
   * @param snapshotIds the snapshots, none of them reachable from a ref
   */
  static void expire(Table table, Set<Long> snapshotIds) {
    table.refresh();
    Set<Long> present = new LinkedHashSet<>();
    for (long id : snapshotIds) {
      if (table.snapshot(id) != null) {
        present.add(id);
      }
    }
    if (present.isEmpty()) {
      return;
    }
    ExecutorService pool = Executors.newFixedThreadPool(CLEANUP_THREADS, runnable -> {
      Thread thread = new Thread(runnable, "transforms-expire-" + table.name());
      thread.setDaemon(true);
      return thread;
    });
    try {
      FileIO io = table.io();
      // Age-based retention off (everything is "newer" than 0): only the listed snapshots go.
      ExpireSnapshots expire = table.expireSnapshots().expireOlderThan(0L).cleanExpiredFiles(true)
          .planWith(pool).executeDeleteWith(pool).deleteWith(io::deleteFile);
      present.forEach(expire::expireSnapshotId);
      expire.commit();
    } finally {
      pool.shutdown();
    }
  }
}
