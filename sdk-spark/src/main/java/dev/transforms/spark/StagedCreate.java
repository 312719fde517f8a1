package dev.transforms.spark;

import java.util.Map;
import java.util.Set;
import org.apache.iceberg.spark.source.SparkTable;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;

/**
 * The new output of a running transform, as a {@code CREATE TABLE ... AS SELECT} or
 * {@code writeTo(...).create()} writes it: the table already exists, empty on {@code main}, and the
 * rows go to its staging branch. Committing the "staged" creation does nothing more; the runtime
 * publishes the branch when the transform returns, or drops the table if it throws.
 */
final class StagedCreate implements StagedTable, SupportsWrite {

  private final SparkTable onBranch;

  StagedCreate(SparkTable onBranch) {
    this.onBranch = onBranch;
  }

  @Override
  public String name() {
    return onBranch.name();
  }

  @Override
  public StructType schema() {
    return onBranch.schema();
  }

  @Override
  public Transform[] partitioning() {
    return onBranch.partitioning();
  }

  @Override
  public Map<String, String> properties() {
    return onBranch.properties();
  }

  @Override
  public Set<TableCapability> capabilities() {
    return onBranch.capabilities();
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return onBranch.newWriteBuilder(info);
  }

  @Override
  public void commitStagedChanges() {
    // The rows are committed to the staging branch by the write itself.
  }

  @Override
  public void abortStagedChanges() {
    // The runtime drops the table when the transform fails; a dead build's table is dropped by the next.
  }

  @Override
  public String toString() {
    return "StagedCreate[" + onBranch + "]";
  }
}
