package dev.transforms.spark;

import java.util.Optional;
import org.apache.iceberg.spark.SparkCatalog;
import org.apache.spark.sql.catalyst.analysis.NoSuchProcedureException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.iceberg.catalog.Procedure;

/**
 * Spark 3.5: Iceberg's catalog whose procedures pass a {@link ProcedureGuard}. On this line Iceberg
 * serves procedures through its own {@code ProcedureCatalog} ({@code loadProcedure} returns Iceberg's
 * {@code Procedure}); {@link TransformsSparkCatalog} extends this class and says which tables are staged.
 */
abstract class GuardedProceduresCatalog extends SparkCatalog {

  @Override
  public Procedure loadProcedure(Identifier ident) throws NoSuchProcedureException {
    return new GuardedProcedure(super.loadProcedure(ident), ident.name(), this);
  }

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
