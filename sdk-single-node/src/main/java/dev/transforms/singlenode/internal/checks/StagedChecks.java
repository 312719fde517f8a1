package dev.transforms.singlenode.internal.checks;

import dev.transforms.api.TransformsException;
import dev.transforms.runtime.CheckResult;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.spi.CheckSpec;
import dev.transforms.runtime.spi.StagedOutput;
import dev.transforms.singlenode.filter.RowFilter;
import dev.transforms.singlenode.internal.parquet.ParquetRowCursor;
import dev.transforms.singlenode.internal.read.LiveRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * Evaluates a single-node output's data expectations on what the transform staged, with the engine's
 * own reader ({@link LiveRows}), reading only the columns the checks name.
 *
 * <p>One pass over the staged snapshot evaluates every check: row-wise checks (not null, allowed
 * values, value range, predicate, the null part of a primary key) test each row, key checks (primary
 * key, unique) count keys in a hash table, and the row count counts rows (from file metadata alone
 * where a file has no deletes and nothing else reads it). For an incremental build that only
 * appended, row-wise checks read the appended files alone, and key checks collect the appended keys
 * first, then count only those keys in the staged table. Examples of violating rows are read in one
 * more pass, with every column, only for checks that failed.
 *
 * <p>A predicate ({@code @Satisfies}) is a filter string (see {@link RowFilter}) under SQL's
 * three-valued logic: a row violates it when it is false, not when it is unknown.
 */
public final class StagedChecks {

  private final StagedOutput output;
  private final Table table;
  private final Schema schema;
  private final DatasetPath path;

  private StagedChecks(StagedOutput output) {
    this.output = output;
    this.table = output.table();
    this.path = output.output().parameter().requirePath();
    Snapshot head = table.snapshot(output.stagedSnapshotId());
    Integer schemaId = head == null ? null : head.schemaId();
    Schema atHead = schemaId == null ? null : table.schemas().get(schemaId);
    this.schema = atHead == null ? table.schema() : atHead;
  }

  /**
   * Evaluates checks on a staged output.
   *
   * @param checks the checks; none of them engine-neutral ({@code HasColumn}, {@code Custom})
   * @return one result per check, in order
   */
  public static List<CheckResult> evaluate(StagedOutput output, List<CheckSpec> checks) {
    return new StagedChecks(output).run(checks);
  }

  private List<CheckResult> run(List<CheckSpec> checks) {
    Map<CheckSpec, CheckResult> results = new LinkedHashMap<>();
    List<RowRule> rowRules = new ArrayList<>();
    List<KeyRule> keyRules = new ArrayList<>();
    for (CheckSpec check : checks) {
      results.put(check, null);
      try {
        Expression violation = ViolationCondition.of(check, schema);
        if (violation != null) {
          boolean nullsOnly = check instanceof CheckSpec.NotNull || check instanceof CheckSpec.PrimaryKey;
          rowRules.add(new RowRule(check, violation, Binder.boundReferences(schema.asStruct(), List.of(violation),
              true), nullsOnly));
        }
        if (check instanceof CheckSpec.PrimaryKey || check instanceof CheckSpec.Unique) {
          keyRules.add(new KeyRule(check, check.columns().stream().map(c -> schema.findField(c).fieldId()).toList()));
        } else if (violation == null && !(check instanceof CheckSpec.RowCount)) {
          throw new IllegalArgumentException("a single-node output cannot evaluate " + check);
        }
      } catch (TransformsException | ValidationException | IllegalArgumentException e) {
        rowRules.removeIf(rule -> rule.check == check);
        results.put(check, new CheckResult(path, check.name(), check.level(), CheckResult.Outcome.ERROR, 0, List.of(),
            "cannot evaluate it: " + firstLine(e.getMessage())));
      }
    }

    long[] stagedRows = new long[1];
    if (output.appendedSince().isPresent()) {
      pass(appendedTasks(), rowRules, keyRules, false, null);
      pass(stagedTasks(), List.of(), keyRules, true, stagedRows);
    } else {
      pass(stagedTasks(), rowRules, keyRules, false, stagedRows);
    }

    for (RowRule rule : rowRules) {
      if (rule.violations > 0 && rule.examples.isEmpty()) {
        rule.examples.addAll(examples(rule.violation));
      }
    }
    for (CheckSpec check : checks) {
      if (results.get(check) != null) {
        continue;
      }
      if (check instanceof CheckSpec.RowCount rowCount) {
        results.put(check, rowCount(rowCount, stagedRows[0]));
        continue;
      }
      long violations = 0;
      List<String> examples = new ArrayList<>();
      for (RowRule rule : rowRules) {
        if (rule.check == check) {
          violations += rule.violations;
          examples.addAll(rule.examples);
        }
      }
      for (KeyRule rule : keyRules) {
        if (rule.check == check) {
          violations += rule.counts.duplicateRows();
          if (examples.isEmpty()) {
            examples.addAll(rule.counts.examples(CheckResult.EXAMPLES));
          }
        }
      }
      results.put(check, violations == 0
          ? new CheckResult(path, check.name(), check.level(), CheckResult.Outcome.PASSED, 0, List.of(), "")
          : new CheckResult(path, check.name(), check.level(), CheckResult.Outcome.FAILED, violations, examples, ""));
    }
    return new ArrayList<>(results.values());
  }

