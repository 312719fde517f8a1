package dev.transforms.spark;

import java.util.Optional;
import org.apache.iceberg.spark.SparkCatalog;
import org.apache.spark.sql.catalyst.analysis.NoSuchProcedureException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.iceberg.catalog.Procedure;

/**
 * Iceberg's catalog with the entry points that differ between Spark lines routed to what
 * {@link TransformsSparkCatalog} (which extends this class) does on every line. Spark 3.5: procedures
 * pass a {@link ProcedureGuard} (Iceberg serves them through its own {@code ProcedureCatalog}, whose
 * {@code loadProcedure} returns Iceberg's {@code Procedure}); Spark creates and replaces tables through
 * the {@code StructType} methods, which {@link TransformsSparkCatalog} overrides, so nothing else is routed.
 */
abstract class RoutingSparkCatalog extends SparkCatalog {

  @Override
  public Procedure loadProcedure(Identifier ident) throws NoSuchProcedureException {
    return new GuardedProcedure(super.loadProcedure(ident), ident.name(), this);
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
