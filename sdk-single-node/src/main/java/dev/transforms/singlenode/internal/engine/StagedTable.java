package dev.transforms.singlenode.internal.engine;

import dev.transforms.singlenode.StagedOutputTable;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.BatchScan;
import org.apache.iceberg.DeleteFiles;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.HistoryEntry;
import org.apache.iceberg.IncrementalAppendScan;
import org.apache.iceberg.IncrementalChangelogScan;
import org.apache.iceberg.ManageSnapshots;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.ReplacePartitions;
import org.apache.iceberg.ReplaceSortOrder;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.RewriteManifests;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.UpdateLocation;
import org.apache.iceberg.UpdatePartitionSpec;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * An output table as a transform sees it while it runs: reads see the run's version, and every
 * snapshot-producing operation commits to the branch the run writes (the staging branch of an output
 * that existed, {@code main} of a new one that exists for this run only) with the run's summary
 * properties, so the runtime publishes all of the transform's writes at once, or none. Schema, partition
 * spec, sort order and property changes are staged the same way: the output takes them when the build
 * publishes, in the commit that publishes its rows. Moving the table, managing its snapshots and
 * branches, rewriting manifests and transactions are refused.
 */
final class StagedTable implements StagedOutputTable {

  private final Table table;
  private final String output;
  private final String branch;
  private final Map<String, String> properties;
  private final Runnable edited;

  StagedTable(Table table, String output, String branch, Map<String, String> properties, Runnable edited) {
    this.table = table;
    this.output = output;
    this.branch = branch;
    this.properties = properties;
    this.edited = edited;
  }

  @Override
  public void edited() {
    edited.run();
  }

  @Override public Table baseTable() { return table; }
  @Override public String stagingBranch() { return branch; }
  @Override public Map<String, String> snapshotProperties() { return properties; }

  private <T extends SnapshotUpdate<T>> T stage(T update) {
    properties.forEach(update::set);
    return dev.transforms.singlenode.internal.threads.CallerRunsExecutor.inCallerWhenSmall(update, table, branch)
        .toBranch(branch);
  }

  private UnsupportedOperationException refused(String what) {
    return new UnsupportedOperationException(what + " on " + output
        + " is not allowed during a transform: Iceberg applies it to the whole table at once, so readers would see"
        + " it before the build publishes. Data writes and schema, spec, sort order and property changes are"
        + " staged; do this outside the build");
  }

  private Snapshot head() {
    SnapshotRef ref = table.refs().get(branch);
    return ref == null ? table.currentSnapshot() : table.snapshot(ref.snapshotId());
  }

  @Override public String name() { return table.name(); }
  @Override public void refresh() { table.refresh(); }
  @Override public TableScan newScan() {
    Snapshot head = head();
    return head == null ? table.newScan() : table.newScan().useRef(branch);
  }
  @Override public BatchScan newBatchScan() {
    Snapshot head = head();
    return head == null ? table.newBatchScan() : table.newBatchScan().useRef(branch);
  }
  @Override public IncrementalAppendScan newIncrementalAppendScan() { return table.newIncrementalAppendScan(); }
  @Override public IncrementalChangelogScan newIncrementalChangelogScan() { return table.newIncrementalChangelogScan(); }
  @Override public Schema schema() { return table.schema(); }
  @Override public Map<Integer, Schema> schemas() { return table.schemas(); }
  @Override public PartitionSpec spec() { return table.spec(); }
  @Override public Map<Integer, PartitionSpec> specs() { return table.specs(); }
  @Override public SortOrder sortOrder() { return table.sortOrder(); }
  @Override public Map<Integer, SortOrder> sortOrders() { return table.sortOrders(); }
  @Override public Map<String, String> properties() { return table.properties(); }
  @Override public String location() { return table.location(); }
  /** The head of the staging branch: what this transform has written so far. */
  @Override public Snapshot currentSnapshot() { return head(); }
  @Override public Snapshot snapshot(long snapshotId) { return table.snapshot(snapshotId); }
  @Override public Iterable<Snapshot> snapshots() { return table.snapshots(); }
  @Override public List<HistoryEntry> history() { return table.history(); }
  @Override public UpdateSchema updateSchema() { return table.updateSchema(); }
  @Override public UpdatePartitionSpec updateSpec() { return table.updateSpec(); }
  @Override public UpdateProperties updateProperties() { return table.updateProperties(); }
  @Override public ReplaceSortOrder replaceSortOrder() { return table.replaceSortOrder(); }
  @Override public UpdateLocation updateLocation() { throw refused("A location change"); }
  @Override public AppendFiles newAppend() { return stage(table.newAppend()); }
  @Override public AppendFiles newFastAppend() { return stage(table.newFastAppend()); }
  @Override public RewriteFiles newRewrite() { return stage(table.newRewrite()); }
  @Override public RewriteManifests rewriteManifests() { throw refused("Rewriting manifests"); }
  @Override public OverwriteFiles newOverwrite() { return stage(table.newOverwrite()); }
  @Override public RowDelta newRowDelta() { return stage(table.newRowDelta()); }
  @Override public ReplacePartitions newReplacePartitions() { return stage(table.newReplacePartitions()); }
  @Override public DeleteFiles newDelete() { return stage(table.newDelete()); }
  @Override public ExpireSnapshots expireSnapshots() { throw refused("Expiring snapshots"); }
  @Override public ManageSnapshots manageSnapshots() { throw refused("Managing snapshots and branches"); }
  @Override public Transaction newTransaction() { throw refused("A transaction"); }
  @Override public FileIO io() { return table.io(); }
  @Override public EncryptionManager encryption() { return table.encryption(); }
  @Override public LocationProvider locationProvider() { return table.locationProvider(); }
  @Override public List<StatisticsFile> statisticsFiles() { return table.statisticsFiles(); }
  @Override public Map<String, SnapshotRef> refs() { return table.refs(); }
  @Override public String toString() { return table + "@" + branch; }
}