  /**
   * Reads the rows of some files once for the given rules.
   *
   * @param countAppendedKeys whether key rules count only the keys collected from appended rows
   * @param rows where to add the rows counted; null when nobody needs the count
   */
  private void pass(CloseableIterable<FileScanTask> tasks, List<RowRule> rowRules, List<KeyRule> keyRules,
      boolean countAppendedKeys, long[] rows) {
    try (tasks) {
      for (FileScanTask task : tasks) {
        List<RowRule> reading = new ArrayList<>();
        for (RowRule rule : rowRules) {
          OptionalLong known = rule.fromMetrics(task);
          if (known.isPresent()) {
            rule.violations += known.getAsLong();
          } else {
            reading.add(rule);
          }
        }
        if (reading.isEmpty() && keyRules.isEmpty()) {
          if (rows != null) {
            rows[0] += liveRowCount(task);
          }
          continue;
        }
        Set<Integer> ids = new LinkedHashSet<>();
        reading.forEach(rule -> ids.addAll(rule.fieldIds));
        keyRules.forEach(rule -> ids.addAll(rule.fieldIds));
        LiveRows live = LiveRows.of(table.io(), schema, task, TypeUtil.select(schema, ids));
        boolean evaluate = reading.stream().anyMatch(rule -> !rule.nullsOnly);
        ParquetRowCursor cursor = evaluate ? null : live.cursor();
        long count = cursor != null
            ? readWithCursor(live, cursor, reading, keyRules, countAppendedKeys)
            : readRecords(live, reading, keyRules, countAppendedKeys);
        if (rows != null) {
          rows[0] += count;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read the staged rows of " + path, e);
    }
  }

  /** Null and key checks on the engine's cursor: values are decoded only for the columns named. */
  private long readWithCursor(LiveRows live, ParquetRowCursor cursor, List<RowRule> rowRules, List<KeyRule> keyRules,
      boolean countAppendedKeys) {
    int[][] nullColumns = rowRules.stream().map(rule -> columns(live, rule.fieldIds)).toArray(int[][]::new);
    int[][] keyColumns = keyRules.stream().map(rule -> columns(live, rule.fieldIds)).toArray(int[][]::new);
    RowValues values = new RowValues() {
      @Override public Object get(int column) {
        return cursor.get(column);
      }

      @Override public boolean isNull(int column) {
        return cursor.hasLongValues(column) ? cursor.isNull(column) : cursor.get(column) == null;
      }

      @Override public long getLong(int column) {
        return cursor.hasLongValues(column) ? cursor.getLong(column) : ((Number) cursor.get(column)).longValue();
      }
    };
    long count = 0;
    try (cursor) {
      while (cursor.next()) {
        count += 1;
        for (int i = 0; i < nullColumns.length; i++) {
          for (int column : nullColumns[i]) {
            if (values.isNull(column)) {
              rowRules.get(i).violations += 1;
              break;
            }
          }
        }
        for (int i = 0; i < keyColumns.length; i++) {
          keyRules.get(i).add(values, keyColumns[i], countAppendedKeys);
        }
      }
    }
    return count;
  }

  /** Every check on generic records, row-wise checks through Iceberg's evaluator. */
  private long readRecords(LiveRows live, List<RowRule> rowRules, List<KeyRule> keyRules, boolean countAppendedKeys)
      throws IOException {
    Schema read = live.schema();
    InternalRecordWrapper wrapper = new InternalRecordWrapper(read.asStruct());
    List<Evaluator> evaluators = rowRules.stream().map(r -> new Evaluator(read.asStruct(), r.violation, true)).toList();
    int[][] keyColumns = keyRules.stream().map(rule -> columns(live, rule.fieldIds)).toArray(int[][]::new);
    Record[] current = new Record[1];
    RowValues values = new RowValues() {
      @Override public Object get(int column) {
        return current[0].get(column);
      }

      @Override public boolean isNull(int column) {
        return current[0].get(column) == null;
      }

      @Override public long getLong(int column) {
        return ((Number) current[0].get(column)).longValue();
      }
    };
    long count = 0;
    try (CloseableIterable<Record> records = live.records(true, false)) {
      for (Record record : records) {
        count += 1;
        current[0] = record;
        if (!evaluators.isEmpty()) {
          wrapper.wrap(record);
          for (int i = 0; i < evaluators.size(); i++) {
            if (evaluators.get(i).eval(wrapper)) {
              rowRules.get(i).violations += 1;
            }
          }
        }
        for (int i = 0; i < keyRules.size(); i++) {
          keyRules.get(i).add(values, keyColumns[i], countAppendedKeys);
        }
      }
    }
    return count;
  }

  private static int[] columns(LiveRows live, java.util.Collection<Integer> fieldIds) {
    return fieldIds.stream().mapToInt(live::columnIndex).toArray();
  }

  /** The values of the current row, as a cursor or a record holds them. */
  private interface RowValues {
    Object get(int column);

    boolean isNull(int column);

    long getLong(int column);
  }

  /** The live rows of a file: its record count, or, when deletes apply to it, the rows read. */
  private long liveRowCount(FileScanTask task) {
    if (task.deletes().isEmpty()) {
      return task.file().recordCount();
    }
    Types.NestedField first = schema.columns().get(0);
    long count = 0;
    LiveRows live = LiveRows.of(table.io(), schema, task, TypeUtil.select(schema, Set.of(first.fieldId())));
    try (CloseableIterable<Record> records = live.records(true, false)) {
      for (Record ignored : records) {
        count += 1;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read the staged rows of " + path, e);
    }
    return count;
  }

  /** Up to ten rows, with every column, that meet a violation condition. */
  private List<String> examples(Expression violation) {
    List<String> found = new ArrayList<>();
    CloseableIterable<FileScanTask> tasks = output.appendedSince().isPresent() ? appendedTasks() : stagedTasks();
    try (tasks) {
      for (FileScanTask task : tasks) {
        LiveRows live = LiveRows.of(table.io(), schema, task, schema);
        Evaluator evaluator = new Evaluator(live.schema().asStruct(), violation, true);
        InternalRecordWrapper wrapper = new InternalRecordWrapper(live.schema().asStruct());
        try (CloseableIterable<Record> records = live.records(true, false)) {
          for (Record record : records) {
            if (evaluator.eval(wrapper.wrap(record))) {
              List<Object> values = new ArrayList<>();
              for (int i = 0; i < schema.columns().size(); i++) {
                values.add(record.get(i));
              }
              found.add(describe(values));
              if (found.size() == CheckResult.EXAMPLES) {
                return found;
              }
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read the staged rows of " + path, e);
    }
    return found;
  }

  private CheckResult rowCount(CheckSpec.RowCount check, long count) {
    OptionalLong before = OptionalLong.empty();
    if (check.relative() && output.publishedSnapshotId().isPresent()) {
      long published = 0;
      try (CloseableIterable<FileScanTask> tasks =
          table.newScan().useSnapshot(output.publishedSnapshotId().getAsLong()).planFiles()) {
        for (FileScanTask task : tasks) {
          published += liveRowCount(task);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Could not read the published rows of " + path, e);
      }
      before = OptionalLong.of(published);
    }
    List<String> problems = check.problems(before, count);
    return problems.isEmpty()
        ? new CheckResult(path, check.name(), check.level(), CheckResult.Outcome.PASSED, 0, List.of(), "")
        : new CheckResult(path, check.name(), check.level(), CheckResult.Outcome.FAILED, 0, List.of(),
            String.join("; ", problems));
  }

  private CloseableIterable<FileScanTask> stagedTasks() {
    return table.newScan().useSnapshot(output.stagedSnapshotId()).includeColumnStats().planFiles();
  }

  private CloseableIterable<FileScanTask> appendedTasks() {
    return table.newIncrementalAppendScan().fromSnapshotExclusive(output.appendedSince().getAsLong())
        .toSnapshot(output.stagedSnapshotId()).includeColumnStats().planFiles();
  }

  /** The rows of the staged snapshot's data files as its summary counts them (deletes not subtracted). */
  private long stagedRecords() {
    Snapshot head = table.snapshot(output.stagedSnapshotId());
    String total = head == null || head.summary() == null ? null : head.summary().get("total-records");
    try {
      return total == null ? 0 : Long.parseLong(total);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** Values as a row is shown in examples: {@code [1,paid,5.00]}. */
  static String describe(List<Object> values) {
    return values.stream().map(String::valueOf).collect(Collectors.joining(",", "[", "]"));
  }

  private static String firstLine(String message) {
    String text = String.valueOf(message);
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }

  /** A row-wise check: the rows that meet its violation condition. */
  private static final class RowRule {
    final CheckSpec check;
    final Expression violation;
    final Set<Integer> fieldIds;
    /** Whether a row violates it exactly when one of its columns is null: no evaluator needed. */
    final boolean nullsOnly;
    long violations = 0;
    final List<String> examples = new ArrayList<>();

    RowRule(CheckSpec check, Expression violation, Set<Integer> fieldIds, boolean nullsOnly) {
      this.check = check;
      this.violation = violation;
      this.fieldIds = fieldIds;
      this.nullsOnly = nullsOnly;
    }

    /**
     * The violations in a file without deletes as its column metrics tell them, without reading
     * it: the null count of a single column, or none when every column has none.
     */
    OptionalLong fromMetrics(FileScanTask task) {
      if (!nullsOnly || !task.deletes().isEmpty() || task.file().nullValueCounts() == null) {
        return OptionalLong.empty();
      }
      Map<Integer, Long> nulls = task.file().nullValueCounts();
      if (fieldIds.size() == 1) {
        Long count = nulls.get(fieldIds.iterator().next());
        return count == null ? OptionalLong.empty() : OptionalLong.of(count);
      }
      for (int id : fieldIds) {
        Long count = nulls.get(id);
        if (count == null || count != 0) {
          return OptionalLong.empty();
        }
      }
      return OptionalLong.of(0);
    }
  }

  /** A key check: keys held by more than one row, rows with a null in the key left out. */
  private final class KeyRule {
    final CheckSpec check;
    final List<Integer> fieldIds;
    final boolean longKey;
    /** The keys of the appended rows, in an incremental build; the keys counted otherwise. */
    final KeyCounts appended;
    final KeyCounts counts;

    KeyRule(CheckSpec check, List<Integer> fieldIds) {
      this.check = check;
      this.fieldIds = fieldIds;
      long rows = stagedRecords();
      // An incremental build looks its appended keys up while it counts; a full one only counts.
      this.appended = KeyCounts.hashing(output.appendedSince().isPresent() ? Math.min(rows, 1 << 16) : 0);
      this.counts = output.appendedSince().isPresent() ? KeyCounts.hashing(0) : KeyCounts.sorting(rows);
      Type.TypeID type = schema.findType(fieldIds.get(0)).typeId();
      this.longKey = fieldIds.size() == 1 && (type == Type.TypeID.LONG || type == Type.TypeID.INTEGER);
    }

    void add(RowValues row, int[] positions, boolean countAppendedKeys) {
      KeyCounts target = output.appendedSince().isPresent() && !countAppendedKeys ? appended : counts;
      if (longKey) {
        if (!row.isNull(positions[0])) {
          long key = row.getLong(positions[0]);
          if (!countAppendedKeys || appended.contains(key)) {
            target.add(key);
          }
        }
        return;
      }
      Object key;
      if (positions.length == 1) {
        key = row.get(positions[0]);
        if (key == null) {
          return;
        }
      } else {
        List<Object> values = new ArrayList<>(positions.length);
        for (int position : positions) {
          Object value = row.get(position);
          if (value == null) {
            return;
          }
          values.add(value);
        }
        key = values;
      }
      if (!countAppendedKeys || appended.contains(key)) {
        target.add(key);
      }
    }
  }
}
