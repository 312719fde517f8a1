package dev.transforms.runtime.internal.publish;

import dev.transforms.api.PublishConflictException;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.OutputWrites;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import dev.transforms.runtime.spi.CommitRetry;
import dev.transforms.runtime.spi.CrashPoints;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
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
 * Where a build publishes: the last step of the publish protocol, once the transform's method returned.
 * Every output is checked first ({@link PublishChecks}); then each new output is created in one catalog
 * commit with its rows and the build's state; then the existing outputs are published, each in one
 * commit ({@link PublishedMetadata}: {@code main} fast-forwarded to the staging branch, the staged shape
 * made the table's, the marks removed, the state stored), or all together in one multi-table commit when
 * they share a REST catalog. Any failure discards what is not yet published and says what was.
 */
final class Publication {

  private final Staging staging;
  private final String buildId;
  private final String branch;
  private final PublishChecks checks;
  private final Runnable discard;

  /** A publication of the staged outputs that runs {@code discard} when it fails. */
  Publication(Staging staging, Runnable discard) {
    this.staging = staging;
    this.buildId = staging.buildId;
    this.branch = staging.branch;
    this.checks = new PublishChecks(staging.transform, branch, staging.target);
    this.discard = discard;
  }

  /** Publishes every output; see {@link OutputPublisher#publish(IncrementalState, Map, Map)}. */
  List<OutputWrites> publish(IncrementalState state, Map<DatasetPath, Map<String, String>> extra,
      Map<DatasetPath, SchemaChangePolicy> incremental) {
    staging.stopRenewals();
    try {
      for (RunOutput entry : staging.entries()) {
        checks.check(entry, incremental.get(entry.output.path()));
        checks.requireStagedFiles(entry);
      }
    } catch (RuntimeException e) {
      discard.run();
      throw e;
    }
    for (RunOutput entry : staging.entries()) {
      entry.unwritten = entry.table != null && !incremental.containsKey(entry.output.path()) && !written(entry);
    }
    List<OutputWrites> writes = new ArrayList<>();
    List<DatasetPath> published = new ArrayList<>();
    for (RunOutput entry : staging.entries()) {
      if (entry.created == null) {
        continue;
      }
      try {
        entry.created.create(PublishedMetadata.stateProperties(state, entry.created.current().currentSnapshot(),
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
          discard.run();
          throw e instanceof AlreadyExistsException || now.isPresent() ? staging.createdElsewhere(entry, e) : e;
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
        discard.run();
        throw new PublishConflictException("Cannot publish " + checks.subject() + ": an output moved while it ran ("
            + e.getMessage() + "); " + publishedSoFar(published), e);
      }
      for (RunOutput entry : staging.entries()) {
        if (entry.table != null && !entry.unwritten) {
          entry.published = true;
        }
      }
      CrashPoints.reached("publish.together");
    }
    for (RunOutput entry : staging.entries()) {
      if (entry.published || entry.table == null || entry.unwritten) {
        continue;
      }
      try {
        publishOne(entry, state, extra.getOrDefault(entry.output.path(), Map.of()));
      } catch (ValidationException | IllegalArgumentException | CommitFailedException e) {
        discard.run();
        throw new PublishConflictException("Cannot publish " + checks.subject() + ": output " + entry.describe()
            + " moved while it ran (" + e.getMessage() + "); " + publishedSoFar(published), e);
      }
      published.add(entry.output.path());
      entry.published = true;
      CrashPoints.reached("publish.output");
    }
    // What a full build left unwritten keeps its rows and its state: its marks go, and the transform stays
    // out of date until a build writes it. Last, so that a crash before leaves the lease for recovery.
    for (RunOutput entry : staging.entries()) {
      if (entry.unwritten) {
        try {
          StagingMarks.remove(entry.table, buildId, "discard");
        } catch (RuntimeException e) {
          // The outputs written are published; what is left carries this build's lease, and the next build
          // that touches the output removes it once the lease lapses.
        }
      }
    }
    for (RunOutput entry : staging.entries()) {
      writes.add(WriteSummary.of(entry));
    }
    return writes;
  }

  /**
   * Whether the run wrote an existing output: a snapshot on its staging branch, a change of its shape,
   * maintenance that expired some of its snapshots, or edits that found nothing to change
   * ({@code OutputStaging.edited}). A full build publishes only what it wrote: storing the
   * build's state on an output it left as it was would call rows computed from older inputs up to date.
   */
  private boolean written(RunOutput entry) {
    TableMetadata metadata = ((HasTableOperations) entry.table).operations().current();
    SnapshotRef ref = metadata.ref(branch);
    boolean rows = ref != null && !Objects.equals(ref.snapshotId(), entry.base);
    boolean expired = entry.snapshotsAtStage.stream().anyMatch(id -> metadata.snapshot(id) == null);
    return entry.edited || rows || expired || StagedShape.staged(metadata, buildId).isPresent();
  }

  private String publishedSoFar(List<DatasetPath> published) {
    return (published.isEmpty() ? "nothing was published."
        : "outputs " + published + " were published, this one and those after it were not; the next build "
            + "of the transform rebuilds them all in full.") + " " + checks.again();
  }

  private void publishOne(RunOutput entry, IncrementalState state, Map<String, String> extra) {
    TableOperations operations = entry.operations.catalogOperations();
    CommitRetry.onConflict(TableCommits.ATTEMPTS).run(() -> {
      TableMetadata base = operations.refresh();
      requireMain(base, entry, staging.target);
      TableMetadata updated = PublishedMetadata.published(base, buildId, branch, staging.target, state, extra);
      operations.commit(base, updated);
      PublishedMetadata.deleteDroppedManifestLists(operations, base, updated);
      entry.table.refresh();
    });
  }

  private static void requireMain(TableMetadata base, RunOutput entry, BuildBranch target) {
    Snapshot main = target.head(base);
    if (!Objects.equals(main == null ? null : main.snapshotId(), entry.base)) {
      throw new ValidationException("%s moved from snapshot %s to %s", target.name(), entry.base,
          main == null ? null : main.snapshotId());
    }
  }

  /**
   * The REST catalog every existing output of this run lives in, when there are several: its
   * multi-table commit publishes them all at once.
   */
  private Optional<RESTCatalog> oneRestCatalog() {
    List<RunOutput> tables = staging.entries().stream().filter(s -> s.table != null && !s.unwritten).toList();
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
    for (RunOutput entry : staging.entries()) {
      if (entry.table == null || entry.unwritten) {
        continue;
      }
      TableMetadata base = entry.operations.catalogOperations().refresh();
      requireMain(base, entry, staging.target);
      Map<String, String> properties = extra.getOrDefault(entry.output.path(), Map.of());
      commits.add(TableCommit.create(entry.output.resolved().identifier(), base,
          PublishedMetadata.published(base, buildId, branch, staging.target, state, properties)));
    }
    catalog.commitTransaction(commits);
    for (RunOutput entry : staging.entries()) {
      if (entry.table != null && !entry.unwritten) {
        entry.table.refresh();
      }
    }
  }

  /** The identity of the table an output's identifier now names in its catalog, if there is one. */
  private static Optional<String> uuidInCatalog(RunOutput entry) {
    try {
      return Optional.of(entry.output.catalog().loadTable(entry.output.resolved().identifier()).uuid().toString());
    } catch (NoSuchTableException e) {
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.empty(); // the catalog cannot answer: treat the attempt as failed, as it reported
    }
  }
}
