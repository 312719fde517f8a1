package dev.transforms.spark;

import dev.transforms.api.TransformsException;
import dev.transforms.runtime.internal.engine.BoundOutput;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Table;
import org.apache.iceberg.spark.Spark3Util;
import org.apache.iceberg.spark.SparkCatalog;
import org.apache.iceberg.spark.source.SparkTable;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.iceberg.catalog.Procedure;
import org.apache.spark.sql.types.StructType;

/**
 * Iceberg's {@link SparkCatalog}, sending the writes of a running transform to its staging branch.
 *
 * <p>While a transform runs, its session names the build's staging branch ({@link RunningOutputs}).
 * For the outputs of that transform, this catalog:
 * <ul>
 *   <li>loads the table on the staging branch, so every read and write through its identifier (SQL,
 *       {@code writeTo}, {@code MERGE}, {@code UPDATE}, {@code DELETE}, {@code INSERT OVERWRITE})
 *       sees and changes the branch, never {@code main}; an explicit branch or tag of an output
 *       ({@code `t`.branch_main}) is read-only; time travel ({@code VERSION AS OF}) reads as usual;
 *   <li>creates a new output (plain {@code CREATE TABLE}, {@code CREATE TABLE AS SELECT},
 *       {@code writeTo(...).create()}) empty on {@code main}, with the build's lease, and writes its
 *       rows on the staging branch: readers see no rows until the build publishes; a table another
 *       build created first fails the transform with a publish conflict;
 *   <li>turns {@code CREATE OR REPLACE TABLE ... AS SELECT}, {@code REPLACE TABLE} and
 *       {@code writeTo(...).createOrReplace()/replace()} on a staged output into an overwrite of every
 *       row on the staging branch, when the new schema and partitioning are those of the table;
 *       otherwise it refuses them, listing what differs;
 *   <li>refuses {@code ALTER TABLE} on an output that existed before the run (Iceberg applies it to
 *       the whole table at once); allows it on an output this run created;
 *   <li>refuses {@code DROP TABLE} and renames of outputs;
 *   <li>runs {@code rewrite_data_files} on the staging branch, lets read-only and snapshot-expiry
 *       procedures through, and refuses the procedures that commit to {@code main}.
 * </ul>
 * Tables that are not outputs of the running transform behave exactly as in {@link SparkCatalog}.
 */
public class TransformsSparkCatalog extends SparkCatalog {

  /** Set while a time-travel load asks for the table as Iceberg loads it, unbranched. */
  private static final ThreadLocal<Boolean> PLAIN_LOAD = ThreadLocal.withInitial(() -> false);

  /** Creates the catalog; Spark does this. */
  public TransformsSparkCatalog() {}

  @Override
  public org.apache.spark.sql.connector.catalog.Table loadTable(Identifier ident) throws NoSuchTableException {
    org.apache.spark.sql.connector.catalog.Table loaded = super.loadTable(ident);
    Optional<RunningOutputs> running = RunningOutputs.active();
    if (running.isEmpty() || PLAIN_LOAD.get() || !(loaded instanceof SparkTable table)) {
      return loaded;
    }
    Optional<BoundOutput> byName = running.get().output(name(), buildIdentifier(ident));
    if (byName.isPresent()) {
      if (running.get().staging().table(byName.get()).isEmpty()) {
        // The table exists, but this run neither found it at the start nor created it.
        throw running.get().staging().createdElsewhere(byName.get(), null);
      }
      return onStagingBranch(table, running.get(), byName.get());
    }
    if ((table.branch() != null || table.snapshotId() != null) && running.get().outputOf(table.table()).isPresent()) {
      // `t`.branch_x, `t`.tag_x, `t`.snapshot_id_n: an output seen past its staging branch, read only.
      return new ReadOnlyTable(table);
    }
    return loaded;
  }

