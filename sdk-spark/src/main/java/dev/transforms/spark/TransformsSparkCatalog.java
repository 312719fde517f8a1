package dev.transforms.spark;

import dev.transforms.api.TransformsException;
import dev.transforms.runtime.spi.BoundOutput;
import dev.transforms.runtime.spi.OutputShapes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.MetadataTableType;
import org.apache.iceberg.MetadataTableUtils;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.spark.Spark3Util;
import org.apache.iceberg.spark.SparkCatalog;
import org.apache.iceberg.spark.SparkSchemaUtil;
import org.apache.iceberg.spark.source.SparkTable;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;

/**
 * Iceberg's {@link SparkCatalog}, sending the writes of a running transform to its staged outputs.
 *
 * <p>While a transform runs, its session names the build's staging branch ({@link RunningOutputs}).
 * For the outputs of that transform, this catalog:
 * <ul>
 *   <li>loads the staged table: an output that existed is read and written on the staging branch, in
 *       the shape the run gave it, so every read and write through its identifier (SQL, {@code writeTo},
 *       {@code MERGE}, {@code UPDATE}, {@code DELETE}, {@code INSERT OVERWRITE}) sees and changes the
 *       run's version, never {@code main}; an explicit branch or tag of an output
 *       ({@code `t`.branch_main}) is read-only; time travel ({@code VERSION AS OF}) reads as usual;
 *   <li>creates a new output (plain {@code CREATE TABLE}, {@code CREATE TABLE AS SELECT},
 *       {@code writeTo(...).create()}) for the run only: no other reader sees it until the build
 *       publishes it, with its rows, in one commit;
 *   <li>turns {@code CREATE OR REPLACE TABLE ... AS SELECT}, {@code REPLACE TABLE} and
 *       {@code writeTo(...).createOrReplace()/replace()} on a staged output into a new staged shape (the
 *       statement's columns, keeping the ids of columns that keep their values, and its partitioning)
 *       and an overwrite of every row on the staging branch;
 *   <li>applies {@code ALTER TABLE} (columns, properties) and Iceberg's {@code ALTER TABLE ... ADD
 *       PARTITION FIELD} and {@code WRITE ORDERED BY} to the staged shape: the table takes them when the
 *       build publishes;
 *   <li>refuses {@code DROP TABLE}, renames and relocations of outputs;
 *   <li>runs {@code rewrite_data_files} on the staging branch, lets read-only and snapshot-expiry
 *       procedures through, and refuses the procedures that commit to {@code main}.
 * </ul>
 * Tables that are not outputs of the running transform behave exactly as in {@link SparkCatalog}.
 */
public class TransformsSparkCatalog extends RoutingSparkCatalog {

  /** Properties ALTER TABLE may not set on an output: Iceberg reads them as commands. */
  private static final java.util.Set<String> RESERVED = java.util.Set.of("location", "current-snapshot-id",
      "cherry-pick-snapshot-id", "sort-order", "identifier-fields");

  /** Set while a time-travel load asks for the table as Iceberg loads it, unbranched. */
  private static final ThreadLocal<Boolean> PLAIN_LOAD = ThreadLocal.withInitial(() -> false);

  /** Creates the catalog; Spark does this. */
  public TransformsSparkCatalog() {}

