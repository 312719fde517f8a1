package dev.transforms.spark;

import dev.transforms.api.TransformsException;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.spi.BoundInput;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import org.apache.iceberg.HistoryEntry;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;
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

  /** The Iceberg table this input resolved to. */
  Table table() {
    return input.table().orElseThrow();
  }

  /**
   * The table's identifier, read at the branch this build reads it at: the table itself on {@code main},
   * its {@code branch_NAME} on a branch build that reads the input at branch {@code NAME}.
   */
  @Override
  public String identifier() {
    return input.branch().equals(SnapshotRef.MAIN_BRANCH) ? tableIdentifier()
        : tableIdentifier() + "." + ResolvedTable.quote("branch_" + input.branch());
  }

  /** The table itself, for reads pinned to a snapshot id (which a branch identifier does not take). */
  private String tableIdentifier() {
    return input.resolved().sparkIdentifier();
  }

  @Override
  public String catalog() {
    return input.resolved().catalog();
  }

  @Override
  public String identifierLiteral() {
    return TableReads.literal(tableIdentifier());
  }

  @Override
  public Dataset<Row> dataframe() {
    OptionalLong current = input.currentSnapshotId();
    return current.isPresent() ? TableReads.atSnapshot(session, tableIdentifier(), current.getAsLong())
        : session.table(identifier());
  }

  @Override
  public Dataset<Row> dataframeAtSnapshot(long snapshotId) {
    input.table().ifPresent(table -> {
      if (table.snapshot(snapshotId) == null) {
        throw new TransformsException("Input " + input.parameter().requirePath() + " (" + identifier()
            + ") has no snapshot " + snapshotId + " to read: it was expired, or belongs to another table; "
            + describeHistory(table));
      }
    });
    return TableReads.atSnapshot(session, tableIdentifier(), snapshotId);
  }

  @Override
  public Dataset<Row> dataframeAsOf(long epochMillis) {
    // Resolved here rather than by Spark's as-of-timestamp option, whose error does not say which input.
    Table table = input.table().orElseThrow();
    long snapshot;
    try {
      snapshot = SnapshotUtil.snapshotIdAsOfTime(table, epochMillis);
    } catch (IllegalArgumentException e) {
      throw new TransformsException("Input " + input.parameter().requirePath() + " (" + identifier()
          + ") has no snapshot at or before " + Instant.ofEpochMilli(epochMillis) + " to travel back to; "
          + describeHistory(table) + ". Older snapshots were expired, or the table did not exist yet", e);
    }
    return TableReads.atSnapshot(session, tableIdentifier(), snapshot);
  }

  /** When the history of a table's main branch starts. */
  private static String describeHistory(Table table) {
    List<HistoryEntry> history = table.history();
    return history.isEmpty() ? "the table has no snapshot yet"
        : "its history starts at " + Instant.ofEpochMilli(history.get(0).timestampMillis()) + " (snapshot "
            + history.get(0).snapshotId() + ")";
  }

  @Override
  public Dataset<Row> dataframeAsOf(Instant instant) {
    return dataframeAsOf(instant.toEpochMilli());
  }

  @Override
  public Dataset<Row> changes() {
    Table table = input.table().orElseThrow();
    return changes(table.schema().identifierFieldNames().toArray(String[]::new));
  }

  @Override
  public Dataset<Row> changes(String... identifierColumns) {
    Table table = input.table().orElseThrow();
    for (String column : identifierColumns) {
      if (table.schema().findField(column) == null) {
        throw new TransformsException("Identifier column '" + column + "' is not a column of input "
            + input.parameter().requirePath() + " (" + identifier() + ")");
      }
    }
    if (input.currentSnapshotId().isEmpty()) {
      return SparkChanges.between(session, tableIdentifier(), table, OptionalLong.empty(), -1L,
          List.of(identifierColumns));
    }
    return SparkChanges.between(session, tableIdentifier(), table,
        input.readsAdded() ? input.previousSnapshotId() : OptionalLong.empty(),
        input.currentSnapshotId().getAsLong(), List.of(identifierColumns));
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
