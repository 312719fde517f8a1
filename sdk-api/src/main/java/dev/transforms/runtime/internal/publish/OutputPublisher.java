package dev.transforms.runtime.internal.publish;

import dev.transforms.api.PublishConflictException;
import dev.transforms.api.TransformsException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.OutputWrites;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.internal.engine.BoundOutput;
import dev.transforms.runtime.internal.engine.OutputStaging;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableCommit;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Makes a transform's writes all-or-nothing, whatever process dies where.
 *
 * <p>The protocol, per output table (each step is one catalog commit):
 * <ol>
 *   <li><b>Stage.</b> Before the method runs, every output that exists gets the run's staging branch,
 *       cut from {@code main}, and the build's {@link BuildLease lease}, in one commit. An output the
 *       run creates is created empty on {@code main} carrying the lease and a created-by mark, then gets
 *       its branch. Engines send every write of the run to the branch.
 *   <li><b>Publish.</b> When the method returns, every output is checked first (its {@code main} did
 *       not move, its branch is there, its schema, spec and properties are as they were); then each
 *       output's {@code main} is fast-forwarded to its branch in one commit that also removes the
 *       branch, the lease and the created-by mark and stores the build's
 *       {@link IncrementalState state} as table properties. No snapshot is added to carry the state.
 *   <li><b>Discard.</b> When the method throws, each output's branch and lease are removed, the
 *       snapshots only the branch reached are expired with their files, a changed schema, spec or
 *       property is put back, and a table the run created (and nobody published) is dropped.
 * </ol>
 * So a reader of {@code main} sees an output's previous state or the complete new one; the state is
 * written only by the publishing commit; and a build only ever removes what carries its own build id.
 * What a killed build leaves (branch, lease, unpublished table) is removed by the next build that
 * touches the output ({@link BuildRecovery}), which tells a dead build from a running one by its lease.
 *
 * <p>Iceberg has no commit across tables, so a transform with several outputs publishes them one
 * after the other, after checking all of them. If the process dies between two of them, the next build
 * finishes the publication from the branches left behind ({@link BuildRecovery}).
 */
public final class OutputPublisher implements OutputStaging {

  /** Prefix of the properties that record how an output's checks came out; owned by the publication. */
  public static final String CHECKS_PREFIX = "transforms.checks.";

