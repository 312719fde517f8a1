package dev.transforms.singlenode.internal.threads;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An executor that runs each task in the calling thread.
 *
 * <p>Iceberg waits for work handed to its thread pools by polling with 10 ms sleeps (planning,
 * loading delete files, filtering and writing manifests at commit). On a small table that polling
 * costs more than the work: an edit of a few files spent most of its time asleep. For small inputs
 * row edits and the reader of live rows pass this executor instead, so the work runs at once in the
 * caller and every future is done when Iceberg first checks it. Large inputs keep Iceberg's shared
 * pools.
 */
public final class CallerRunsExecutor extends AbstractExecutorService {
  /** The one instance. */
  public static final CallerRunsExecutor INSTANCE = new CallerRunsExecutor();

  /** Up to this many manifests are planned and committed in the calling thread. */
  public static final int MAX_MANIFESTS_IN_CALLER = 64;

  private CallerRunsExecutor() {}

  /**
   * Whether a snapshot has few enough manifests for its planning and commits to run in the caller.
   *
   * @param snapshot the snapshot; null for a table or branch with none
   * @param io the table's file IO, to read the manifest list
   * @return true when there is no snapshot or at most {@link #MAX_MANIFESTS_IN_CALLER} manifests
   */
  public static boolean fewManifests(org.apache.iceberg.Snapshot snapshot, org.apache.iceberg.io.FileIO io) {
    return snapshot == null || snapshot.allManifests(io).size() <= MAX_MANIFESTS_IN_CALLER;
  }

  /**
   * Has a scan of a snapshot with few manifests read them in the calling thread (a scan of more than
   * one manifest otherwise waits at least one 10 ms poll of Iceberg's pool).
   *
   * @param scan the scan, with its snapshot chosen
   */
  public static org.apache.iceberg.TableScan planInCallerWhenSmall(org.apache.iceberg.TableScan scan) {
    return fewManifests(scan.snapshot(), scan.table().io()) ? scan.planWith(INSTANCE) : scan;
  }

  /**
   * Has a commit on a branch of a table with few manifests filter, merge and write its manifests in
   * the calling thread (each of those steps otherwise waits at least one 10 ms poll of Iceberg's pool:
   * 30-40 ms of a 50-row {@code writeTable}). A table with many manifests keeps Iceberg's pools.
   *
   * @param branch the branch committed to; null for main (whose head counts while the branch does not exist)
   */
  public static <T extends org.apache.iceberg.SnapshotUpdate<?>> T inCallerWhenSmall(T update,
      org.apache.iceberg.Table table, String branch) {
    org.apache.iceberg.Snapshot head = branch != null && table.refs().containsKey(branch) ? table.snapshot(branch)
        : table.currentSnapshot();
    if (fewManifests(head, table.io())) {
      update.scanManifestsWith(INSTANCE);
      update.writeManifestsWith(INSTANCE, 1);
    }
    return update;
  }

  @Override
  public void execute(Runnable command) {
    command.run();
  }

  @Override
  public void shutdown() {
    throw new UnsupportedOperationException(
        "The caller-runs executor is shared; do not shut it down");
  }

  @Override
  public List<Runnable> shutdownNow() {
    throw new UnsupportedOperationException(
        "The caller-runs executor is shared; do not shut it down");
  }

  @Override
  public boolean isShutdown() {
    return false;
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return false;
  }
}
