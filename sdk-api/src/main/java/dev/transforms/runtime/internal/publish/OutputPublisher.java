package dev.transforms.runtime.internal.publish;

import dev.transforms.api.PublishConflictException;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.api.SchemaMismatchException;
import dev.transforms.api.TransformsException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.OutputWrites;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.internal.commit.CommitRetry;
import dev.transforms.runtime.internal.commit.CommittedFiles;
import dev.transforms.runtime.internal.engine.BoundOutput;
import dev.transforms.runtime.internal.engine.OutputStaging;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import dev.transforms.runtime.internal.schema.SchemaDiff;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableCommit;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Makes a transform's writes all-or-nothing, whatever process dies where: its outputs' rows and their
 * shape (schema, partition spec, sort order, properties), and the very existence of a new output.
 *
 * <p>The protocol, per output table (each step is one catalog commit):
 * <ol>
 *   <li><b>Stage.</b> Before the method runs, every output that exists gets the run's staging branch,
 *       cut from {@code main}, and the build's {@link BuildLease lease}, in one commit. Engines write
 *       through the staged table ({@link StagedShapeOperations}): rows land on the branch; a new
 *       schema, spec or sort order is added to the table unused, and made current for this build only
 *       by its shape mark ({@link StagedShape}). An output the run creates does not reach the catalog
 *       at all: it lives in this process ({@link StagedCreateOperations}), its files under the table's
 *       location beside a lease file ({@link StagedCreateFiles}).
 *   <li><b>Publish.</b> When the method returns, every output is checked first (its {@code main} did
 *       not move, its branch is there, nobody else changed its shape, an incremental build's schema
 *       change is one its policy allows); then a new output is created in one commit, with its schema,
 *       spec, properties, rows and the build's state; and each existing output's {@code main} is
 *       fast-forwarded to its branch in one commit that also makes the staged shape the table's,
 *       removes the branch, the lease and the shape mark, and stores the build's
 *       {@link IncrementalState state} as table properties. No snapshot is added to carry the state.
 *   <li><b>Discard.</b> When the method throws, each output's branch, lease and shape mark are removed
 *       with the snapshots only the branch reached (their files deleted) and the schemas only the build
 *       used; a new output's files are deleted. Nothing of the run is left.
 * </ol>
 * So a reader of {@code main} sees an output's previous state (or no table) or the complete new one;
 * the state is written only by the publishing commit; and a build only ever removes what carries its
 * own build id. What a killed build leaves is removed by the next build that touches the output
 * ({@link BuildRecovery}, and {@link StagedCreateFiles} for a table that never appeared), which tells a
 * dead build from a running one by its lease.
 *
 * <p>Iceberg has no commit across tables, so a transform with several outputs publishes new outputs
 * first, then the others one after the other (or together, in one multi-table commit, when they share a
 * REST catalog), after checking all of them. If the process dies between two of them, the next build
 * finishes the publication from the branches left behind ({@link BuildRecovery}).
 */
public final class OutputPublisher implements OutputStaging {

  /** Prefix of the properties that record how an output's checks came out; owned by the publication. */
  public static final String CHECKS_PREFIX = "transforms.checks.";

  private static final int ATTEMPTS = 20;

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
          entry.baseSchema = table.schema();
          entry.baseSpec = table.spec();
          entry.shape = TableShape.of(table);
          TableCommits.commit(table, transaction -> {
            transaction.manageSnapshots().createBranch(publisher.branch).commit();
            transaction.updateProperties().set(StagingMarks.leaseKey(buildId), publisher.lease.encode()).commit();
          });
          entry.table = table;
          entry.operations = new StagedShapeOperations(((HasTableOperations) table).operations(), buildId,
              publisher.branch, publisher.describe(entry));
          entry.stagedTable = new BaseTable(entry.operations, table.name());
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
  public String branch(BoundOutput output) {
    Staged entry = entry(output);
    return entry.output.existing() == null ? SnapshotRef.MAIN_BRANCH : branch;
  }