  private static final ScheduledExecutorService RENEWALS = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread thread = new Thread(r, "transforms-lease-renewal");
    thread.setDaemon(true);
    return thread;
  });

  private final String transform;
  private final String buildId;
  private final String branch;
  private volatile BuildLease lease;
  private final Map<DatasetPath, Staged> staged = new LinkedHashMap<>();
  private final List<String> recovered = new java.util.concurrent.CopyOnWriteArrayList<>();
  private ScheduledFuture<?> renewal;

  private OutputPublisher(String transform, String buildId) {
    this.transform = transform;
    this.buildId = buildId;
    this.branch = StagingMarks.branch(buildId);
    this.lease = BuildLease.forThisProcess(buildId);
  }

  /**
   * Cuts the staging branch, with this build's lease, on each output that exists.
   *
   * @param transform the transform's name, for messages
   * @param buildId the build's id
   * @param outputs every output table of the transform, with its catalog and, if it exists, the table
   * @return the publisher that publishes or discards them
   */
  public static OutputPublisher stage(String transform, String buildId, List<Output> outputs) {
    OutputPublisher publisher = new OutputPublisher(transform, buildId);
    try {
      for (Output output : outputs) {
        Staged entry = new Staged(output);
        publisher.staged.put(output.path(), entry);
        if (output.existing() != null) {
          Table table = output.existing();
          table.refresh();
          Snapshot current = table.currentSnapshot();
          entry.base = current == null ? null : current.snapshotId();
          entry.shape = TableShape.of(table);
          TableCommits.commit(table, transaction -> {
            transaction.manageSnapshots().createBranch(publisher.branch).commit();
            transaction.updateProperties().set(StagingMarks.leaseKey(buildId), publisher.lease.encode()).commit();
          });
          entry.table = table;
          CrashPoints.reached("stage.branch");
        }
      }
    } catch (RuntimeException e) {
      publisher.discard();
      throw e;
    }
    publisher.renewal = RENEWALS.scheduleWithFixedDelay(publisher::renewLeases,
        BuildLease.DURATION.toMillis() / 3, BuildLease.DURATION.toMillis() / 3, TimeUnit.MILLISECONDS);
    return publisher;
  }

  @Override
  public String branch() {
    return branch;
  }

  @Override
  public Map<String, String> creationProperties() {
    return Map.of(StagingMarks.leaseKey(buildId), lease.encode(), StagingMarks.CREATED_BY, buildId);
  }

  @Override
  public Table createTable(BoundOutput output, org.apache.iceberg.Schema schema,
      org.apache.iceberg.PartitionSpec spec, Map<String, String> properties) {
    Staged entry = entry(output);
    Map<String, String> all = new LinkedHashMap<>(properties);
    all.putAll(creationProperties());
    try {
      entry.output.catalog().buildTable(entry.output.resolved().identifier(), schema)
          .withPartitionSpec(spec).withProperties(all).create();
    } catch (AlreadyExistsException e) {
      throw createdElsewhere(output, e);
    }
    return registerCreated(output);
  }

  @Override
  public synchronized Table registerCreated(BoundOutput output) {
    Staged entry = entry(output);
    if (entry.table != null) {
      return entry.table;
    }
    CrashPoints.reached("create.table");
    Table table;
    try {
      table = entry.output.catalog().loadTable(entry.output.resolved().identifier());
    } catch (NoSuchTableException e) {
      throw createdElsewhere(output, e);
    }
    if (!buildId.equals(table.properties().get(StagingMarks.CREATED_BY))) {
      throw createdElsewhere(output, null);
    }
    table.manageSnapshots().createBranch(branch).commit();
    CrashPoints.reached("create.branch");
    entry.uuid = table.uuid();
    entry.table = table;
    return table;
  }

  @Override
  public synchronized Optional<Table> table(BoundOutput output) {
    return Optional.ofNullable(entry(output).table);
  }

  /**
   * The snapshot each staged output's {@code main} had when the run started.
   *
   * @return by path; empty for outputs that were new or had no snapshot
   */
  public Map<DatasetPath, OptionalLong> publishedSnapshots() {
    Map<DatasetPath, OptionalLong> bases = new LinkedHashMap<>();
    staged.forEach((path, entry) -> bases.put(path, entry.base == null ? OptionalLong.empty()
        : OptionalLong.of(entry.base)));
    return bases;
  }

  @Override
  public void recovered(String note) {
    recovered.add(note);
  }

  /**
   * What the engines did during the run to put outputs in order after builds that died.
   *
   * @return one line per action
   */
  public List<String> recoveryNotes() {
    return List.copyOf(recovered);
  }

  @Override
  public PublishConflictException createdElsewhere(BoundOutput output, Throwable cause) {
    String creator = null;
    try {
      Table table = entry(output).output.catalog().loadTable(output.resolved().identifier());
      creator = table.properties().get(StagingMarks.CREATED_BY);
    } catch (RuntimeException e) {
      // The table's creator is only a detail of the message.
    }
    return new PublishConflictException("Cannot create output " + output.parameter().requirePath() + " ("
        + output.resolved() + ") of transform " + transform + ": another build" + (creator == null ? ""
        : " (" + creator + ")") + " created it while this one ran. This build published nothing and left the other "
        + "build's table alone; build again once it is done.", cause);
  }

  private Staged entry(BoundOutput output) {
    Staged entry = staged.get(output.parameter().requirePath());
    if (entry == null) {
      throw new IllegalArgumentException("Output " + output.parameter().requirePath() + " is not staged by transform "
          + transform);
    }
    return entry;
  }

  private void renewLeases() {
    if (!lease.dueForRenewal()) {
      return;
    }
    BuildLease renewed = lease.renewed();
    lease = renewed;
    for (Staged entry : stagedTables()) {
      try {
        entry.table.updateProperties().set(StagingMarks.leaseKey(buildId), renewed.encode()).commit();
      } catch (RuntimeException e) {
        // Renewal is retried at the next tick; a lapsed lease only lets others clean up after us.
      }
    }
  }

  private synchronized List<Staged> stagedTables() {
    return staged.values().stream().filter(s -> s.table != null).toList();
  }

  private void stopRenewals() {
    if (renewal != null) {
      renewal.cancel(false);
    }
  }

  /**
   * Publishes every output: checks them all, then fast-forwards each one's {@code main} to its staging
   * branch in a commit that removes the branch and the lease and stores the build's state.
   *
   * @param state the state the outputs must carry (the inputs this build consumed)
   * @param extra further properties each output records with its publication (how its checks came out),
   *     by path; keys under {@code transforms.checks.} that an output had and no longer gets are removed
   * @return what was written to each output
   * @throws PublishConflictException if another writer moved an output's {@code main} meanwhile;
   *     every staging branch is then removed and nothing is published
   * @throws TransformsException if the run changed an output's schema, spec or properties, or lost a
   *     staging branch; nothing is published
   */
  public List<OutputWrites> publish(IncrementalState state, Map<DatasetPath, Map<String, String>> extra) {
    stopRenewals();
    try {
      for (Staged entry : staged.values()) {
        check(entry);
      }
    } catch (RuntimeException e) {
      discard();
      throw e;
    }
    List<OutputWrites> writes = new ArrayList<>();
    List<DatasetPath> published = new ArrayList<>();
    Optional<RESTCatalog> together = oneRestCatalog();
    if (together.isPresent()) {
      try {
        publishTogether(together.get(), state, extra);
      } catch (ValidationException | IllegalArgumentException | CommitFailedException e) {
        discard();
        throw new PublishConflictException("Cannot publish transform " + transform + ": an output moved while the "
            + "transform ran (" + e.getMessage() + "); nothing was published. Build again to run on the new data.", e);
      }
      for (Staged entry : staged.values()) {
        if (entry.table != null) {
          entry.published = true;
          entry.table.refresh();
        }
      }
      CrashPoints.reached("publish.together");
    }
    for (Staged entry : staged.values()) {
      if (entry.published) {
        writes.add(summarize(entry));
        continue;
      }
      if (entry.table == null) {
        // A new output the transform never wrote: there is nothing to publish.
        writes.add(new OutputWrites(entry.output.path(), entry.output.resolved().toString(), 0, 0, 0, 0,
            OptionalLong.empty(), false));
        continue;
      }
      try {
        publishOne(entry, state, extra.getOrDefault(entry.output.path(), Map.of()));
      } catch (ValidationException | IllegalArgumentException | CommitFailedException e) {
        discard();
        throw new PublishConflictException("Cannot publish transform " + transform + ": output " + entry.output.path()
            + " (" + entry.output.resolved() + ") moved while the transform ran (" + e.getMessage() + "); "
            + (published.isEmpty() ? "nothing was published."
                : "outputs " + published + " were published, this one and those after it were not; the next build "
                    + "of the transform rebuilds them all in full.")
            + " Build again to run on the new data.", e);
      }
      published.add(entry.output.path());
      entry.published = true;
      CrashPoints.reached("publish.output");
      writes.add(summarize(entry));
    }
    return writes;
  }

  private void check(Staged entry) {
    if (entry.table == null) {
      return;
    }
    Table table = entry.table;
    table.refresh();
    if (entry.uuid != null && !entry.uuid.equals(table.uuid())) {
      throw new PublishConflictException("Cannot publish transform " + transform + ": output " + entry.output.path()
          + " was dropped and created again by someone else while the transform ran; nothing was published.");
    }
    Snapshot main = table.currentSnapshot();
    Long mainNow = main == null ? null : main.snapshotId();
    if (!Objects.equals(mainNow, entry.base)) {
      throw new PublishConflictException("Cannot publish transform " + transform + ": output "
          + entry.output.path() + " (" + entry.output.resolved() + ") moved from snapshot " + entry.base + " to "
          + mainNow + " while the transform ran; nothing was published. Build again to run on the new data.");
    }
    if (!table.refs().containsKey(branch)) {
      throw new TransformsException("Staging branch " + branch + " of output " + entry.output.path()
          + " disappeared while transform " + transform + " ran; nothing was published. Build again.");
    }
    if (entry.shape != null) {
      List<String> changes = entry.shape.differences(table, TableShape.of(table));
      if (!changes.isEmpty()) {
        throw new TransformsException("Transform " + transform + " changed output " + entry.output.path()
            + " (" + entry.output.resolved() + ") beyond its rows while it ran; Iceberg applies such changes to the "
            + "whole table at once, so they cannot wait for the publish. Nothing was published and the table was "
            + "put back. What changed:\n  - " + String.join("\n  - ", changes) + "\nChange the table's schema, "
            + "partitioning or properties outside the build (or on a new output, in its first build).");
      }
    }
  }

  private void publishOne(Staged entry, IncrementalState state, Map<String, String> extra) {
    Table table = entry.table;
    TableCommits.commit(table, transaction -> {
      Snapshot main = table.currentSnapshot();
      if (!Objects.equals(main == null ? null : main.snapshotId(), entry.base)) {
        throw new ValidationException("main moved from snapshot %s to %s", entry.base,
            main == null ? null : main.snapshotId());
      }
      Snapshot head = table.snapshot(table.refs().get(branch).snapshotId());
      transaction.manageSnapshots().fastForwardBranch(SnapshotRef.MAIN_BRANCH, branch).removeBranch(branch).commit();
      UpdateProperties properties = transaction.updateProperties();
      Map<String, String> next = stateProperties(state, head);
      next.putAll(extra);
      staleStateKeys(table.properties(), next).forEach(properties::remove);
      next.forEach(properties::set);
      properties.remove(StagingMarks.leaseKey(buildId));
      if (table.properties().containsKey(StagingMarks.CREATED_BY)) {
        properties.remove(StagingMarks.CREATED_BY);
      }
      properties.commit();
    });
  }

  /**
   * Adds to a property update what stores a build's state on an output whose {@code main} becomes
   * {@code head}: the state's keys, the output's snapshot, and the removal of stale state keys.
   *
   * @param table the output, as loaded before the update
   * @param update the update to add to
   * @param state the build's state
   * @param head the snapshot {@code main} points to once the update commits, or null
   */
  static void storeState(Table table, UpdateProperties update, IncrementalState state, Snapshot head) {
    Map<String, String> next = stateProperties(state, head);
    staleStateKeys(table.properties(), next).forEach(update::remove);
    next.forEach(update::set);
  }

  private static Map<String, String> stateProperties(IncrementalState state, Snapshot head) {
    Map<String, String> next = new LinkedHashMap<>(state.toProperties());
    next.put(IncrementalState.SNAPSHOT_ID, head == null ? IncrementalState.NO_SNAPSHOT : Long.toString(head.snapshotId()));
    next.put(IncrementalState.SEQUENCE_NUMBER, head == null ? "0" : Long.toString(head.sequenceNumber()));
    return next;
  }

  private static Set<String> staleStateKeys(Map<String, String> current, Map<String, String> next) {
    Set<String> stale = new java.util.LinkedHashSet<>();
    for (String key : current.keySet()) {
      boolean owned = key.startsWith(IncrementalState.PREFIX) || key.startsWith(CHECKS_PREFIX);
      if (owned && !next.containsKey(key)) {
        stale.add(key);
      }
    }
    return stale;
  }

  /**
   * The REST catalog every output of this run lives in, when there are several: its multi-table
   * commit publishes them all at once.
   */
  private Optional<RESTCatalog> oneRestCatalog() {
    List<Staged> tables = stagedTables();
    if (tables.size() < 2) {
      return Optional.empty();
    }
    Catalog first = tables.get(0).output.catalog();
    boolean same = tables.stream().allMatch(t -> t.output.catalog() == first);
    return same && first instanceof RESTCatalog rest ? Optional.of(rest) : Optional.empty();
  }

  /**
   * Publishes every output in one multi-table commit of a REST catalog: each output's fast-forward,
   * branch and lease removal and state, applied all together or not at all. Each table's commit
   * requires its {@code main} to be where the run found it.
   */
  private void publishTogether(RESTCatalog catalog, IncrementalState state,
      Map<DatasetPath, Map<String, String>> extra) {
    List<TableCommit> commits = new ArrayList<>();
    for (Staged entry : stagedTables()) {
      TableOperations ops = ((HasTableOperations) entry.table).operations();
      TableMetadata base = ops.refresh();
      Snapshot main = base.currentSnapshot();
      if (!Objects.equals(main == null ? null : main.snapshotId(), entry.base)) {
        throw new ValidationException("output %s moved from snapshot %s", entry.output.path(), entry.base);
      }
      SnapshotRef ref = base.ref(branch);
      if (ref == null) {
        throw new ValidationException("staging branch %s of output %s disappeared", branch, entry.output.path());
      }
      Map<String, String> next = stateProperties(state, base.snapshot(ref.snapshotId()));
      next.putAll(extra.getOrDefault(entry.output.path(), Map.of()));
      Set<String> removed = staleStateKeys(base.properties(), next);
      removed.add(StagingMarks.leaseKey(buildId));
      if (base.properties().containsKey(StagingMarks.CREATED_BY)) {
        removed.add(StagingMarks.CREATED_BY);
      }
      removed.retainAll(base.properties().keySet());
      TableMetadata.Builder updated = TableMetadata.buildFrom(base)
          .setBranchSnapshot(ref.snapshotId(), SnapshotRef.MAIN_BRANCH)
          .removeRef(branch)
          .setProperties(next);
      if (!removed.isEmpty()) {
        updated.removeProperties(removed);
      }
      commits.add(TableCommit.create(entry.output.resolved().identifier(), base, updated.build()));
    }
    catalog.commitTransaction(commits);
  }

  private OutputWrites summarize(Staged entry) {
    Table table = entry.table;
    long added = 0;
    long deleted = 0;
    long files = 0;
    int count = 0;
    Snapshot snapshot = table.currentSnapshot();
    while (snapshot != null && (entry.base == null || snapshot.snapshotId() != entry.base)) {
      Map<String, String> summary = snapshot.summary();
      added += number(summary, "added-records");
      deleted += number(summary, "deleted-records");
      files += number(summary, "added-data-files");
      // The empty snapshot a new table's branch starts from is bookkeeping, not a write.
      if (!(entry.uuid != null && snapshot.parentId() == null && number(summary, "added-data-files") == 0
          && number(summary, "added-delete-files") == 0)) {
        count++;
      }
      snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
    }
    Snapshot current = table.currentSnapshot();
    return new OutputWrites(entry.output.path(), entry.output.resolved().toString(), added, deleted, files, count,
        current == null ? OptionalLong.empty() : OptionalLong.of(current.snapshotId()), entry.uuid != null);
  }

  private static long number(Map<String, String> summary, String key) {
    String value = summary == null ? null : summary.get(key);
    return value == null ? 0 : Long.parseLong(value);
  }

  /**
   * Throws away everything the transform wrote to outputs not yet published: removes their staging
   * branches and leases, expires the snapshots only those branches reached (deleting their files),
   * puts back a changed schema, spec or property, and drops the tables this build created. Safe to
   * call more than once; keeps going when one output fails.
   */
  public void discard() {
    stopRenewals();
    for (Staged entry : staged.values()) {
      if (entry.published) {
        continue;
      }
      try {
        discardOne(entry);
      } catch (RuntimeException e) {
        // Keep discarding the other outputs; what is left carries this build's dead lease and is
        // removed by the next build that touches the output.
      }
    }
  }

  private void discardOne(Staged entry) {
    Catalog catalog = entry.output.catalog();
    ResolvedTable resolved = entry.output.resolved();
    Table table = entry.table;
    if (table == null) {
      // The engine may have created the table without registering it (it died in between).
      try {
        table = catalog.loadTable(resolved.identifier());
      } catch (NoSuchTableException e) {
        return;
      }
      if (entry.output.existing() == null && !buildId.equals(table.properties().get(StagingMarks.CREATED_BY))) {
        return;
      }
    }
    table.refresh();
    if (entry.output.existing() == null && buildId.equals(table.properties().get(StagingMarks.CREATED_BY))
        && table.currentSnapshot() == null) {
      catalog.dropTable(resolved.identifier(), true);
      CrashPoints.reached("discard.drop");
      return;
    }
    removeMarks(table, buildId, "discard");
    if (entry.shape != null) {
      entry.shape.restore(table);
    }
  }

  /**
   * Removes a build's marks from a table: first its staging branches, then the snapshots only they
   * reached (and any snapshot of the build no ref reaches any more), then its lease and created-by
   * mark. The lease goes last, so a process that dies half-way leaves a mark for the next build to
   * finish the job.
   *
   * @param table the table
   * @param buildId the build
   * @param points the crash points' prefix, {@code discard} or {@code recover}
   * @return how many snapshots were expired
   */
  static int removeMarks(Table table, String buildId, String points) {
    table.refresh();
    Set<String> branches = StagingMarks.branchesOf(table, buildId);
    Set<Long> expired = new java.util.LinkedHashSet<>(BranchSnapshots.onlyOn(table, branches));
    if (!branches.isEmpty()) {
      TableCommits.commit(table, transaction -> {
        Set<String> present = StagingMarks.branchesOf(table, buildId);
        if (!present.isEmpty()) {
          org.apache.iceberg.ManageSnapshots refs = transaction.manageSnapshots();
          present.forEach(refs::removeBranch);
          refs.commit();
        }
      });
      CrashPoints.reached(points + ".branch");
    }
    expired.addAll(BranchSnapshots.unreachableOf(table, buildId));
    BranchSnapshots.expire(table, expired);
    if (!expired.isEmpty()) {
      CrashPoints.reached(points + ".expired");
    }
    table.refresh();
    if (table.properties().containsKey(StagingMarks.leaseKey(buildId))
        || buildId.equals(table.properties().get(StagingMarks.CREATED_BY))) {
      TableCommits.commit(table, transaction -> {
        UpdateProperties properties = transaction.updateProperties();
        properties.remove(StagingMarks.leaseKey(buildId));
        if (buildId.equals(table.properties().get(StagingMarks.CREATED_BY))) {
          properties.remove(StagingMarks.CREATED_BY);
        }
        properties.commit();
      });
    }
    return expired.size();
  }

  /**
   * One output table to stage.
   *
   * @param path the output's dataset path
   * @param resolved the catalog table
   * @param catalog the catalog holding it
   * @param existing the table as loaded before the run, or {@code null} if it does not exist yet
   */
  public record Output(DatasetPath path, ResolvedTable resolved, Catalog catalog, Table existing) {}

  /** An output as this run stages it. */
  private static final class Staged {
    final Output output;
    /** The table written: the existing one, or the one this run created; null until then. */
    Table table;
    /** {@code main}'s snapshot when staged; null for an empty or a new table. */
    Long base;
    /** The table-level metadata before the run, for an existing output. */
    TableShape shape;
    /** The id of the table this run created. */
    java.util.UUID uuid;
    boolean published;

    Staged(Output output) {
      this.output = output;
    }
  }
}
