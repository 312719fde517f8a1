package dev.transforms.spark;

import dev.transforms.api.TransformsException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DeleteFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.spark.CommitMetadata;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;

/**
 * A replace of a staged output, carried out as an overwrite of all its rows on the staging branch.
 *
 * <p>Iceberg replaces a table in one transaction on {@code main}: schema, partitioning and data at
 * once, outside any branch. For an output of a running transform that would publish before the
 * transform ends. When the replacement keeps the table's schema and partitioning, replacing is the
 * same as overwriting every row, which a branch can hold: Spark writes the query through this table,
 * whose write builder truncates, and the staging branch receives one overwrite snapshot.
 */
final class StagedOverwrite implements StagedTable, SupportsWrite {

  private final org.apache.spark.sql.connector.catalog.Table delegate;
  private final Table table;
  private final String branch;
  private boolean written;

  private StagedOverwrite(org.apache.spark.sql.connector.catalog.Table delegate, Table table, String branch) {
    this.delegate = delegate;
    this.table = table;
    this.branch = branch;
  }

  /**
   * Checks that a replacement keeps the table's shape and returns the staged overwrite.
   *
   * @param delegate the Spark table of the output
   * @param table the Iceberg table of the output
   * @param branch the staging branch
   * @param schema the schema the statement asks for
   * @param partitions the partitioning the statement asks for
   * @param operation the statement, for messages
   * @return the staged table Spark writes through
   * @throws TransformsException listing what differs, when the replacement changes the table's shape
   */
  static StagedOverwrite create(org.apache.spark.sql.connector.catalog.Table delegate, Table table, String branch,
      StructType schema, Transform[] partitions, String operation) {
    List<String> problems = new ArrayList<>(SchemaCheck.differences(schema, delegate.schema(), true));
    List<String> wanted = Arrays.stream(partitions).map(Transform::describe).toList();
    List<String> current = Arrays.stream(delegate.partitioning()).map(Transform::describe).toList();
    if (!wanted.equals(current)) {
      problems.add("partitioning: table [" + String.join(", ", current) + "], statement ["
          + String.join(", ", wanted) + "]");
    }
    if (!problems.isEmpty()) {
      throw new TransformsException(operation + " of " + delegate.name() + " is refused: it is an output of the "
          + "running transform, and a replace that changes the table's schema or partitioning cannot be staged on "
          + "branch " + branch + " (Iceberg would commit it to main at once). What differs:\n  - "
          + String.join("\n  - ", problems) + "\nWrite rows that fit the table (select its columns, in its order), "
          + "or change the table's schema outside the transform.");
    }
    return new StagedOverwrite(delegate, table, branch);
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public StructType schema() {
    return delegate.schema();
  }

  @Override
  public Transform[] partitioning() {
    return delegate.partitioning();
  }

  @Override
  public Map<String, String> properties() {
    return delegate.properties();
  }

  @Override
  public Set<TableCapability> capabilities() {
    return delegate.capabilities();
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    if (!(delegate instanceof SupportsWrite writable)) {
      throw new TransformsException("Table " + delegate.name() + " does not support writes");
    }
    WriteBuilder builder = writable.newWriteBuilder(info);
    if (!(builder instanceof SupportsTruncate truncating)) {
      throw new TransformsException("Table " + delegate.name() + " cannot be overwritten on a branch");
    }
    written = true;
    return truncating.truncate();
  }

  @Override
  public void commitStagedChanges() {
    if (written) {
      return;
    }
    // A replace without rows (CREATE OR REPLACE TABLE t (...)): empty the staging branch.
    table.refresh();
    DeleteFiles delete = table.newDelete().deleteFromRowFilter(Expressions.alwaysTrue()).toBranch(branch);
    CommitMetadata.commitProperties().forEach(delete::set);
    delete.commit();
  }

  @Override
  public void abortStagedChanges() {
    // Nothing reached main; the runtime removes the staging branch if the transform fails.
  }
}
