package dev.transforms.spark.maintenance;

import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.maintenance.CompactionResult;
import dev.transforms.runtime.maintenance.MaintenanceEngine;
import dev.transforms.spark.SparkSessions;
import java.util.OptionalLong;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.actions.RewriteDataFiles;
import org.apache.iceberg.actions.RewriteManifests;
import org.apache.iceberg.spark.actions.SparkActions;
import org.apache.spark.sql.SparkSession;

/**
 * Maintenance with Spark: compaction and manifest rewrites run as Iceberg's Spark actions
 * ({@code rewrite_data_files}, {@code rewrite_manifests}) in the active session, or in a session it
 * starts from the configuration and stops when closed.
 *
 * <p>Compaction picks files the way the single-node engine does: small files (under 75% of the target
 * size) of a partition when there are at least two, and every file with a delete; it sorts by the
 * table's sort order when the table has one, and drops delete files left dangling.
 */
public final class SparkMaintenanceEngine implements MaintenanceEngine {
  private SparkSession session;
  private boolean started;

  /** Creates the engine; found with {@link java.util.ServiceLoader}. */
  public SparkMaintenanceEngine() {}

  /**
   * Creates the engine on a given session, which it never stops.
   *
   * @param session the session to run the actions in
   */
  public SparkMaintenanceEngine(SparkSession session) {
    this.session = session;
  }

  @Override
  public String name() {
    return SPARK;
  }

  @Override
  public void start(TransformsConfig config) {
    if (session != null) {
      return;
    }
    session = SparkSession.getActiveSession().getOrElse(() -> SparkSession.getDefaultSession().getOrElse(() -> null));
    if (session == null) {
      session = SparkSessions.builder(config).getOrCreate();
      started = true;
    }
  }

  private SparkSession session() {
    if (session == null) {
      throw new IllegalStateException("The Spark maintenance engine has no session: call start(config) first");
    }
    return session;
  }

  @Override
  public CompactionResult compact(Table table) {
    table.refresh();
    if (table.currentSnapshot() == null) {
      return CompactionResult.NOTHING;
    }
    long before = table.currentSnapshot().snapshotId();
    RewriteDataFiles action = SparkActions.get(session()).rewriteDataFiles(table)
        .option("min-input-files", "2")
        .option("delete-file-threshold", "1")
        .option("remove-dangling-deletes", "true");
    if (table.sortOrder().isSorted()) {
      action = action.sort();
    } else {
      action = action.binPack();
    }
    RewriteDataFiles.Result result = action.execute();
    table.refresh();
    Snapshot after = table.currentSnapshot();
    if (result.rewrittenDataFilesCount() == 0 || after.snapshotId() == before) {
      return CompactionResult.NOTHING;
    }
    long rows = 0;
    for (Snapshot snapshot = after; snapshot != null && snapshot.snapshotId() != before;
        snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId())) {
      if ("replace".equals(snapshot.operation())) {
        rows += Long.parseLong(snapshot.summary().getOrDefault("added-records", "0"));
      }
    }
    return new CompactionResult(result.rewrittenDataFilesCount(), result.addedDataFilesCount(),
        result.removedDeleteFilesCount(), rows, OptionalLong.of(after.snapshotId()));
  }

  @Override
  public int rewriteManifests(Table table) {
    table.refresh();
    if (table.currentSnapshot() == null) {
      return 0;
    }
    RewriteManifests.Result result = SparkActions.get(session()).rewriteManifests(table).execute();
    int count = 0;
    for (Object ignored : result.rewrittenManifests()) {
      count++;
    }
    return count;
  }

  @Override
  public void close() {
    if (started && session != null) {
      session.stop();
    }
    session = null;
    started = false;
  }
}
