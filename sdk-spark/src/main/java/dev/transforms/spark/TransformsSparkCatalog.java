package dev.transforms.spark;

import dev.transforms.api.TransformsException;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.spark.Spark3Util;
import org.apache.iceberg.spark.SparkCatalog;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.iceberg.catalog.Procedure;
import org.apache.spark.sql.types.StructType;

/**
 * Iceberg's {@link SparkCatalog} with guards for the outputs of a running transform.
 *
 * <p>While a transform runs, its session sets {@code spark.wap.branch} to the build's staging branch
 * and each existing output table has that branch and {@code write.wap.enabled=true}: Iceberg then
 * sends every row-level and DataFrame write of the output to the branch. A few operations would still
 * commit to {@code main} directly, or replace the table whole, and so escape the all-or-nothing
 * publication. On a table that carries the active staging branch, this catalog:
 * <ul>
 *   <li>turns {@code CREATE OR REPLACE TABLE ... AS SELECT}, {@code REPLACE TABLE} and
 *       {@code writeTo(...).createOrReplace()/replace()} into an overwrite of every row on the
 *       staging branch, when the new schema and partitioning are those of the table; otherwise it
 *       refuses them, listing what differs;
 *   <li>refuses {@code DROP TABLE} and renames;
 *   <li>runs {@code rewrite_data_files} on the staging branch, lets read-only and snapshot-expiry
 *       procedures through, and refuses the procedures that commit to {@code main}.
 * </ul>
 * Tables without the active staging branch behave exactly as in {@link SparkCatalog}.
 */
public class TransformsSparkCatalog extends SparkCatalog {

  /** Creates the catalog; Spark does this. */
  public TransformsSparkCatalog() {}

  @Override
  public StagedTable stageCreateOrReplace(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) {
    Optional<Table> staged = stagedOutput(ident);
    if (staged.isPresent()) {
      return StagedOverwrite.create(loadSparkTable(ident), staged.get(), activeBranch().orElseThrow(), schema,
          partitions, "CREATE OR REPLACE");
    }
    return super.stageCreateOrReplace(ident, schema, partitions, properties);
  }

  @Override
  public StagedTable stageReplace(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws org.apache.spark.sql.catalyst.analysis.NoSuchTableException {
    Optional<Table> staged = stagedOutput(ident);
    if (staged.isPresent()) {
      return StagedOverwrite.create(loadSparkTable(ident), staged.get(), activeBranch().orElseThrow(), schema,
          partitions, "REPLACE");
    }
    return super.stageReplace(ident, schema, partitions, properties);
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
  public void renameTable(Identifier from, Identifier to)
      throws org.apache.spark.sql.catalyst.analysis.NoSuchTableException,
      org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException {
    refuseIfStaged(from, "ALTER TABLE ... RENAME TO");
    super.renameTable(from, to);
  }

  @Override
  public Procedure loadProcedure(Identifier ident)
      throws org.apache.spark.sql.catalyst.analysis.NoSuchProcedureException {
    return new GuardedProcedure(super.loadProcedure(ident), ident.name(), this);
  }

  private void refuseIfStaged(Identifier ident, String operation) {
    if (stagedOutput(ident).isPresent()) {
      throw new TransformsException(operation + " on " + describe(ident) + " is refused: it is an output of the "
          + "running transform, and this operation would bypass its staging branch "
          + activeBranch().orElse("") + ", so it could not be undone if the transform fails. Drop, rename or "
          + "recreate the table outside the transform.");
    }
  }

  private org.apache.spark.sql.connector.catalog.Table loadSparkTable(Identifier ident) {
    try {
      return loadTable(ident);
    } catch (org.apache.spark.sql.catalyst.analysis.NoSuchTableException e) {
      throw new TransformsException("Table " + describe(ident) + " disappeared: " + e.getMessage(), e);
    }
  }

  String describe(Identifier ident) {
    return Spark3Util.quotedFullIdentifier(name(), ident);
  }

  /**
   * The Iceberg table of an identifier, when it is an output of the running transform: the session
   * has a staging branch and the table carries it.
   *
   * @param ident an identifier in this catalog
   * @return the table, or empty
   */
  Optional<Table> stagedOutput(Identifier ident) {
    Optional<String> branch = activeBranch();
    if (branch.isEmpty()) {
      return Optional.empty();
    }
    Table table;
    try {
      table = icebergCatalog().loadTable(buildIdentifier(ident));
    } catch (NoSuchTableException | IllegalArgumentException e) {
      return Optional.empty();
    }
    boolean wap = Boolean.parseBoolean(table.properties().getOrDefault(TableProperties.WRITE_AUDIT_PUBLISH_ENABLED,
        "false"));
    return wap && table.refs().containsKey(branch.get()) ? Optional.of(table) : Optional.empty();
  }

  /**
   * The staging branch set in the active session, if a transform is running.
   *
   * @return the branch name
   */
  static Optional<String> activeBranch() {
    scala.Option<SparkSession> active = SparkSession.getActiveSession();
    scala.Option<SparkSession> chosen = active.isDefined() ? active : SparkSession.getDefaultSession();
    Optional<SparkSession> session = chosen.isDefined() ? Optional.of(chosen.get()) : Optional.empty();
    return session.flatMap(s -> Optional.ofNullable(s.conf().get(SparkSessions.WAP_BRANCH, null)))
        .filter(b -> !b.isEmpty());
  }
}
