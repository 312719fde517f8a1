package dev.transforms.spark;

import dev.transforms.api.TransformsException;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.spark.Spark3Util;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.iceberg.catalog.Procedure;
import org.apache.spark.sql.connector.iceberg.catalog.ProcedureParameter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * An Iceberg procedure that respects the staging branch of a running transform's outputs: see
 * {@link TransformsSparkCatalog}.
 */
final class GuardedProcedure implements Procedure {

  /** Procedures that read, or only expire snapshots and files no branch needs: safe on an output. */
  private static final Set<String> SAFE = Set.of("ancestors_of", "create_changelog_view", "expire_snapshots",
      "remove_orphan_files", "compute_table_stats", "compute_partition_stats");

  /** Procedures that take a branch argument and are sent to the staging branch. */
  private static final Set<String> ON_BRANCH = Set.of("rewrite_data_files");

  private final Procedure delegate;
  private final String name;
  private final TransformsSparkCatalog catalog;

  GuardedProcedure(Procedure delegate, String name, TransformsSparkCatalog catalog) {
    this.delegate = delegate;
    this.name = name;
    this.catalog = catalog;
  }

  @Override
  public ProcedureParameter[] parameters() {
    return delegate.parameters();
  }

  @Override
  public StructType outputType() {
    return delegate.outputType();
  }

  @Override
  public String description() {
    return delegate.description();
  }

  @Override
  public InternalRow[] call(InternalRow args) {
    int tableIndex = index("table");
    if (RunningOutputs.active().isEmpty() || tableIndex < 0 || args.isNullAt(tableIndex) || SAFE.contains(name)) {
      return delegate.call(args);
    }
    String tableName = args.getUTF8String(tableIndex).toString();
    Spark3Util.CatalogAndIdentifier target = Spark3Util.catalogAndIdentifier("table", SparkSession.active(),
        tableName, catalog);
    if (target.catalog() != catalog) {
      return delegate.call(args);
    }
    Optional<String> branch = catalog.stagedBranch(target.identifier());
    if (branch.isEmpty()) {
      return delegate.call(args);
    }
    int branchIndex = index("branch");
    if (ON_BRANCH.contains(name) && branchIndex >= 0) {
      if (args.isNullAt(branchIndex)) {
        return delegate.call(withValue(args, branchIndex, branch.get()));
      }
      String asked = args.getUTF8String(branchIndex).toString();
      if (asked.equals(branch.get())) {
        return delegate.call(args);
      }
    }
    throw new TransformsException("CALL " + catalog.name() + ".system." + name + " on "
        + catalog.describe(target.identifier()) + " is refused: the table is an output of the running transform, "
        + "and this procedure would commit to the table directly, bypassing the staging (branch "
        + branch.get() + ") that is published only if the transform succeeds. Run it outside the transform. "
        + "Allowed on outputs: rewrite_data_files (runs on the staging branch), " + String.join(", ",
            SAFE.stream().sorted().toList()) + ".");
  }

  private int index(String parameter) {
    ProcedureParameter[] parameters = delegate.parameters();
    for (int i = 0; i < parameters.length; i++) {
      if (parameters[i].name().equalsIgnoreCase(parameter)) {
        return i;
      }
    }
    return -1;
  }

  private InternalRow withValue(InternalRow args, int index, String value) {
    ProcedureParameter[] parameters = delegate.parameters();
    Object[] values = new Object[parameters.length];
    for (int i = 0; i < parameters.length; i++) {
      values[i] = args.isNullAt(i) ? null : args.get(i, parameters[i].dataType());
    }
    values[index] = UTF8String.fromString(value);
    return new GenericInternalRow(values);
  }
}