  @Override
  public synchronized Table createTable(BoundOutput output, Schema schema, PartitionSpec spec,
      Map<String, String> properties) {
    Staged entry = entry(output);
    if (entry.stagedTable != null) {
      throw new IllegalStateException("Output " + describe(entry) + " exists already in this run; write to it");
    }
    ResolvedTable resolved = entry.output.resolved();
    StagedCreateOperations created;
    try {
      created = StagedCreateOperations.start(entry.output.catalog(), resolved.identifier(), schema, spec, properties,
          buildId, describe(entry));
    } catch (org.apache.iceberg.exceptions.AlreadyExistsException e) {
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

  @Override
  public synchronized Optional<Table> table(BoundOutput output) {
    return Optional.ofNullable(entry(output).stagedTable);
  }

  @Override
  public synchronized Table reshape(BoundOutput output, Schema schema, int lastColumnId,
      Optional<PartitionSpec> spec) {
    Staged entry = entry(output);
    if (entry.stagedTable == null) {
      throw new IllegalStateException("Output " + describe(entry) + " has no table in this run yet; create it");
    }
    TableOperations operations = ((HasTableOperations) entry.stagedTable).operations();
    CommitRetry.onConflict(ATTEMPTS).run(() -> {
      TableMetadata base = operations.refresh();
      // Columns new to the table take ids above any the table used, even if another build added some since.
      int shift = Math.max(0, base.lastColumnId() - lastColumnId);
      java.util.function.IntUnaryOperator ids = id -> id > lastColumnId ? id + shift : id;
      Schema fitted = shift == 0 ? schema : new Schema(
          ((org.apache.iceberg.types.Types.StructType) org.apache.iceberg.types.TypeUtil.assignIds(schema.asStruct(),
              ids::applyAsInt)).fields(),
          schema.identifierFieldIds().stream().map(ids::applyAsInt).collect(java.util.stream.Collectors.toSet()));
      TableMetadata.Builder builder = TableMetadata.buildFrom(base);
      if (!fitted.sameSchema(base.schema()) || !fitted.identifierFieldIds().equals(base.schema().identifierFieldIds())) {
        builder.setCurrentSchema(fitted, Math.max(lastColumnId + shift, base.lastColumnId()));
      }
      if (spec.isPresent()) {
        PartitionSpec aligned = aligned(spec.get(), base, fitted, ids);
        if (!aligned.compatibleWith(base.spec())) {
          builder.setDefaultPartitionSpec(aligned);
        }
      }
      if (!base.sortOrder().isUnsorted()
          && base.sortOrder().fields().stream().anyMatch(f -> fitted.findField(f.sourceId()) == null)) {
        builder.setDefaultSortOrder(SortOrder.unsorted());
      }
      TableMetadata updated = builder.build();
      if (updated != base) {
        operations.commit(base, updated);
        if (entry.created == null) {
          CrashPoints.reached("stage.shape");
        }
      }
    });
    entry.stagedTable.refresh();
    return entry.stagedTable;
  }

  /**
   * A partition spec for the new schema whose field ids follow the table's: a field the table had in
   * some spec (same source column, same transform) keeps its id, a new one gets the next.
   */
  private static PartitionSpec aligned(PartitionSpec wanted, TableMetadata base, Schema schema,
      java.util.function.IntUnaryOperator ids) {
    StringBuilder json = new StringBuilder("{\"spec-id\":0,\"fields\":[");
    int last = base.lastAssignedPartitionId();
    for (PartitionField field : wanted.fields()) {
      int source = ids.applyAsInt(field.sourceId());
      Integer id = null;
      for (PartitionSpec spec : base.specs()) {
        for (PartitionField known : spec.fields()) {
          if (known.sourceId() == source && known.transform().equals(field.transform())) {
            id = known.fieldId();
          }
        }
      }
      json.append(json.charAt(json.length() - 1) == '[' ? "" : ",").append("{\"name\":").append(quoted(field.name()))
          .append(",\"transform\":").append(quoted(field.transform().toString()))
          .append(",\"source-id\":").append(source)
          .append(",\"field-id\":").append(id != null ? id : ++last).append('}');
    }
    return PartitionSpecParser.fromJson(schema, json.append("]}").toString());
  }

  private static String quoted(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
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

  /** The identity of the table an output's identifier now names in its catalog, if there is one. */
  private static Optional<String> uuidInCatalog(Staged entry) {
    try {
      return Optional.of(entry.output.catalog().loadTable(entry.output.resolved().identifier()).uuid().toString());
    } catch (NoSuchTableException e) {
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.empty(); // the catalog cannot answer: treat the attempt as failed, as it reported
    }
  }

  private PublishConflictException createdElsewhere(Staged entry, Throwable cause) {
    return new PublishConflictException("Cannot create output " + describe(entry) + " of transform " + transform
        + ": another build created it while this one ran. This build published nothing and left the other build's "
        + "table alone; build again once it is done.", cause);
  }

  private String describe(Staged entry) {
    return entry.output.path() + " (" + entry.output.resolved() + ")";
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
    for (Staged entry : stagedEntries()) {
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

  private synchronized List<Staged> stagedEntries() {
    return staged.values().stream().filter(s -> s.stagedTable != null).toList();
  }

  private void stopRenewals() {
    if (renewal != null) {
      renewal.cancel(false);
    }
  }

  /**
   * Publishes every output of a full build; see {@link #publish(IncrementalState, Map, Map)}.
   *
   * @param state the state the outputs must carry
   * @param extra further properties each output records with its publication, by path
   * @return what was written to each output
   */
  public List<OutputWrites> publish(IncrementalState state, Map<DatasetPath, Map<String, String>> extra) {
    return publish(state, extra, Map.of());
  }

  /**
   * Publishes every output: checks them all, then creates each new output with everything the run
   * wrote to it, and fast-forwards each existing one's {@code main} to its staging branch in a commit
   * that applies the run's schema, spec and property changes, removes the branch and the marks, and
   * stores the build's state.
   *
   * @param state the state the outputs must carry (the inputs this build consumed)
   * @param extra further properties each output records with its publication (how its checks came out),
   *     by path; keys under {@code transforms.checks.} that an output had and no longer gets are removed
   * @param incremental for an incremental build, the schema-change policy of each output; a schema
   *     change the policy does not allow fails the publication. Empty for a full build
   * @return what was written to each output
   * @throws PublishConflictException if another writer moved an output's {@code main}, changed its
   *     shape or created a new output meanwhile; nothing is published and every staged write is removed
   * @throws SchemaMismatchException if an incremental build changed a schema beyond its policy
   * @throws TransformsException if the run lost a staging branch; nothing is published
   */
  public List<OutputWrites> publish(IncrementalState state, Map<DatasetPath, Map<String, String>> extra,
      Map<DatasetPath, SchemaChangePolicy> incremental) {
    stopRenewals();
    try {
      for (Staged entry : staged.values()) {
        check(entry, incremental.get(entry.output.path()));
        requireStagedFiles(entry);
      }
    } catch (RuntimeException e) {
      discard();
      throw e;
    }
    List<OutputWrites> writes = new ArrayList<>();
    List<DatasetPath> published = new ArrayList<>();
    for (Staged entry : staged.values()) {
      if (entry.created == null) {
        continue;
      }
      try {
        entry.created.create(stateProperties(state, entry.created.current().currentSnapshot(),
            extra.getOrDefault(entry.output.path(), Map.of())));
      } catch (RuntimeException e) {
        // Lost to another build (AlreadyExistsException, or whatever the catalog says when the other
        // build's row appeared between its check and its insert), or the catalog failed. Unless the table
        // is there with this build's identity (the commit went through and only its answer was lost), the
        // metadata file the attempt wrote is this build's alone: remove it with the staged files.
        Optional<String> now = uuidInCatalog(entry);
        if (now.isEmpty() || !now.get().equals(entry.created.current().uuid())) {
          StagedCreateFiles.deleteLostCreate(entry.created.io(), entry.created.current().location(),
              entry.created.current().uuid());
          discard();
          throw e instanceof AlreadyExistsException || now.isPresent() ? createdElsewhere(entry, e) : e;
        }
      }
      entry.published = true;
      published.add(entry.output.path());
      StagedCreateFiles.deleteLease(entry.created.io(), entry.created.current().location(), buildId);
      CrashPoints.reached("publish.output");
    }
    Optional<RESTCatalog> together = oneRestCatalog();
    if (together.isPresent()) {
      try {
        publishTogether(together.get(), state, extra);
      } catch (ValidationException | IllegalArgumentException | CommitFailedException e) {
        discard();
        throw new PublishConflictException("Cannot publish transform " + transform + ": an output moved while the "
            + "transform ran (" + e.getMessage() + "); " + publishedSoFar(published), e);
      }
      for (Staged entry : staged.values()) {
        if (entry.table != null) {
          entry.published = true;
        }
      }
      CrashPoints.reached("publish.together");
    }
    for (Staged entry : staged.values()) {
      if (entry.published || entry.table == null) {
        continue;
      }
      try {
        publishOne(entry, state, extra.getOrDefault(entry.output.path(), Map.of()));
      } catch (ValidationException | IllegalArgumentException | CommitFailedException e) {
        discard();
        throw new PublishConflictException("Cannot publish transform " + transform + ": output " + describe(entry)
            + " moved while the transform ran (" + e.getMessage() + "); " + publishedSoFar(published), e);
      }
      published.add(entry.output.path());
      entry.published = true;
      CrashPoints.reached("publish.output");
    }
    for (Staged entry : staged.values()) {
      writes.add(summarize(entry));
    }
    return writes;
  }

  private static String publishedSoFar(List<DatasetPath> published) {
    return (published.isEmpty() ? "nothing was published."
        : "outputs " + published + " were published, this one and those after it were not; the next build "
            + "of the transform rebuilds them all in full.") + " Build again to run on the new data.";
  }

  private void check(Staged entry, SchemaChangePolicy policy) {
    if (entry.table == null) {
      return;
    }
    Table table = entry.table;
    table.refresh();
    Snapshot main = table.currentSnapshot();
    Long mainNow = main == null ? null : main.snapshotId();
    if (!Objects.equals(mainNow, entry.base)) {
      throw new PublishConflictException("Cannot publish transform " + transform + ": output " + describe(entry)
          + " moved from snapshot " + entry.base + " to " + mainNow + " while the transform ran; nothing was "
          + "published. Build again to run on the new data.");
    }
    if (!table.refs().containsKey(branch)) {
      throw new TransformsException("Staging branch " + branch + " of output " + entry.output.path()
          + " disappeared while transform " + transform + " ran; nothing was published. Build again.");
    }
    List<String> changes = entry.shape.differences(table, TableShape.of(table));
    if (!changes.isEmpty()) {
      throw new PublishConflictException("Cannot publish transform " + transform + ": the schema, partitioning or "
          + "properties of output " + describe(entry) + " were changed outside this build while it ran (not through "
          + "the output's handle or identifier); nothing was published and that change was left as it is. What "
          + "changed:\n  - " + String.join("\n  - ", changes) + "\nBuild again to run on the table as it is now.");
    }
    if (policy != null) {
      Table stagedTable = entry.stagedTable;
      stagedTable.refresh();
      List<String> refused = new ArrayList<>(SchemaDiff.between(entry.baseSchema, stagedTable.schema())
          .refusedBy(policy));
      if (!stagedTable.spec().compatibleWith(entry.baseSpec)) {
        refused.add("partitioning: " + entry.baseSpec.fields() + " became " + stagedTable.spec().fields()
            + "; an incremental build adds rows to the table as it is partitioned, only a full build re-partitions");
      }
      if (!refused.isEmpty()) {
        throw new SchemaMismatchException("Cannot publish output " + describe(entry) + " of transform " + transform
            + ": this incremental build changed its shape in a way its schema-change policy ("
            + policy.name().toLowerCase(java.util.Locale.ROOT) + ") does not allow; "
            + dev.transforms.runtime.internal.engine.OutputShapes.wayOut(transform) + ". Nothing was published:\n  - "
            + String.join("\n  - ", refused), refused);
      }
    }
  }

  /**
   * Checks that every data and delete file the run's staged snapshots add to an output is there with its
   * size, whichever engine wrote it ({@link CommittedFiles}): the publication must not make {@code main}
   * name a file that is gone.
   */
  private void requireStagedFiles(Staged entry) {
    Table table = entry.created != null ? entry.stagedTable : entry.table;
    if (table == null) {
      return;
    }
    Snapshot head;
    if (entry.created != null) {
      head = entry.stagedTable.currentSnapshot();
    } else {
      SnapshotRef ref = table.refs().get(branch);
      head = ref == null ? null : table.snapshot(ref.snapshotId());
    }
    if (head != null) {
      CommittedFiles.requirePresent(describe(entry), table.io(),
          CommittedFiles.addedBetween(table, head.snapshotId(), entry.created != null ? null : entry.base));
    }
  }

  private void publishOne(Staged entry, IncrementalState state, Map<String, String> extra) {
    TableOperations operations = entry.operations.catalogOperations();
    CommitRetry.onConflict(ATTEMPTS).run(() -> {
      TableMetadata base = operations.refresh();
      requireMain(base, entry);
      TableMetadata updated = published(base, buildId, branch, state, extra);
      operations.commit(base, updated);
      deleteDroppedManifestLists(operations, base, updated);
      entry.table.refresh();
    });
  }

  private static void requireMain(TableMetadata base, Staged entry) {
    Snapshot main = base.currentSnapshot();
    if (!Objects.equals(main == null ? null : main.snapshotId(), entry.base)) {
      throw new ValidationException("main moved from snapshot %s to %s", entry.base,
          main == null ? null : main.snapshotId());
    }
  }

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
    SnapshotRef ref = base.ref(branch);
    if (ref == null) {
      throw new ValidationException("staging branch %s disappeared", branch);
    }
    Snapshot main = base.currentSnapshot();
    boolean descends = main == null;
    for (Snapshot s = base.snapshot(ref.snapshotId()); s != null && !descends;
        s = s.parentId() == null ? null : base.snapshot(s.parentId())) {
      descends = s.snapshotId() == main.snapshotId();
    }
    if (!descends) {
      throw new ValidationException("cannot fast-forward main to %s: main is not an ancestor of it", branch);
    }
    List<Snapshot> staged = new ArrayList<>();
    for (Snapshot s = base.snapshot(ref.snapshotId()); s != null && (main == null || s.snapshotId() != main.snapshotId());
        s = s.parentId() == null ? null : base.snapshot(s.parentId())) {
      staged.add(s);
    }
    // A run that changed no row publishes no snapshot: its empty snapshots go with its branch.
    boolean changesRows = staged.stream().anyMatch(OutputPublisher::changesRows);
    TableMetadata.Builder builder = TableMetadata.buildFrom(base);
    if (changesRows) {
      builder.setBranchSnapshot(ref.snapshotId(), SnapshotRef.MAIN_BRANCH);
    }
    builder.removeRef(branch);
    if (!changesRows && !staged.isEmpty()) {
      builder.removeSnapshots(staged.stream().map(Snapshot::snapshotId).toList());
    }
    Optional<StagedShape> shape = StagedShape.staged(base, buildId);
    if (shape.isPresent() && !shape.get().appliesTo(base)) {
      throw new ValidationException("the schema, spec or sort order build %s staged is gone from the table", buildId);
    }
    shape.ifPresent(s -> s.applyTo(builder, base));
    Map<String, String> next = stateProperties(state, changesRows ? base.snapshot(ref.snapshotId()) : main, extra);
    Set<String> removed = staleStateKeys(base.properties(), next);
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

  private static Map<String, String> stateProperties(IncrementalState state, Snapshot head, Map<String, String> extra) {
    Map<String, String> next = new LinkedHashMap<>(state.toProperties());
    next.put(IncrementalState.SNAPSHOT_ID, head == null ? IncrementalState.NO_SNAPSHOT : Long.toString(head.snapshotId()));
    next.put(IncrementalState.SEQUENCE_NUMBER, head == null ? "0" : Long.toString(head.sequenceNumber()));
    next.putAll(extra);
    return next;
  }

  private static Set<String> staleStateKeys(Map<String, String> current, Map<String, String> next) {
    Set<String> stale = new LinkedHashSet<>();
    for (String key : current.keySet()) {
      boolean owned = key.startsWith(IncrementalState.PREFIX) || key.startsWith(CHECKS_PREFIX);
      if (owned && !next.containsKey(key)) {
        stale.add(key);
      }
    }
    return stale;
  }

  /**
   * The REST catalog every existing output of this run lives in, when there are several: its
   * multi-table commit publishes them all at once.
   */
  private Optional<RESTCatalog> oneRestCatalog() {
    List<Staged> tables = staged.values().stream().filter(s -> s.table != null).toList();
    if (tables.size() < 2) {
      return Optional.empty();
    }
    Catalog first = tables.get(0).output.catalog();
    boolean same = tables.stream().allMatch(t -> t.output.catalog() == first);
    return same && first instanceof RESTCatalog rest ? Optional.of(rest) : Optional.empty();
  }

  /**
   * Publishes every existing output in one multi-table commit of a REST catalog: each output's
   * fast-forward, shape, branch and mark removal and state, applied all together or not at all. Each
   * table's commit requires its {@code main} to be where the run found it.
   */
  private void publishTogether(RESTCatalog catalog, IncrementalState state,
      Map<DatasetPath, Map<String, String>> extra) {
    List<TableCommit> commits = new ArrayList<>();
    for (Staged entry : staged.values()) {
      if (entry.table == null) {
        continue;
      }
      TableMetadata base = entry.operations.catalogOperations().refresh();
      requireMain(base, entry);
      commits.add(TableCommit.create(entry.output.resolved().identifier(), base,
          published(base, buildId, branch, state, extra.getOrDefault(entry.output.path(), Map.of()))));
    }
    catalog.commitTransaction(commits);
    for (Staged entry : staged.values()) {
      if (entry.table != null) {
        entry.table.refresh();
      }
    }
  }

  private OutputWrites summarize(Staged entry) {
    String identifier = entry.output.resolved().toString();
    if (!entry.published) {
      // A new output the transform never wrote: there is nothing to publish.
      return new OutputWrites(entry.output.path(), identifier, 0, 0, 0, 0, OptionalLong.empty(), false, List.of());
    }
    TableMetadata metadata = entry.created != null ? entry.created.current()
        : ((HasTableOperations) entry.table).operations().current();
    long added = 0;
    long deleted = 0;
    long files = 0;
    long bytes = 0;
    int count = 0;
    Snapshot snapshot = metadata.currentSnapshot();
    while (snapshot != null && (entry.base == null || snapshot.snapshotId() != entry.base)) {
      Map<String, String> summary = snapshot.summary();
      added += number(summary, "added-records");
      deleted += number(summary, "deleted-records");
      files += number(summary, "added-data-files");
      bytes += number(summary, "added-files-size");
      count++;
      snapshot = snapshot.parentId() == null ? null : metadata.snapshot(snapshot.parentId());
    }
    Snapshot current = metadata.currentSnapshot();
    List<String> schemaChanges = entry.created != null ? List.of()
        : SchemaDiff.between(entry.baseSchema, metadata.schema()).describe();
    entry.summary = new Published(metadata.schema(), bytes);
    return new OutputWrites(entry.output.path(), identifier, added, deleted, files, count,
        current == null ? OptionalLong.empty() : OptionalLong.of(current.snapshotId()), entry.created != null,
        schemaChanges);
  }

  private static long number(Map<String, String> summary, String key) {
    String value = summary == null ? null : summary.get(key);
    return value == null ? 0 : Long.parseLong(value);
  }

  /**
   * Throws away everything the transform wrote to outputs not yet published: removes their staging
   * branches, leases and shape marks, expires the snapshots only those branches reached (deleting their
   * files), and deletes the files of the tables this build was creating. Safe to call more than once;
   * keeps going when one output fails.
   */
  public void discard() {
    stopRenewals();
    for (Staged entry : staged.values()) {
      if (entry.published) {
        continue;
      }
      try {
        if (entry.created != null) {
          StagedCreateFiles.deleteAll(entry.created.io(), entry.created.current(), buildId);
          StagedCreateFiles.removeIfEmpty(entry.createdFolders);
          CrashPoints.reached("discard.created");
        } else if (entry.table != null) {
          removeMarks(entry.table, buildId, "discard");
        }
      } catch (RuntimeException e) {
        // Keep discarding the other outputs; what is left carries this build's dead lease and is
        // removed by the next build that touches the output.
      }
    }
  }

  /**
   * Removes a build's marks from a table: first its staging branches, then the snapshots only they
   * reached (and any snapshot of the build no ref reaches any more), then its lease and shape mark, with
   * the schemas only the build used. The lease goes last, so a process that dies half-way leaves a mark
   * for the next build to finish the job.
   *
   * @param table the table
   * @param buildId the build
   * @param points the crash points' prefix, {@code discard} or {@code recover}
   * @return how many snapshots were expired
   */
  static int removeMarks(Table table, String buildId, String points) {
    table.refresh();
    Set<String> branches = StagingMarks.branchesOf(table, buildId);
    Set<Long> expired = new LinkedHashSet<>(BranchSnapshots.onlyOn(table, branches));
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
    TableOperations operations = ((HasTableOperations) table).operations();
    CommitRetry.onConflict(ATTEMPTS).run(() -> {
      TableMetadata base = operations.refresh();
      Set<String> marks = new LinkedHashSet<>(Set.of(StagingMarks.leaseKey(buildId), StagedShape.key(buildId)));
      marks.retainAll(base.properties().keySet());
      if (!marks.isEmpty()) {
        TableMetadata.Builder builder = TableMetadata.buildFrom(base).removeProperties(marks);
        Set<Integer> unused = unusedSchemas(base, buildId);
        if (!unused.isEmpty()) {
          new MetadataUpdate.RemoveSchemas(unused).applyTo(builder);
        }
        operations.commit(base, builder.build());
      }
      return null;
    }, last -> null); // the marks stay: the lease, once lapsed, lets the next build remove them
    table.refresh();
    return expired.size();
  }

  /**
   * The schemas a build added that nothing uses: not current, named by no snapshot and by no other
   * build's shape mark.
   */
  private static Set<Integer> unusedSchemas(TableMetadata base, String buildId) {
    Optional<StagedShape> shape = StagedShape.staged(base, buildId);
    if (shape.isEmpty()) {
      return Set.of();
    }
    Set<Integer> unused = new LinkedHashSet<>(shape.get().addedSchemas());
    unused.remove(base.currentSchemaId());
    base.snapshots().forEach(s -> {
      if (s.schemaId() != null) {
        unused.remove(s.schemaId());
      }
    });
    base.properties().forEach((key, value) -> {
      if (key.startsWith(StagedShape.PREFIX) && !key.equals(StagedShape.key(buildId))) {
        StagedShape.decode(value).ifPresent(other -> {
          unused.remove(other.schemaId());
          unused.removeAll(other.addedSchemas());
        });
      }
    });
    unused.retainAll(base.schemasById().keySet());
    return unused;
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

  /**
   * What a published output became, beyond the report's counts: for lineage.
   *
   * @param schema the schema readers of {@code main} see now
   * @param bytesAdded bytes of the data files the publication added ({@code added-files-size})
   */
  public record Published(Schema schema, long bytesAdded) {}

  /**
   * What each output that this run published became, by path; empty before {@link #publish}.
   *
   * @return the published outputs
   */
  public synchronized Map<DatasetPath, Published> published() {
    Map<DatasetPath, Published> published = new LinkedHashMap<>();
    staged.forEach((path, entry) -> {
      if (entry.summary != null) {
        published.put(path, entry.summary);
      }
    });
    return published;
  }

  /** An output as this run stages it. */
  private static final class Staged {
    final Output output;
    /** The existing output, as the catalog loads it; null for a new output. */
    Table table;
    /** The operations the run writes an existing output through. */
    StagedShapeOperations operations;
    /** The new output this run creates, in this process until published. */
    StagedCreateOperations created;
    /** The folders above the new output's local location that did not exist before this run, deepest first. */
    List<java.nio.file.Path> createdFolders = List.of();
    /** The table the run's engine writes: staged shape of an existing output, or the new one. */
    Table stagedTable;
    /** {@code main}'s snapshot when staged; null for an empty or a new table. */
    Long base;
    /** The schema and spec readers of {@code main} had when staged. */
    Schema baseSchema;
    PartitionSpec baseSpec;
    /** The table-level metadata before the run, to tell a change made around this build. */
    TableShape shape;
    boolean published;
    /** The schema readers see once published, and the bytes of data files the publication added. */
    Published summary;

    Staged(Output output) {
      this.output = output;
    }
  }
}