  private SparkTable onStagingBranch(SparkTable table, RunningOutputs running, BoundOutput output) {
    if (!table.table().refs().containsKey(running.branch())) {
      throw new TransformsException("Staging branch " + running.branch() + " of output "
          + output.parameter().requirePath() + " (" + describe(output) + ") disappeared while transform "
          + running.transform() + " ran; nothing of it will be published. Build again.");
    }
    return table.copyWithBranch(running.branch());
  }

  @Override
  public org.apache.spark.sql.connector.catalog.Table loadTable(Identifier ident, String version)
      throws NoSuchTableException {
    return loadPlainly(() -> super.loadTable(ident, version));
  }

  @Override
  public org.apache.spark.sql.connector.catalog.Table loadTable(Identifier ident, long timestamp)
      throws NoSuchTableException {
    return loadPlainly(() -> super.loadTable(ident, timestamp));
  }

  /** A load of Iceberg's own, for time travel: it then asks {@link #loadTable(Identifier)} for the table unbranched. */
  private org.apache.spark.sql.connector.catalog.Table loadPlainly(PlainLoad load) throws NoSuchTableException {
    PLAIN_LOAD.set(true);
    try {
      return load.load();
    } finally {
      PLAIN_LOAD.set(false);
    }
  }

  @FunctionalInterface
  private interface PlainLoad {
    org.apache.spark.sql.connector.catalog.Table load() throws NoSuchTableException;
  }

  @Override
  public org.apache.spark.sql.connector.catalog.Table createTable(Identifier ident, StructType schema,
      Transform[] partitions, Map<String, String> properties) throws TableAlreadyExistsException {
    Optional<BoundOutput> output = newOutput(ident);
    if (output.isEmpty()) {
      return super.createTable(ident, schema, partitions, properties);
    }
    return createForRun(ident, output.get(), schema, partitions, properties);
  }

