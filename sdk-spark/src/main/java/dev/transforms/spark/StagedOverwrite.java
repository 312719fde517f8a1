package dev.transforms.spark;

import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DeleteFiles;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.spark.CommitMetadata;
import org.apache.iceberg.spark.source.SparkTable;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;

/**
 * A staged output as Spark's atomic {@code CREATE TABLE AS SELECT} and {@code REPLACE TABLE AS SELECT}
 * write it. Spark expects a staged table to hold its changes until {@link #commitStagedChanges()};
 * the output's staging already does: a new output exists for the run only, and a replaced output has
 * its new shape staged and its rows written to the staging branch. So the rows go through the staged
 * table's own writer, a replace truncating the branch first ({@link ReplaceWrites}), and committing the "staged" changes adds
 * nothing; the runtime publishes it all when the transform returns, or throws it away.
 */
final class StagedOverwrite implements StagedTable, SupportsWrite {

  private final SparkTable staged;
  private final boolean replacing;
  private boolean written;

  /**
   * Wraps a staged output for one statement.
   *
   * @param staged the output's staged table, on the branch the run writes
   * @param replacing whether the statement replaces every row ({@code REPLACE}) rather than filling a
   *     new table
   */
  StagedOverwrite(SparkTable staged, boolean replacing) {
    this.staged = staged;
    this.replacing = replacing;
  }

  @Override
  public String name() {
    return staged.name();
  }

  @Override
  public StructType schema() {
    return staged.schema();
  }

  @Override
  public Transform[] partitioning() {
    return staged.partitioning();
  }

  @Override
  public Map<String, String> properties() {
    return staged.properties();
  }

  @Override
  public Set<TableCapability> capabilities() {
    return staged.capabilities();
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    WriteBuilder builder = staged.newWriteBuilder(info);
    written = true;
    return replacing ? ReplaceWrites.truncating(builder, staged.name()) : builder;
  }

  @Override
  public void commitStagedChanges() {
    staged.table().refresh();
    if (written || !replacing || staged.table().snapshot(staged.branch()) == null) {
      return;
    }
    // A replace without rows (CREATE OR REPLACE TABLE t (...)): empty the table the run writes.
    DeleteFiles delete = staged.table().newDelete().deleteFromRowFilter(Expressions.alwaysTrue())
        .toBranch(staged.branch());
    CommitMetadata.commitProperties().forEach(delete::set);
    delete.commit();
  }

  @Override
  public void abortStagedChanges() {
    // Nothing reached main; the runtime discards the run's staging if the transform fails.
  }

  @Override
  public String toString() {
    return "StagedOverwrite[" + staged + "]";
  }
}
