package dev.transforms.singlenode.filter;

import java.util.Objects;
import org.apache.iceberg.Schema;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Expression;

/**
 * Parses row-filter strings in PyIceberg's syntax, such as {@code "as_of < '2026-04-01'"}, into Iceberg
 * {@link Expression}s typed by a table schema.
 *
 * <table>
 *   <caption>Row-filter grammar, loosest binding first</caption>
 *   <tr><th>Form</th><th>Meaning</th><th>Example</th></tr>
 *   <tr><td>{@code a OR b}</td><td>either holds</td><td>{@code status = 'Stale' OR id < 10}</td></tr>
 *   <tr><td>{@code a AND b}</td><td>both hold</td><td>{@code id >= 1 AND id <= 9}</td></tr>
 *   <tr><td>{@code NOT a}</td><td>negation</td><td>{@code NOT (name IS NULL)}</td></tr>
 *   <tr><td>{@code ( a )}</td><td>grouping</td><td>{@code (a = 1 OR b = 2) AND c = 3}</td></tr>
 *   <tr><td>{@code col op value}, {@code value op col}</td>
 *       <td>comparison; {@code op} is {@code = == != <> < <= > >=}</td>
 *       <td>{@code as_of < '2026-04-01'}, {@code 5 < qty}</td></tr>
 *   <tr><td>{@code col [NOT] IN (v, ...)}</td><td>set membership</td><td>{@code id IN (1, 2, 3)}</td></tr>
 *   <tr><td>{@code col IS [NOT] NULL}</td><td>null test</td><td>{@code name IS NOT NULL}</td></tr>
 *   <tr><td>{@code col IS [NOT] NAN}</td><td>NaN test (float, double)</td><td>{@code score IS NAN}</td></tr>
 *   <tr><td>{@code col [NOT] LIKE 'prefix%'}</td><td>starts with (string columns)</td>
 *       <td>{@code name LIKE 'Ab%'}</td></tr>
 *   <tr><td>{@code true}, {@code false}</td><td>every row, no row</td><td>{@code true}</td></tr>
 * </table>
 *
 * <p>Lexical rules:
 *
 * <ul>
 *   <li>Keywords ({@code AND OR NOT IN IS NULL NAN LIKE TRUE FALSE}) are case-insensitive.
 *   <li>Column names are bare ({@code status}, {@code _id2}, {@code address.city} for a nested field) or
 *       double-quoted ({@code "my col"}, {@code "select"}; {@code ""} stands for a quote inside). A column
 *       whose name is a keyword must be quoted.
 *   <li>Strings are single-quoted; {@code ''} stands for a quote inside: {@code 'O''Brien'}.
 *   <li>Numbers: {@code 42}, {@code -7}, {@code 0.25}, {@code 1.5e-3}. Binary values: {@code X'CAFE'}.
 *   <li>LIKE supports only a prefix followed by one final {@code %}; a backslash makes a following
 *       {@code %}, {@code _} or backslash literal. {@code _} is not a wildcard.
 * </ul>
 *
 * <p>Typing. Each literal is converted to the type of the column it is compared with, and the result holds
 * an Iceberg literal of exactly that type: {@code '2026-04-01'} against a {@code date} column is a date, a
 * number against a {@code decimal(10, 2)} column is a decimal of scale 2. Conversions never round or
 * reinterpret: quoted strings are not numbers, a fraction is not an integer, a decimal with more digits
 * after the point than the column's scale is refused, and a timestamptz needs an explicit offset. A
 * timestamp without a zone also takes a date (midnight) and a space instead of {@code T}. See
 * {@code docs/filters.md} for the table of types and accepted literals.
 *
 * <p>Column names are matched case-sensitively, like Iceberg's default binding. There is no
 * case-insensitive fallback, since a table may hold both {@code id} and {@code ID}; instead, the error for a
 * name that differs only by case suggests the right one.
 *
 * <p>Examples: {@code "status = 'Stale'"}, {@code "as_of < '2026-04-01'"},
 * {@code "id IN (1, 2, 3) AND NOT (name IS NULL)"}.
 */
public final class RowFilter {

  private RowFilter() {}

  /**
   * Parses a row filter and types its literals by the given schema.
   *
   * <p>The result is unbound, as {@link org.apache.iceberg.expressions.Expressions} builds it, so it can be
   * passed to scans and evaluators; it has been checked to bind case-sensitively to {@code schema}.
   *
   * @param filter the row filter, for example {@code "id IN (1, 2, 3) AND NOT (name IS NULL)"}
   * @param schema the schema of the table the filter applies to
   * @return the filter as an Iceberg expression
   * @throws FilterSyntaxException if the filter does not follow the grammar, names a column the schema
   *     does not have, or holds a literal that is not a value of its column's type; the message quotes the
   *     filter and says what was expected
   * @throws NullPointerException if {@code filter} or {@code schema} is null
   */
  public static Expression parse(String filter, Schema schema) {
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(schema, "schema");
    Expression expression = new Parser(filter, schema).parse();
    try {
      Binder.bind(schema.asStruct(), expression, true);
    } catch (ValidationException e) {
      // The parser checks columns and types itself; this is a safety net for rules it does not know.
      throw new FilterSyntaxException(
          "Invalid row filter \"" + filter + "\": " + e.getMessage(), filter, -1);
    }
    return expression;
  }
}