  @Override
  public org.apache.spark.sql.connector.catalog.Table loadTable(Identifier ident) throws NoSuchTableException {
    Optional<RunningOutputs> running = RunningOutputs.active();
    Optional<BoundOutput> output = running.flatMap(r -> r.output(name(), buildIdentifier(ident)));
    if (output.isPresent() && PLAIN_LOAD.get()) {
      // Time travel and reads by snapshot id: the run's version of the table, on no branch.
      Table table = running.get().staging().table(output.get()).orElseThrow(() -> new NoSuchTableException(ident));
      table.refresh();
      return SparkTables.of(table);
    }
    if (running.isPresent() && !PLAIN_LOAD.get()) {
      if (output.isPresent()) {
        return staged(running.get(), output.get()).orElseThrow(() -> new NoSuchTableException(ident));
      }
      Optional<SparkTable> metadata = metadataTableOfNewOutput(running.get(), ident);
      if (metadata.isPresent()) {
        return metadata.get();
      }
    }
    org.apache.spark.sql.connector.catalog.Table loaded = super.loadTable(ident);
    if (running.isPresent() && !PLAIN_LOAD.get() && loaded instanceof SparkTable table
        && (table.branch() != null || table.snapshotId() != null) && running.get().outputOf(table.table()).isPresent()) {
      // `t`.branch_x, `t`.tag_x, `t`.snapshot_id_n: an output seen past its staging branch, read only. (Iceberg's
      // SparkTable of Spark 4.1 has a snapshot id for every table with a snapshot, so there the identity check
      // decides.)
      return new ReadOnlyTable(table);
    }
    return loaded;
  }

  /** The staged table of an output, on the branch the run writes; empty for a new output not yet created. */
  private static Optional<SparkTable> staged(RunningOutputs running, BoundOutput output) {
    return running.staging().table(output).map(table -> {
      table.refresh();
      return SparkTables.onBranch(table, running.staging().branch(output));
    });
  }

  /**
   * {@code `t`.snapshots} and the other metadata tables of a new output the run created: the table is
   * not in the catalog yet, so Iceberg's own lookup would not find it.
   */
  private Optional<SparkTable> metadataTableOfNewOutput(RunningOutputs running, Identifier ident) {
    if (ident.namespace().length == 0) {
      return Optional.empty();
    }
    MetadataTableType type = MetadataTableType.from(ident.name());
    if (type == null) {
      return Optional.empty();
    }
    String[] parent = ident.namespace();
    Identifier table = Identifier.of(java.util.Arrays.copyOf(parent, parent.length - 1), parent[parent.length - 1]);
    return running.output(name(), buildIdentifier(table))
        .filter(o -> o.existing().isEmpty())
        .flatMap(o -> running.staging().table(o))
        .map(t -> SparkTables.of(MetadataTableUtils.createMetadataTableInstance(t, type)));
  }

  @Override
  public org.apache.spark.sql.connector.catalog.Table loadTable(Identifier ident, String version)
      throws NoSuchTableException {
    Optional<SparkTable> output = runVersion(ident).flatMap(table -> SparkTables.atVersion(table, version));
    if (output.isPresent()) {
      return output.get();
    }
    return loadPlainly(() -> super.loadTable(ident, version));
  }

  @Override
  public org.apache.spark.sql.connector.catalog.Table loadTable(Identifier ident, long timestamp)
      throws NoSuchTableException {
    Optional<SparkTable> output = runVersion(ident).flatMap(table -> SparkTables.atTimestamp(table, timestamp));
    if (output.isPresent()) {
      return output.get();
    }
    return loadPlainly(() -> super.loadTable(ident, timestamp));
  }

