package dev.transforms.runtime.internal.publish;

import dev.transforms.api.PublishConflictException;
import dev.transforms.api.TransformsException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.spi.BoundOutput;
import dev.transforms.runtime.spi.CrashPoints;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.AlreadyExistsException;

/**
 * The first step of the publish protocol: a transform's outputs as one build stages them. Each output
 * that exists gets the build's staging branch, cut from {@code main} (or from the branch a branch build
 * publishes, once it exists on the output), and its {@link BuildLease lease},
 * in one commit; a new output is created in this process only ({@link StagedCreateOperations}), its files
 * beside a lease file. While the run lasts, the leases are renewed in the background, so that other
 * builds do not take the run's marks for a dead build's.
 */
final class Staging {

  private static final ScheduledExecutorService RENEWALS = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread thread = new Thread(r, "transforms-lease-renewal");
    thread.setDaemon(true);
    return thread;
  });

  final String transform;
  final String buildId;
  final String branch;
  /** The branch the build publishes: {@code main}, or the one a branch build names. */
  final BuildBranch target;
  private volatile BuildLease lease;
  private final Map<DatasetPath, RunOutput> staged = new LinkedHashMap<>();
  private final List<String> recovered = new CopyOnWriteArrayList<>();
  private ScheduledFuture<?> renewal;

  Staging(String transform, String buildId, BuildBranch target) {
    this.transform = transform;
    this.buildId = buildId;
    this.target = target;
    this.branch = StagingMarks.branch(buildId);
    this.lease = BuildLease.forThisProcess(buildId);
  }

  /** Cuts the staging branch, with the lease, on an output if it exists; remembers it either way. */
  void stage(OutputPublisher.Output output) {
    RunOutput entry = new RunOutput(output);
    staged.put(output.path(), entry);
    if (output.existing() == null) {
      if (!target.isMain()) {
        throw new TransformsException("Output " + entry.describe() + " of transform " + transform + " does not exist "
            + "on main, and a build of branch " + target.name() + " cannot create it: an Iceberg table belongs to its "
            + "catalog, not to a branch, so readers of main would see the new table. Build " + transform + " on main "
            + "first (its first build may write no rows), then on the branch. Nothing was written.");
      }
      return;
    }
    Table table = output.existing();
    table.refresh();
    Snapshot current = target.head(((HasTableOperations) table).operations().current());
    entry.base = current == null ? null : current.snapshotId();
    entry.baseSchema = table.schema();
    entry.baseSpec = table.spec();
    entry.shape = TableShape.of(table);
    table.snapshots().forEach(snapshot -> entry.snapshotsAtStage.add(snapshot.snapshotId()));
    TableCommits.commit(table, transaction -> {
      if (current == null) {
        transaction.manageSnapshots().createBranch(branch).commit();
      } else {
        transaction.manageSnapshots().createBranch(branch, current.snapshotId()).commit();
      }
      transaction.updateProperties().set(StagingMarks.leaseKey(buildId), lease.encode()).commit();
    });
    entry.table = table;
    entry.operations = new StagedShapeOperations(((HasTableOperations) table).operations(), buildId, branch,
        entry.describe());
    entry.stagedTable = new BaseTable(entry.operations, table.name());
    CrashPoints.reached("stage.branch");
  }

  /** Starts renewing the leases, every third of their duration, until {@link #stopRenewals()}. */
  void startRenewals() {
    renewal = RENEWALS.scheduleWithFixedDelay(this::renewLeases, BuildLease.DURATION.toMillis() / 3,
        BuildLease.DURATION.toMillis() / 3, TimeUnit.MILLISECONDS);
  }

  void stopRenewals() {
    if (renewal != null) {
      renewal.cancel(false);
    }
  }

  private void renewLeases() {
    if (!lease.dueForRenewal()) {
      return;
    }
    BuildLease renewed = lease.renewed();
    lease = renewed;
    for (RunOutput entry : stagedEntries()) {
      try {
        if (entry.created != null) {
          StagedCreateFiles.writeLease(entry.created.io(), entry.created.current().location(), renewed);
        } else {
          entry.table.updateProperties().set(StagingMarks.leaseKey(buildId), renewed.encode()).commit();
        }
      } catch (RuntimeException e) {
        // Renewal is retried at the next tick; a lapsed lease only lets others clean up after us.
      }
    }
  }

  private synchronized List<RunOutput> stagedEntries() {
    return staged.values().stream().filter(s -> s.stagedTable != null).toList();
  }

  /** The branch an engine writes an output on: the staging branch, or {@code main} of a new output. */
  String branch(BoundOutput output) {
    return entry(output).output.existing() == null ? SnapshotRef.MAIN_BRANCH : branch;
  }

  /** Creates a new output in this process, under its location beside this build's lease file. */
  synchronized Table createTable(BoundOutput output, Schema schema, PartitionSpec spec,
      Map<String, String> properties) {
    RunOutput entry = entry(output);
    if (entry.stagedTable != null) {
      throw new IllegalStateException("Output " + entry.describe() + " exists already in this run; write to it");
    }
    ResolvedTable resolved = entry.output.resolved();
    StagedCreateOperations created;
    try {
      created = StagedCreateOperations.start(entry.output.catalog(), resolved.identifier(), schema, spec, properties,
          buildId, entry.describe());
    } catch (AlreadyExistsException e) {
      // A racing build published the output after this run found none: its table, not ours.
      throw createdElsewhere(entry, e);
    }
    String location = created.current().location();
    // Before the lease is written (the first file under the location): the folders that writing creates.
    entry.createdFolders = StagedCreateFiles.missingParents(location);
    for (String note : StagedCreateFiles.removeDead(created.io(), location, buildId,
        () -> entry.output.catalog().tableExists(resolved.identifier()))) {
      recovered.add(note + " (output " + entry.output.path() + ")");
    }
    StagedCreateFiles.writeLease(created.io(), location, lease);
    CrashPoints.reached("create.staged");
    entry.created = created;
    entry.stagedTable = new BaseTable(created, entry.output.catalog().name() + "." + resolved.identifier());
    return entry.stagedTable;
  }

  synchronized Optional<Table> table(BoundOutput output) {
    return Optional.ofNullable(entry(output).stagedTable);
  }

  synchronized void edited(BoundOutput output) {
    entry(output).edited = true;
  }

  synchronized Table reshape(BoundOutput output, Schema schema, int lastColumnId, Optional<PartitionSpec> spec) {
    return Reshape.apply(entry(output), schema, lastColumnId, spec);
  }

  /** Every output of the transform, in the order given. */
  Collection<RunOutput> entries() {
    return staged.values();
  }

  void recovered(String note) {
    recovered.add(note);
  }

  List<String> recoveryNotes() {
    return List.copyOf(recovered);
  }

  PublishConflictException createdElsewhere(RunOutput entry, Throwable cause) {
    return new PublishConflictException("Cannot create output " + entry.describe() + " of transform " + transform
        + ": another build created it while this one ran. This build published nothing and left the other build's "
        + "table alone; " + (PublishChecks.isLoad(transform) ? "load" : "build") + " again once it is done.",
        cause);
  }

  private RunOutput entry(BoundOutput output) {
    RunOutput entry = staged.get(output.parameter().requirePath());
    if (entry == null) {
      throw new IllegalArgumentException("Output " + output.parameter().requirePath() + " is not staged by transform "
          + transform);
    }
    return entry;
  }
}
