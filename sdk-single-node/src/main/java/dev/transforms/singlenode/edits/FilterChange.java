package dev.transforms.singlenode.edits;

import java.util.List;
import dev.transforms.singlenode.filter.SqlNulls;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.StrictMetricsEvaluator;
import org.apache.iceberg.types.Types;

/**
 * Deletes the rows that match a filter and, for an overwrite, adds new rows: the change behind
 * {@link RowEdits#delete} and {@link RowEdits#overwrite}.
 *
 * <p>A row matches when the filter is true for it under SQL's three-valued logic: a comparison with
 * a null value ({@code <}, {@code =}, {@code !=}, {@code IN}, {@code NOT IN}, {@code startsWith},
 * {@code notNaN}, ...) is unknown, {@code NOT} of unknown is unknown, and only rows for which the
 * filter is true are deleted. So {@code delete(notEqual("x", 5))} keeps rows where {@code x} is
 * null; {@code isNull("x")} selects them. (Iceberg's own {@code Evaluator} orders null below every
 * value instead; its metrics pruning follows SQL. The filter is rewritten once so that both agree:
 * negations are pushed down to the predicates and every comparison is guarded by {@code notNull}.)
 *
 * <p>A file whose partition or column metrics prove that every row matches is removed whole without
 * being read. Equality deletes, when the table asks for them, match on the table's identifier
 * fields; a table without identifier fields gets position deletes instead.
 */
final class FilterChange extends RowChange {
  private final String operation;
  private final Schema schema;
  private final Expression filter;
  private final List<Record> rowsToAppend;
  private final Set<Integer> referencedIds;
  private final StrictMetricsEvaluator allRowsMatch;

  FilterChange(String operation, Schema schema, Expression filter, List<Record> rowsToAppend) {
    this.operation = operation;
    this.schema = schema;
    this.filter = SqlNulls.nullsNeverMatch(filter);
    this.rowsToAppend = rowsToAppend;
    this.referencedIds = Binder.boundReferences(schema.asStruct(), List.of(this.filter), true);
    this.allRowsMatch = new StrictMetricsEvaluator(schema, this.filter, true);
  }

  @Override
  String operation() {
    return operation;
  }

  @Override
  Expression scanFilter() {
    return filter;
  }

  @Override
  Expression conflictFilter() {
    return filter;
  }

  @Override
  Set<Integer> requiredFieldIds() {
    return referencedIds;
  }

  @Override
  boolean affectsWholeFile(FileScanTask task) {
    return task.residual().op() == Expression.Operation.TRUE || allRowsMatch.eval(task.file());
  }

  /**
   * The filter itself, on the columns it references: exact, so the decider is asked only about the
   * rows it deletes. None when the filter references a nested field.
   */
  @Override
  RowProbe probe(Schema readSchema) {
    int[] positions = new int[referencedIds.size()];
    int next = 0;
    for (int id : referencedIds) {
      Types.NestedField field = readSchema.asStruct().field(id);
      if (field == null) {
        return null; // nested: not a column of its own in the read schema
      }
      positions[next++] = readSchema.columns().indexOf(field);
    }
    IntegralFilter integral = IntegralFilter.compile(readSchema.asStruct(), filter);
    RowDecider matches = matcher(readSchema, integral);
    return new RowProbe() {
      @Override
      public IntegralFilter integralFilter() {
        return integral;
      }

      @Override
      public int[] columns() {
        return positions;
      }

      @Override
      public boolean mightConcern(Record row) {
        return matches.drop(row);
      }

      @Override
      public boolean exact() {
        return true; // the decider is the same filter
      }
    };
  }

  @Override
  RowDecider decider(Schema readSchema, DataFile file) {
    return matcher(readSchema, IntegralFilter.compile(readSchema.asStruct(), filter));
  }

  /**
   * Whether a row of the read schema matches the filter: on the column's value itself for a filter of
   * one integral column ({@link IntegralFilter}, compiled or null), otherwise through Iceberg's
   * {@code Evaluator}.
   */
  private RowDecider matcher(Schema readSchema, IntegralFilter integral) {
    if (integral != null) {
      int position = readSchema.columns().indexOf(readSchema.asStruct().field(integral.fieldId()));
      if (position >= 0) {
        return row -> integral.test(row.get(position));
      }
    }
    Evaluator evaluator = new Evaluator(readSchema.asStruct(), filter, true);
    InternalRecordWrapper wrapper = new InternalRecordWrapper(readSchema.asStruct());
    return row -> evaluator.eval(wrapper.wrap(row));
  }

  @Override
  void reset(boolean equalityDeletes) {}

  @Override
  long addRows(NewRows out) {
    rowsToAppend.forEach(row -> out.add(row, null));
    return rowsToAppend.size();
  }

  @Override
  int[] equalityFieldIds() {
    Set<Integer> identifiers = schema.identifierFieldIds();
    boolean allTopLevel = identifiers.stream().allMatch(id -> schema.asStruct().field(id) != null);
    // without identifier fields, or with nested ones, deletes fall back to positions
    return identifiers.isEmpty() || !allTopLevel
        ? null
        : identifiers.stream().mapToInt(Integer::intValue).toArray();
  }
}
