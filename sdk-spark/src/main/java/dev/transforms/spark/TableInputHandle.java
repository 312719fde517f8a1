package dev.transforms.spark;

import dev.transforms.runtime.engine.BoundInput;
import java.time.Instant;
import java.util.OptionalLong;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** A {@code @TableInput} read as a table. */
final class TableInputHandle implements TableTransformInput {
  private final SparkSession session;
  private final BoundInput input;

  TableInputHandle(SparkSession session, BoundInput input) {
    this.session = session;
    this.input = input;
  }

  @Override
  public String identifier() {
    return input.resolved().sparkIdentifier();
  }

  @Override
  public String catalog() {
    return input.resolved().catalog();
  }

  @Override
  public String identifierLiteral() {
    return TableReads.literal(identifier());
  }

  @Override
  public Dataset<Row> dataframe() {
    OptionalLong current = input.currentSnapshotId();
    return current.isPresent() ? TableReads.atSnapshot(session, identifier(), current.getAsLong())
        : session.table(identifier());
  }

  @Override
  public Dataset<Row> dataframeAtSnapshot(long snapshotId) {
    return TableReads.atSnapshot(session, identifier(), snapshotId);
  }

  @Override
  public Dataset<Row> dataframeAsOf(long epochMillis) {
    return session.read().option("as-of-timestamp", Long.toString(epochMillis)).table(identifier());
  }

  @Override
  public Dataset<Row> dataframeAsOf(Instant instant) {
    return dataframeAsOf(instant.toEpochMilli());
  }

  @Override
  public OptionalLong currentSnapshotId() {
    return input.currentSnapshotId();
  }

  @Override
  public OptionalLong previousSnapshotId() {
    return input.previousSnapshotId();
  }

  @Override
  public String toString() {
    return "TableTransformInput[" + input.parameter().requirePath() + " -> " + identifier() + "]";
  }
}
