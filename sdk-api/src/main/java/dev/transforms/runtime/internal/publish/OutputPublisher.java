package dev.transforms.runtime.internal.publish;

import dev.transforms.api.PublishConflictException;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.api.SchemaMismatchException;
import dev.transforms.api.TransformsException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.OutputWrites;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import dev.transforms.runtime.secrets.SecretMasker;
import dev.transforms.runtime.spi.BoundOutput;
import dev.transforms.runtime.spi.CrashPoints;
import dev.transforms.runtime.spi.OutputStaging;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a transform's writes all-or-nothing, whatever process dies where: its outputs' rows and their
 * shape (schema, partition spec, sort order, properties), and the very existence of a new output.
 *
 * <p>The protocol, per output table (each step is one catalog commit):
 * <ol>
 *   <li><b>Stage</b> ({@link Staging}). Before the method runs, every output that exists gets the run's staging branch,
 *       cut from {@code main}, and the build's {@link BuildLease lease}, in one commit. Engines write
 *       through the staged table ({@link StagedShapeOperations}): rows land on the branch; a new
 *       schema, spec or sort order is added to the table unused, and made current for this build only
 *       by its shape mark ({@link StagedShape}). An output the run creates does not reach the catalog
 *       at all: it lives in this process ({@link StagedCreateOperations}), its files under the table's
 *       location beside a lease file ({@link StagedCreateFiles}).
 *   <li><b>Publish</b> ({@link Publication}). When the method returns, every output is checked first
 *       ({@link PublishChecks}: its {@code main} did not move, its branch is there, nobody else changed
 *       its shape, an incremental build's schema change is one its policy allows); then a new output
 *       is created in one commit, with its schema, spec, properties, rows and the build's state; and
 *       each existing output's {@code main} is fast-forwarded to its branch in one commit that also
 *       makes the staged shape the table's, removes the branch, the lease and the shape mark, and
 *       stores the build's {@link IncrementalState state} as table properties. No snapshot is added to carry the state.
 *   <li><b>Discard</b> ({@link #discard()}). When the method throws, each output's branch, lease and
 *       shape mark are removed ({@link StagingMarks#remove}) with the snapshots only the branch reached
 *       (their files deleted) and the schemas only the build used; a new output's files are deleted.
 *       Nothing of the run is left.
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
 *
 * <p>This class is the protocol's entry point: builds and loads call {@link #stage}, {@link #publish}
 * and {@link #discard}; engines reach the staged tables through it as {@link OutputStaging}.
 */
public final class OutputPublisher implements OutputStaging {
  private static final Logger LOG = LoggerFactory.getLogger(OutputPublisher.class);

  /** The transform name loads publish under ({@code transforms load}); their messages say load. */
  public static final String LOAD = "load";

  /** Prefix of the properties that record how an output's checks came out; owned by the publication. */
  public static final String CHECKS_PREFIX = "transforms.checks.";

  private final Staging staging;

  private OutputPublisher(Staging staging) {
    this.staging = staging;
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
    return stage(transform, buildId, outputs, BuildBranch.MAIN);
  }

  /**
   * Cuts the staging branch, with this build's lease, on each output that exists, from the branch the
   * build publishes (from {@code main} where that branch is not on the output yet).
   *
   * @param transform the transform's name, for messages
   * @param buildId the build's id
   * @param outputs every output table of the transform, with its catalog and, if it exists, the table
   * @param target the branch the build publishes
   * @return the publisher that publishes or discards them
   * @throws TransformsException if a branch build would create an output (nothing is staged)
   */
  public static OutputPublisher stage(String transform, String buildId, List<Output> outputs, BuildBranch target) {
    OutputPublisher publisher = new OutputPublisher(new Staging(transform, buildId, target));
    try {
      outputs.forEach(publisher.staging::stage);
    } catch (RuntimeException e) {
      publisher.discard();
      throw e;
    }
    publisher.staging.startRenewals();
    return publisher;
  }

  @Override
  public String branch(BoundOutput output) {
    return staging.branch(output);
  }

  @Override
  public Table createTable(BoundOutput output, Schema schema, PartitionSpec spec, Map<String, String> properties) {
    return staging.createTable(output, schema, spec, properties);
  }

  @Override
  public Optional<Table> table(BoundOutput output) {
    return staging.table(output);
  }

  @Override
  public Table reshape(BoundOutput output, Schema schema, int lastColumnId, Optional<PartitionSpec> spec) {
    return staging.reshape(output, schema, lastColumnId, spec);
  }

  @Override
  public void edited(BoundOutput output) {
    staging.edited(output);
  }

  /**
   * The snapshot each staged output's {@code main} had when the run started.
   *
   * @return by path; empty for outputs that were new or had no snapshot
   */
  public Map<DatasetPath, OptionalLong> publishedSnapshots() {
    Map<DatasetPath, OptionalLong> bases = new LinkedHashMap<>();
    staging.entries().forEach(entry -> bases.put(entry.output.path(), entry.base == null ? OptionalLong.empty()
        : OptionalLong.of(entry.base)));
    return bases;
  }

  @Override
  public void recovered(String note) {
    staging.recovered(note);
  }

  /**
   * What the engines did during the run to put outputs in order after builds that died.
   *
   * @return one line per action
   */
  public List<String> recoveryNotes() {
    return staging.recoveryNotes();
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
    return new Publication(staging, this::discard).publish(state, extra, incremental);
  }

  /**
   * Throws away everything the transform wrote to outputs not yet published: removes their staging
   * branches, leases and shape marks, expires the snapshots only those branches reached (deleting their
   * files), and deletes the files of the tables this build was creating. Safe to call more than once;
   * keeps going when one output fails.
   */
  public void discard() {
    staging.stopRenewals();
    for (RunOutput entry : staging.entries()) {
      if (entry.published) {
        continue;
      }
      try {
        if (entry.created != null) {
          StagedCreateFiles.deleteAll(entry.created.io(), entry.created.current(), staging.buildId);
          StagedCreateFiles.removeIfEmpty(entry.createdFolders);
          CrashPoints.reached("discard.created");
        } else if (entry.table != null) {
          StagingMarks.remove(entry.table, staging.buildId, "discard");
        }
      } catch (RuntimeException e) {
        // Keep discarding the other outputs; what is left carries this build's dead lease and is
        // removed by the next build that touches the output. Said, so that "discarded" is never silently false.
        LOG.warn("{}", SecretMasker.allLoaded().mask("Could not discard all that build " + staging.buildId
            + " wrote to output " + entry.describe() + ": " + e + "; the next build that touches it removes what is "
            + "left, and maintain --remove-orphans deletes files no snapshot names"));
      }
    }
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
  public Map<DatasetPath, Published> published() {
    Map<DatasetPath, Published> published = new LinkedHashMap<>();
    for (RunOutput entry : staging.entries()) {
      if (entry.summary != null) {
        published.put(entry.output.path(), entry.summary);
      }
    }
    return published;
  }
}