  @Override
  public StagedTable stageCreate(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException {
    Optional<BoundOutput> output = newOutput(ident);
    if (output.isEmpty()) {
      return super.stageCreate(ident, schema, partitions, properties);
    }
    return new StagedCreate(createForRun(ident, output.get(), schema, partitions, properties));
  }

  @Override
  public StagedTable stageCreateOrReplace(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) {
    Optional<BoundOutput> created = newOutput(ident);
    if (created.isPresent()) {
      try {
        return new StagedCreate(createForRun(ident, created.get(), schema, partitions, properties));
      } catch (TableAlreadyExistsException e) {
        throw new TransformsException("Cannot create output " + describe(created.get()) + ": " + e.getMessage(), e);
      }
    }
    Optional<Table> staged = stagedOutput(ident);
    if (staged.isPresent()) {
      return StagedOverwrite.create(loadSparkTable(ident), staged.get(), RunningOutputs.active().orElseThrow().branch(),
          schema, partitions, "CREATE OR REPLACE");
    }
    return super.stageCreateOrReplace(ident, schema, partitions, properties);
  }

  @Override
  public StagedTable stageReplace(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws NoSuchTableException {
    Optional<Table> staged = stagedOutput(ident);
    if (staged.isPresent()) {
      return StagedOverwrite.create(loadSparkTable(ident), staged.get(), RunningOutputs.active().orElseThrow().branch(),
          schema, partitions, "REPLACE");
    }
    return super.stageReplace(ident, schema, partitions, properties);
  }

  /** Creates a new output empty on main, with the build's lease, and cuts its staging branch. */
  private SparkTable createForRun(Identifier ident, BoundOutput output, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException {
    RunningOutputs running = RunningOutputs.active().orElseThrow();
    Map<String, String> all = new LinkedHashMap<>(properties);
    all.putAll(running.staging().creationProperties());
    try {
      super.createTable(ident, schema, partitions, all);
    } catch (TableAlreadyExistsException e) {
      throw running.staging().createdElsewhere(output, e);
    }
    running.staging().registerCreated(output);
    try {
      return (SparkTable) loadTable(ident);
    } catch (NoSuchTableException e) {
      throw running.staging().createdElsewhere(output, e);
    }
  }

  @Override
  public org.apache.spark.sql.connector.catalog.Table alterTable(Identifier ident, TableChange... changes)
      throws NoSuchTableException {
    Optional<RunningOutputs> running = RunningOutputs.active();
    Optional<BoundOutput> output = running.flatMap(r -> r.output(name(), buildIdentifier(ident)));
    if (output.isPresent() && output.get().existing().isPresent()) {
      throw new TransformsException("ALTER TABLE on " + describe(output.get()) + " is refused: it is an output of "
          + "the running transform " + running.get().transform() + ", and Iceberg applies schema, partitioning and "
          + "property changes to the whole table at once, so readers would see them before the build publishes "
          + "(and keep them if it failed). Change the table outside the build; a new output may be altered in the "
          + "build that creates it.");
    }
    return super.alterTable(ident, changes);
  }

  @Override
  public boolean dropTable(Identifier ident) {
    refuseIfStaged(ident, "DROP TABLE");
    return super.dropTable(ident);
  }

  @Override
  public boolean purgeTable(Identifier ident) {
    refuseIfStaged(ident, "DROP TABLE ... PURGE");
    return super.purgeTable(ident);
  }

  @Override
  public void renameTable(Identifier from, Identifier to) throws NoSuchTableException, TableAlreadyExistsException {
    refuseIfStaged(from, "ALTER TABLE ... RENAME TO");
    super.renameTable(from, to);
  }

  @Override
  public Procedure loadProcedure(Identifier ident)
      throws org.apache.spark.sql.catalyst.analysis.NoSuchProcedureException {
    return new GuardedProcedure(super.loadProcedure(ident), ident.name(), this);
  }

  private void refuseIfStaged(Identifier ident, String operation) {
    Optional<RunningOutputs> running = RunningOutputs.active();
    if (running.flatMap(r -> r.output(name(), buildIdentifier(ident))).isPresent()) {
      throw new TransformsException(operation + " on " + describe(ident) + " is refused: it is an output of the "
          + "running transform " + running.get().transform() + ", and this operation would bypass its staging branch "
          + running.get().branch() + ", so it could not be undone if the transform fails. Drop, rename or "
          + "recreate the table outside the transform.");
    }
  }

  /** A new output of the running transform that this run has not created yet. */
  private Optional<BoundOutput> newOutput(Identifier ident) {
    Optional<RunningOutputs> running = RunningOutputs.active();
    return running.flatMap(r -> r.output(name(), buildIdentifier(ident)))
        .filter(o -> running.get().staging().table(o).isEmpty());
  }

  private org.apache.spark.sql.connector.catalog.Table loadSparkTable(Identifier ident) {
    try {
      return loadTable(ident);
    } catch (NoSuchTableException e) {
      throw new TransformsException("Table " + describe(ident) + " disappeared: " + e.getMessage(), e);
    }
  }

  String describe(Identifier ident) {
    return Spark3Util.quotedFullIdentifier(name(), ident);
  }

  private static String describe(BoundOutput output) {
    return output.parameter().requirePath() + " (" + output.resolved().sparkIdentifier() + ")";
  }

  /**
   * The Iceberg table of an identifier, when it is an output of the running transform that has its
   * staging branch (it existed before the run, or the run created it).
   *
   * @param ident an identifier in this catalog
   * @return the table, or empty
   */
  Optional<Table> stagedOutput(Identifier ident) {
    Optional<RunningOutputs> running = RunningOutputs.active();
    return running.flatMap(r -> r.output(name(), buildIdentifier(ident)))
        .flatMap(o -> running.get().staging().table(o))
        .map(t -> {
          t.refresh();
          return t;
        });
  }

  /**
   * The staging branch of the transform running in the active session, if one is.
   *
   * @return the branch name
   */
  static Optional<String> activeBranch() {
    return RunningOutputs.active().map(RunningOutputs::branch);
  }
}