  /** The run's version of an output of the running transform, for a time-travel load of it; empty otherwise. */
  private Optional<Table> runVersion(Identifier ident) {
    Optional<RunningOutputs> running = RunningOutputs.active();
    return running.flatMap(r -> r.output(name(), buildIdentifier(ident))).flatMap(o -> running.get().staging().table(o));
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

  /**
   * Builds DataFrames that read outputs of the running transform at explicit snapshots ({@code
   * snapshot-id}, {@code start-snapshot-id}): they load the run's version of each output on no branch,
   * since Iceberg reads a snapshot or a branch, not both.
   *
   * @param reads builds the DataFrames (Spark resolves their tables as it builds them)
   * @param <T> what it returns
   * @return what {@code reads} returned
   */
  static <T> T bySnapshot(java.util.function.Supplier<T> reads) {
    boolean before = PLAIN_LOAD.get();
    PLAIN_LOAD.set(true);
    try {
      return reads.get();
    } finally {
      PLAIN_LOAD.set(before);
    }
  }

  @Override
  public org.apache.spark.sql.connector.catalog.Table createTable(Identifier ident, StructType schema,
      Transform[] partitions, Map<String, String> properties) throws TableAlreadyExistsException {
    Optional<RunningOutputs> running = RunningOutputs.active();
    Optional<BoundOutput> output = running.flatMap(r -> r.output(name(), buildIdentifier(ident)));
    if (output.isEmpty()) {
      return super.createTable(ident, schema, partitions, properties);
    }
    return createForRun(ident, running.get(), output.get(), schema, partitions, properties);
  }

  @Override
  public StagedTable stageCreate(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException {
    Optional<RunningOutputs> running = RunningOutputs.active();
    Optional<BoundOutput> output = running.flatMap(r -> r.output(name(), buildIdentifier(ident)));
    if (output.isEmpty()) {
      return super.stageCreate(ident, schema, partitions, properties);
    }
    return new StagedOverwrite(createForRun(ident, running.get(), output.get(), schema, partitions, properties), false);
  }

  @Override
  public StagedTable stageCreateOrReplace(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) {
    Optional<RunningOutputs> running = RunningOutputs.active();
    Optional<BoundOutput> output = running.flatMap(r -> r.output(name(), buildIdentifier(ident)));
    if (output.isEmpty()) {
      return super.stageCreateOrReplace(ident, schema, partitions, properties);
    }
    if (running.get().staging().table(output.get()).isEmpty()) {
      try {
        return new StagedOverwrite(createForRun(ident, running.get(), output.get(), schema, partitions, properties),
            false);
      } catch (TableAlreadyExistsException e) {
        throw new TransformsException("Cannot create output " + describe(output.get()) + ": " + e.getMessage(), e);
      }
    }
    return replaceForRun(running.get(), output.get(), schema, partitions, properties);
  }

  @Override
  public StagedTable stageReplace(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws NoSuchTableException {
    Optional<RunningOutputs> running = RunningOutputs.active();
    Optional<BoundOutput> output = running.flatMap(r -> r.output(name(), buildIdentifier(ident)));
    if (output.isEmpty()) {
      return super.stageReplace(ident, schema, partitions, properties);
    }
    if (running.get().staging().table(output.get()).isEmpty()) {
      throw new NoSuchTableException(ident);
    }
    return replaceForRun(running.get(), output.get(), schema, partitions, properties);
  }

  /** Starts a new output for the run: it reaches the catalog only when the build publishes. */
  private SparkTable createForRun(Identifier ident, RunningOutputs running, BoundOutput output, StructType schema,
      Transform[] partitions, Map<String, String> properties) throws TableAlreadyExistsException {
    if (running.staging().table(output).isPresent()) {
      throw new TableAlreadyExistsException(ident);
    }
    refuseLocation(output, properties);
    Schema columns = SparkSchemaUtil.convert(schema);
    PartitionSpec spec = Spark3Util.toPartitionSpec(columns, partitions);
    Table created = running.staging().createTable(output, columns, spec, Spark3Util.rebuildCreateProperties(properties));
    return SparkTables.onBranch(created, running.staging().branch(output));
  }

  /**
   * A replace of a staged output: the statement's columns and partitioning become the output's staged
   * shape, its properties are set, and the rows it writes overwrite every row on the staging branch.
   */
  private StagedOverwrite replaceForRun(RunningOutputs running, BoundOutput output, StructType schema,
      Transform[] partitions, Map<String, String> properties) {
    refuseLocation(output, properties);
    Table table = OutputShapes.replace(running.run(), output, SparkSchemaUtil.convert(schema),
        Optional.of(columns -> Spark3Util.toPartitionSpec(columns, partitions)));
    Map<String, String> set = Spark3Util.rebuildCreateProperties(properties);
    if (!set.isEmpty()) {
      UpdateProperties update = table.updateProperties();
      set.forEach(update::set);
      update.commit();
    }
    return new StagedOverwrite(staged(running, output).orElseThrow(), true);
  }

  private static void refuseLocation(BoundOutput output, Map<String, String> properties) {
    if (properties.containsKey(TableCatalog.PROP_LOCATION)) {
      throw new TransformsException("LOCATION of output " + describe(output) + " is refused: an output lives where "
          + "its catalog puts it. Leave the location out.");
    }
  }

  @Override
  public org.apache.spark.sql.connector.catalog.Table alterTable(Identifier ident, TableChange... changes)
      throws NoSuchTableException {
    Optional<RunningOutputs> running = RunningOutputs.active();
    Optional<BoundOutput> output = running.flatMap(r -> r.output(name(), buildIdentifier(ident)));
    if (output.isEmpty()) {
      return super.alterTable(ident, changes);
    }
    Table table = running.get().staging().table(output.get()).orElseThrow(() -> new NoSuchTableException(ident));
    List<TableChange> properties = new ArrayList<>();
    List<TableChange> columns = new ArrayList<>();
    for (TableChange change : changes) {
      if (change instanceof TableChange.SetProperty set && RESERVED.contains(set.property().toLowerCase(Locale.ROOT))) {
        throw new TransformsException("ALTER TABLE on output " + describe(output.get()) + " cannot set '"
            + set.property() + "' while transform " + running.get().transform() + " runs: "
            + (set.property().equalsIgnoreCase("sort-order") ? "use ALTER TABLE ... WRITE ORDERED BY"
                : set.property().equalsIgnoreCase("identifier-fields") ? "use ALTER TABLE ... SET IDENTIFIER FIELDS"
                : "it would change the table outside the build's staging; do it outside the build"));
      } else if (change instanceof TableChange.SetProperty || change instanceof TableChange.RemoveProperty) {
        properties.add(change);
      } else if (change instanceof TableChange.ColumnChange) {
        columns.add(change);
      } else {
        throw new TransformsException("ALTER TABLE on output " + describe(output.get()) + ": unknown change " + change);
      }
    }
    org.apache.iceberg.Transaction transaction = table.newTransaction();
    if (!properties.isEmpty()) {
      Spark3Util.applyPropertyChanges(transaction.updateProperties(), properties).commit();
    }
    if (!columns.isEmpty()) {
      Spark3Util.applySchemaChanges(transaction.updateSchema(), columns).commit();
    }
    transaction.commitTransaction();
    return loadTable(ident);
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

  private void refuseIfStaged(Identifier ident, String operation) {
    Optional<RunningOutputs> running = RunningOutputs.active();
    if (running.flatMap(r -> r.output(name(), buildIdentifier(ident))).isPresent()) {
      throw new TransformsException(operation + " on " + describe(ident) + " is refused: it is an output of the "
          + "running transform " + running.get().transform() + ", and this operation would bypass its staging branch "
          + running.get().branch() + ", so it could not be undone if the transform fails. Drop, rename or "
          + "recreate the table outside the transform.");
    }
  }

  @Override
  String describe(Identifier ident) {
    return Spark3Util.quotedFullIdentifier(name(), ident);
  }

  private static String describe(BoundOutput output) {
    return output.parameter().requirePath() + " (" + output.resolved().sparkIdentifier() + ")";
  }

  /**
   * The branch the running transform writes an output on, when the identifier is one of its outputs
   * with a staged table (it existed before the run, or the run created it).
   *
   * @param ident an identifier in this catalog
   * @return the branch: the staging branch, or {@code main} of a new output; empty otherwise
   */
  @Override
  boolean isRunOutput(Identifier ident) {
    return RunningOutputs.active().flatMap(r -> r.output(name(), buildIdentifier(ident))).isPresent();
  }

  @Override
  Optional<String> stagedBranch(Identifier ident) {
    Optional<RunningOutputs> running = RunningOutputs.active();
    return running.flatMap(r -> r.output(name(), buildIdentifier(ident)))
        .filter(o -> running.get().staging().table(o).isPresent())
        .map(o -> running.get().staging().branch(o));
  }
}
