package dev.transforms.testing;

import dev.transforms.runtime.Counts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.assertj.core.api.AbstractAssert;

/**
 * AssertJ assertions on an Iceberg {@link Table}: rows, schema, partition spec, snapshots and
 * properties. Start with {@link TransformsAssertions#assertThatTable(Table)}.
 *
 * <p>Row comparisons ignore order and show only the rows that differ, expected against actual.
 */
public final class TableAssert extends AbstractAssert<TableAssert, Table> {

  private static final int SHOWN = 20;

  TableAssert(Table actual) {
    super(actual, TableAssert.class);
  }

  /**
   * Checks that the table's current rows are exactly the given rows, in any order (duplicates count).
   *
   * <pre>{@code
   * assertThatTable(table).containsExactlyInAnyOrder(Row.of(1L, "a"), Row.of(2L, "b"));
   * }</pre>
   *
   * @param expected the rows, values in column order as Iceberg's generic data holds them
   * @return this assertion
   * @throws IllegalArgumentException if {@code expected} is null
   */
  public TableAssert containsExactlyInAnyOrder(Row... expected) {
    isNotNull();
    if (expected == null) {
      throw new IllegalArgumentException("The expected rows must not be null; pass no rows to expect an empty table");
    }
    actual.refresh();
    compareRows(Arrays.asList(expected), TableRows.read(actual, null), actual.schema(), "");
    return myself;
  }

  /**
   * Checks the rows of the table as of a snapshot, in any order. The rows are read in the columns of
   * the schema the snapshot was written with, as Iceberg's time travel reads them: a snapshot from
   * before a column was added has rows without it.
   *
   * <pre>{@code
   * assertThatTable(table).containsExactlyInAnyOrderAtSnapshot(firstSnapshotId, Row.of(1L, "a"));
   * }</pre>
   *
   * @param snapshotId the snapshot to read
   * @param expected the rows
   * @return this assertion
   */
  public TableAssert containsExactlyInAnyOrderAtSnapshot(long snapshotId, Row... expected) {
    isNotNull();
    if (actual.snapshot(snapshotId) == null) {
      throw failure("Expecting table %s to have snapshot %d, but it has %s", actual.name(), snapshotId, snapshotIds());
    }
    compareRows(Arrays.asList(expected), TableRows.read(actual, snapshotId), TableRows.schemaAt(actual, snapshotId),
        " at snapshot " + snapshotId);
    return myself;
  }

  private void compareRows(List<Row> expected, List<Row> rows, Schema schema, String at) {
    Map<Row, Integer> remaining = new HashMap<>();
    rows.forEach(r -> remaining.merge(r, 1, Integer::sum));
    List<Row> missing = new ArrayList<>();
    for (Row row : expected) {
      Integer count = remaining.get(row);
      if (count == null) {
        missing.add(row);
      } else if (count == 1) {
        remaining.remove(row);
      } else {
        remaining.put(row, count - 1);
      }
    }
    List<Row> unexpected = new ArrayList<>();
    remaining.forEach((row, count) -> {
      for (int i = 0; i < count; i++) {
        unexpected.add(row);
      }
    });
    if (missing.isEmpty() && unexpected.isEmpty()) {
      return;
    }
    StringBuilder message = new StringBuilder();
    message.append(String.format("Expecting table %s%s to contain exactly %s in any order (columns %s), "
        + "but it has %s:%n", actual.name(), at, Counts.of(expected.size(), "row"), columnNames(schema),
        Counts.of(rows.size(), "row")));
    section(message, "expected but not found", missing);
    section(message, "found but not expected", unexpected);
    throw failure(message.toString().stripTrailing());
  }

  private static void section(StringBuilder message, String title, List<Row> rows) {
    if (rows.isEmpty()) {
      return;
    }
    message.append("  ").append(title).append(" (").append(rows.size()).append("):\n");
    rows.stream().limit(SHOWN).forEach(r -> message.append("    ").append(r).append('\n'));
    if (rows.size() > SHOWN) {
      message.append("    ... and ").append(rows.size() - SHOWN).append(" more\n");
    }
  }

  /**
   * Checks the table's columns, by name and in order.
   *
   * <pre>{@code
   * assertThatTable(table).hasColumns("id", "as_of", "status");
   * }</pre>
   *
   * @param names the expected column names
   * @return this assertion
   */
  public TableAssert hasColumns(String... names) {
    isNotNull();
    List<String> actualNames = columnNames(actual.schema());
    if (!actualNames.equals(List.of(names))) {
      throw failureWithActualExpected(actualNames, List.of(names), "Expecting table %s to have columns %s but it has %s",
          actual.name(), List.of(names), actualNames);
    }
    return myself;
  }

  /**
   * Checks the table's schema, ignoring field ids: same names, types, nullability and order.
   *
   * <pre>{@code
   * assertThatTable(table).hasSchema(new Schema(required(1, "id", LongType.get())));
   * }</pre>
   *
   * @param expected the expected schema
   * @return this assertion
   */
  public TableAssert hasSchema(Schema expected) {
    isNotNull();
    if (!actual.schema().sameSchema(expected) && !describe(actual.schema()).equals(describe(expected))) {
      throw failureWithActualExpected(describe(actual.schema()), describe(expected),
          "Expecting table %s to have schema%n  %s%nbut it has%n  %s", actual.name(), describe(expected),
          describe(actual.schema()));
    }
    return myself;
  }

