package dev.transforms.spark;

import java.util.Optional;
import org.apache.iceberg.spark.SparkCatalog;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableInfo;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;

/**
 * Iceberg's catalog with the entry points that differ between Spark lines routed to what
 * {@link TransformsSparkCatalog} (which extends this class) does on every line. Spark 4.1:
 * <ul>
 *   <li>procedures pass a {@link ProcedureGuard}: Iceberg serves them through Spark's own
 *       {@code ProcedureCatalog}, whose {@code loadProcedure} returns an {@link UnboundProcedure};
 *   <li>Spark creates and replaces tables through the {@link TableInfo} methods, which Iceberg implements
 *       on this line without calling the {@code StructType} ones: for an output of the running transform
 *       they go to {@link TransformsSparkCatalog}'s {@code StructType} methods (a CTAS or
 *       {@code createOrReplace()} would otherwise commit to {@code main}); other tables go to Iceberg's.
 * </ul>
 */
abstract class RoutingSparkCatalog extends SparkCatalog {

  @Override
  public UnboundProcedure loadProcedure(Identifier ident) {
    return new GuardedProcedure(super.loadProcedure(ident), ident.name(), this);
  }

  @Override
  public Table createTable(Identifier ident, TableInfo info) throws TableAlreadyExistsException {
    if (isRunOutput(ident)) {
      return createTable(ident, info.schema(), info.partitions(), info.properties());
    }
    return super.createTable(ident, info);
  }

  @Override
  public StagedTable stageCreate(Identifier ident, TableInfo info) throws TableAlreadyExistsException {
    if (isRunOutput(ident)) {
      return stageCreate(ident, info.schema(), info.partitions(), info.properties());
    }
    return super.stageCreate(ident, info);
  }

  @Override
  public StagedTable stageReplace(Identifier ident, TableInfo info) throws NoSuchTableException {
    if (isRunOutput(ident)) {
      return stageReplace(ident, info.schema(), info.partitions(), info.properties());
    }
    return super.stageReplace(ident, info);
  }

  @Override
  public StagedTable stageCreateOrReplace(Identifier ident, TableInfo info) {
    if (isRunOutput(ident)) {
      return stageCreateOrReplace(ident, info.schema(), info.partitions(), info.properties());
    }
    return super.stageCreateOrReplace(ident, info);
  }

  /**
   * @param ident an identifier in this catalog
   * @return whether it names an output of the running transform
   */
  abstract boolean isRunOutput(Identifier ident);

  /**
   * The staging branch of an output of the running transform.
   *
   * @param ident an identifier in this catalog
   * @return the branch writes to it go to; empty when it is not a staged output
   */
  abstract Optional<String> stagedBranch(Identifier ident);

  /**
   * @param ident an identifier in this catalog
   * @return its quoted full name, for messages
   */
  abstract String describe(Identifier ident);
}
