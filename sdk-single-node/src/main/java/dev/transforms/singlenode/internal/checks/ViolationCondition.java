package dev.transforms.singlenode.internal.checks;

import dev.transforms.runtime.spi.CheckSpec;
import dev.transforms.singlenode.filter.RowFilter;
import dev.transforms.singlenode.filter.SqlNulls;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Type;

/**
 * A row-wise check as the condition a violating row meets: a filter string (see {@link RowFilter}) built
 * from the check's columns and values, typed by the output's schema and rewritten for SQL's three-valued
 * logic, so that a row whose value is unknown (a null compared) violates nothing.
 */
final class ViolationCondition {

  private ViolationCondition() {}

  /**
   * The condition a violating row meets, typed by the output's schema and rewritten for SQL's
   * three-valued logic; null for checks that count keys or rows instead.
   */
  static Expression of(CheckSpec check, Schema schema) {
    if (check instanceof CheckSpec.NotNull || check instanceof CheckSpec.PrimaryKey) {
      Expression anyNull = Expressions.alwaysFalse();
      for (String column : check.columns()) {
        anyNull = Expressions.or(anyNull, Expressions.isNull(column));
      }
      return anyNull;
    }
    if (check instanceof CheckSpec.AllowedValues allowed) {
      String values = allowed.values().stream().map(v -> literal(allowed.column(), v, schema))
          .collect(Collectors.joining(", "));
      return SqlNulls.nullsNeverMatch(
          RowFilter.parse(column(allowed.column(), schema) + " NOT IN (" + values + ")", schema));
    }
    if (check instanceof CheckSpec.ValueRange range) {
      List<String> outside = new ArrayList<>();
      if (!range.min().isEmpty()) {
        outside.add(column(range.column(), schema) + " < " + literal(range.column(), range.min(), schema));
      }
      if (!range.max().isEmpty()) {
        outside.add(column(range.column(), schema) + " > " + literal(range.column(), range.max(), schema));
      }
      return outside.isEmpty() ? Expressions.alwaysFalse()
          : SqlNulls.nullsNeverMatch(RowFilter.parse(String.join(" OR ", outside), schema));
    }
    if (check instanceof CheckSpec.Satisfies satisfies) {
      // A row violates the predicate when it is false; unknown (a null compared) is no violation.
      return SqlNulls.nullsNeverMatch(Expressions.not(RowFilter.parse(satisfies.predicate(), schema)));
    }
    return null;
  }

  /** A column name as a filter string names it: quoted, unless it is the dotted path of a nested field. */
  private static String column(String name, Schema schema) {
    boolean nested = name.contains(".") && schema.asStruct().field(name) == null;
    return nested ? name : "\"" + name.replace("\"", "\"\"") + "\"";
  }

  /** A value as written in an annotation, as a filter-string literal of its column's type. */
  private static String literal(String column, String text, Schema schema) {
    Type type = schema.findType(column);
    switch (type.typeId()) {
      case BOOLEAN:
      case INTEGER:
      case LONG:
      case FLOAT:
      case DOUBLE:
      case DECIMAL:
        return text.trim();
      case BINARY:
      case FIXED:
        return text.startsWith("X'") || text.startsWith("x'") ? text : "X'" + text + "'";
      default:
        return "'" + text.replace("'", "''") + "'";
    }
  }
}
