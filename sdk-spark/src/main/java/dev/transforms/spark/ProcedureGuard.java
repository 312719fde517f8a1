package dev.transforms.spark;

import dev.transforms.api.TransformsException;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.spark.Spark3Util;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * What the SDK allows of an Iceberg procedure while a transform runs: the same rules on every Spark
 * line. Each line's {@code GuardedProcedure} (in {@code src/main/spark-X.Y/java}) wraps Iceberg's
 * procedure in the procedure API of that line, and asks this guard for the arguments to call it with.
 */
final class ProcedureGuard {

  /** Procedures that read, or only expire snapshots and files no branch needs: safe on an output. */
  private static final Set<String> SAFE = Set.of("ancestors_of", "create_changelog_view", "expire_snapshots",
      "remove_orphan_files", "compute_table_stats", "compute_partition_stats");

  /** Procedures that take a branch argument and are sent to the staging branch. */
  private static final Set<String> ON_BRANCH = Set.of("rewrite_data_files");

  private final String name;
  private final String[] parameterNames;
  private final DataType[] parameterTypes;
  private final RoutingSparkCatalog catalog;

  /**
   * @param name the procedure's name, as called
   * @param parameterNames its parameters' names, in the order of the call's argument row
   * @param parameterTypes their types, in the same order
   * @param catalog the catalog the procedure was loaded from
   */
  ProcedureGuard(String name, String[] parameterNames, DataType[] parameterTypes, RoutingSparkCatalog catalog) {
    this.name = name;
    this.parameterNames = parameterNames.clone();
    this.parameterTypes = parameterTypes.clone();
    this.catalog = catalog;
  }

  /**
   * The arguments to call the procedure with: {@code args} itself, or, for a procedure that runs on a
   * branch, {@code args} with the staging branch of the running transform's output filled in.
   *
   * @param args the call's arguments, one per parameter
   * @return the arguments to pass on
   * @throws TransformsException when the call would commit to an output of the running transform directly
   */
  InternalRow check(InternalRow args) {
    int tableIndex = index("table");
    if (RunningOutputs.active().isEmpty() || tableIndex < 0 || args.isNullAt(tableIndex) || SAFE.contains(name)) {
      return args;
    }
    String tableName = args.getUTF8String(tableIndex).toString();
    Spark3Util.CatalogAndIdentifier target = Spark3Util.catalogAndIdentifier("table", SparkSession.active(),
        tableName, catalog);
    if (target.catalog() != catalog) {
      return args;
    }
    Optional<String> branch = catalog.stagedBranch(target.identifier());
    if (branch.isEmpty()) {
      return args;
    }
    int branchIndex = index("branch");
    if (ON_BRANCH.contains(name) && branchIndex >= 0) {
      if (args.isNullAt(branchIndex)) {
        return withValue(args, branchIndex, branch.get());
      }
      String asked = args.getUTF8String(branchIndex).toString();
      if (asked.equals(branch.get())) {
        return args;
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
    for (int i = 0; i < parameterNames.length; i++) {
      if (parameterNames[i].equalsIgnoreCase(parameter)) {
        return i;
      }
    }
    return -1;
  }

  private InternalRow withValue(InternalRow args, int index, String value) {
    Object[] values = new Object[parameterTypes.length];
    for (int i = 0; i < parameterTypes.length; i++) {
      values[i] = args.isNullAt(i) ? null : args.get(i, parameterTypes[i]);
    }
    values[index] = UTF8String.fromString(value);
    return new GenericInternalRow(values);
  }
}
