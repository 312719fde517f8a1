package dev.transforms.singlenode.edits;

import org.apache.iceberg.RowLevelOperationMode;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Expression;

/**
 * What {@link RowEdits} checks of an edit before it runs: the table's row-level mode property and the
 * filter, each refused with a message that names the value and the fix.
 */
final class EditArguments {

  private EditArguments() {}

  /** The row-level mode a table property sets; copy-on-write when unset. */
  static RowLevelOperationMode mode(Table table, String property) {
    String value = table.properties().get(property);
    if (value == null) {
      return RowLevelOperationMode.COPY_ON_WRITE;
    }
    try {
      return RowLevelOperationMode.fromName(value);
    } catch (IllegalArgumentException e) {
      throw new InvalidRowEditException(
          String.format(
              "Table %s has %s=%s; set it to 'copy-on-write' or 'merge-on-read'",
              table.name(), property, value),
          e);
    }
  }

  /** Refuses a missing filter, or one that does not bind to the table's columns, naming them. */
  static void checkFilter(Table table, Expression filter, Schema schema, String operation) {
    if (filter == null) {
      throw new InvalidRowEditException(
          "No filter given for "
              + operation
              + " on table "
              + table.name()
              + "; pass Expressions.alwaysTrue() to match every row");
    }
    try {
      Binder.bind(schema.asStruct(), filter, true);
    } catch (ValidationException e) {
      throw new InvalidRowEditException(
          String.format(
              "Filter %s of %s does not fit table %s: %s. The table has columns %s",
              filter,
              operation,
              table.name(),
              e.getMessage().split("\n", 2)[0],
              SourceRows.describe(schema.columns())),
          e);
    }
  }
}