  /**
   * Checks the table's partition fields, each written as {@code transform(column)}, such as
   * {@code "day(created_at)"} or {@code "identity(region)"}; none for an unpartitioned table.
   *
   * <pre>{@code
   * assertThatTable(table).isPartitionedBy("day(created_at)");
   * }</pre>
   *
   * @param fields the expected partition fields, in order
   * @return this assertion
   */
  public TableAssert isPartitionedBy(String... fields) {
    isNotNull();
    List<String> actualFields = new ArrayList<>();
    for (PartitionField field : actual.spec().fields()) {
      actualFields.add(field.transform() + "(" + actual.schema().findColumnName(field.sourceId()) + ")");
    }
    if (!actualFields.equals(List.of(fields))) {
      throw failureWithActualExpected(actualFields, List.of(fields),
          "Expecting table %s to be partitioned by %s but it is partitioned by %s", actual.name(), List.of(fields),
          actualFields);
    }
    return myself;
  }

  /**
   * Checks the number of snapshots in the table's history.
   *
   * <pre>{@code
   * assertThatTable(table).hasSnapshotCount(2);
   * }</pre>
   *
   * @param expected the expected number
   * @return this assertion
   */
  public TableAssert hasSnapshotCount(int expected) {
    isNotNull();
    actual.refresh();
    int count = snapshotIds().size();
    if (count != expected) {
      throw failureWithActualExpected(count, expected, "Expecting table %s to have %s but it has %d: %s",
          actual.name(), Counts.of(expected, "snapshot"), count,
          operations());
    }
    return myself;
  }

  /**
   * Checks the operation of the current snapshot ({@code append}, {@code overwrite}, {@code delete},
   * {@code replace}).
   *
   * <pre>{@code
   * assertThatTable(table).currentSnapshotHasOperation("append");
   * }</pre>
   *
   * @param operation the expected operation
   * @return this assertion
   */
  public TableAssert currentSnapshotHasOperation(String operation) {
    Snapshot current = current();
    if (!Objects.equals(current.operation(), operation)) {
      throw failureWithActualExpected(current.operation(), operation,
          "Expecting the current snapshot of table %s to be '%s' but it is '%s' (history: %s)",
          actual.name(), operation, current.operation(), operations());
    }
    return myself;
  }

  /**
   * Checks a value of the current snapshot's summary.
   *
   * <pre>{@code
   * assertThatTable(table).currentSnapshotSummaryContains("added-records", "2");
   * }</pre>
   *
   * @param key a summary key, such as {@code added-records} or {@code transforms.build-id}
   * @param value the expected value
   * @return this assertion
   */
  public TableAssert currentSnapshotSummaryContains(String key, String value) {
    Snapshot current = current();
    String actualValue = current.summary().get(key);
    if (!Objects.equals(actualValue, value)) {
      throw failureWithActualExpected(actualValue, value,
          "Expecting the current snapshot of table %s to have summary %s=%s but it has %s", actual.name(),
          key, value, actualValue == null ? "no " + key + " (keys: " + current.summary().keySet() + ")"
              : key + "=" + actualValue);
    }
    return myself;
  }

  /**
   * Checks a table property.
   *
   * <pre>{@code
   * assertThatTable(table).hasProperty("write.delete.mode", "merge-on-read");
   * }</pre>
   *
   * @param key the property
   * @param value the expected value
   * @return this assertion
   */
  public TableAssert hasProperty(String key, String value) {
    isNotNull();
    String actualValue = actual.properties().get(key);
    if (!Objects.equals(actualValue, value)) {
      throw failureWithActualExpected(actualValue, value, "Expecting table %s to have property %s=%s but %s",
          actual.name(), key, value,
          actualValue == null ? "it is not set" : "it is " + actualValue);
    }
    return myself;
  }

  private Snapshot current() {
    isNotNull();
    actual.refresh();
    Snapshot current = actual.currentSnapshot();
    if (current == null) {
      throw failure("Expecting table %s to have a current snapshot, but it has none", actual.name());
    }
    return current;
  }

  private List<Long> snapshotIds() {
    List<Long> ids = new ArrayList<>();
    actual.snapshots().forEach(s -> ids.add(s.snapshotId()));
    return ids;
  }

  private List<String> operations() {
    List<String> operations = new ArrayList<>();
    actual.snapshots().forEach(s -> operations.add(s.operation()));
    return operations;
  }

  private static List<String> columnNames(Schema schema) {
    return schema.columns().stream().map(Types.NestedField::name).toList();
  }

  private static String describe(Schema schema) {
    return schema.columns().stream()
        .map(f -> f.name() + " " + f.type() + (f.isRequired() ? " not null" : ""))
        .collect(Collectors.joining(", "));
  }
}
