package dev.transforms.singlenode.filter;

import dev.transforms.singlenode.filter.Token.Kind;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expression.Operation;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.Literal;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A recursive-descent parser over the tokens of one row filter, one method per grammar rule:
 *
 * <pre>
 * filter     = or END
 * or         = and { OR and }
 * and        = not { AND not }
 * not        = NOT not | primary
 * primary    = "(" or ")" | TRUE | FALSE | predicate
 * predicate  = column compare literal | literal compare column
 *            | column [NOT] IN "(" literal { "," literal } ")"
 *            | column IS [NOT] NULL | column IS [NOT] NAN
 *            | column [NOT] LIKE string
 *            | column [NOT] BETWEEN literal AND literal
 * </pre>
 *
 * <p>Columns are resolved and literals typed as each predicate is parsed, so a schema error points at the
 * column or literal that caused it.
 */
final class Parser {

  /** Deeper nesting of parentheses and NOT is refused rather than risking a stack overflow. */
  private static final int MAX_NESTING = 100;

  private final String filter;
  private final Schema schema;
  private final List<Token> tokens;
  private int pos = 0;
  private int nesting = 0;

  Parser(String filter, Schema schema) {
    this.filter = filter;
    this.schema = schema;
    this.tokens = Tokenizer.tokenize(filter);
  }

  Expression parse() {
    if (peek().is(Kind.END)) {
      throw syntaxError(peek(), "expected a condition, but the filter is empty; write true to select every row");
    }
    Expression expression = or();
    Token extra = peek();
    if (extra.is(Kind.RIGHT_PAREN)) {
      throw syntaxError(extra, "')' has no matching '('");
    }
    if (!extra.is(Kind.END)) {
      throw syntaxError(extra, "expected AND, OR or the end of the filter after " + describe(previous()));
    }
    return expression;
  }

  private Expression or() {
    Expression left = and();
    while (accept(Kind.OR)) {
      left = Expressions.or(left, and());
    }
    return left;
  }

  private Expression and() {
    Expression left = not();
    while (accept(Kind.AND)) {
      left = Expressions.and(left, not());
    }
    return left;
  }

  private Expression not() {
    Token token = peek();
    if (accept(Kind.NOT)) {
      enter(token);
      Expression negated = Expressions.not(not());
      nesting--;
      return negated;
    }
    return primary();
  }

  private Expression primary() {
    Token token = peek();
    if (accept(Kind.LEFT_PAREN)) {
      enter(token);
      Expression inner = or();
      if (!accept(Kind.RIGHT_PAREN)) {
        throw syntaxError(
            peek(),
            "expected ')' to close the '(' at position " + (token.start() + 1) + " after " + describe(previous()));
      }
      nesting--;
      return inner;
    }
    // true and false stand alone unless they are the literal side of a comparison, as in "true = active".
    if ((token.is(Kind.TRUE) || token.is(Kind.FALSE)) && !peek(1).kind().isComparison()) {
      pos++;
      return token.is(Kind.TRUE) ? Expressions.alwaysTrue() : Expressions.alwaysFalse();
    }
    if (token.is(Kind.IDENTIFIER)) {
      return predicateOnColumn();
    }
    if (token.kind().isLiteral()) {
      return comparisonWithLiteralFirst();
    }
    String where = pos == 0 ? "" : " after " + describe(previous());
    throw syntaxError(token, "expected a condition" + where);
  }

  private void enter(Token token) {
    nesting++;
    if (nesting > MAX_NESTING) {
      throw syntaxError(token, "parentheses and NOT are nested more than " + MAX_NESTING + " deep");
    }
  }

  private Expression predicateOnColumn() {
    Token column = next();
    Token operator = next();
    if (operator.kind().isComparison()) {
      Token value = peek();
      if (value.kind().isLiteral()) {
        pos++;
        return comparison(column, operator.kind().comparison(), value);
      }
      if (value.is(Kind.IDENTIFIER)) {
        throw syntaxError(
            value, "expected a value after '" + operator.text() + "'; comparing two columns is not supported");
      }
      if (value.is(Kind.NULL)) {
        throw syntaxError(
            value, "expected a value after '" + operator.text() + "'; test for null with IS NULL or IS NOT NULL");
      }
      throw syntaxError(value, "expected a value after '" + operator.text() + "'");
    }
    switch (operator.kind()) {
      case IN:
        return in(column, false);
      case IS:
        return is(column);
      case LIKE:
        return like(column, false);
      case BETWEEN:
        return between(column, false);
      case NOT:
        Token negated = next();
        if (negated.is(Kind.IN)) {
          return in(column, true);
        }
        if (negated.is(Kind.LIKE)) {
          return like(column, true);
        }
        if (negated.is(Kind.BETWEEN)) {
          return between(column, true);
        }
        throw syntaxError(negated, "expected IN, LIKE or BETWEEN after NOT");
      default:
        throw syntaxError(
            operator,
            "expected an operator (=, !=, <, <=, >, >=, IN, NOT IN, IS, LIKE, NOT LIKE, BETWEEN, NOT"
                + " BETWEEN) after column "
                + column.text());
    }
  }

  /** {@code 5 < x}: the column is on the right, so the operator flips to keep the column first. */
  private Expression comparisonWithLiteralFirst() {
    Token value = next();
    Token operator = next();
    if (!operator.kind().isComparison()) {
      throw syntaxError(
          operator, "expected a comparison operator (=, !=, <, <=, >, >=) after the value " + value.text());
    }
    Token column = next();
    if (!column.is(Kind.IDENTIFIER)) {
      throw syntaxError(
          column, "expected a column after '" + operator.text() + "'; one side of a comparison must be a column");
    }
    return comparison(column, operator.kind().comparison().flipLR(), value);
  }

  private Expression comparison(Token column, Operation operation, Token value) {
    Types.NestedField field = comparableColumn(column, "compared with a value");
    return Expressions.predicate(operation, column.value(), literal(field, column, value));
  }

  private Expression in(Token column, boolean negated) {
    String keyword = negated ? "NOT IN" : "IN";
    Token open = next();
    if (!open.is(Kind.LEFT_PAREN)) {
      throw syntaxError(open, "expected '(' after " + keyword);
    }
    List<Token> valueTokens = new ArrayList<>();
    Token separator = open;
    while (true) {
      Token value = next();
      if (!value.kind().isLiteral()) {
        throw syntaxError(value, "expected a value after " + describe(separator) + " in the " + keyword + " list");
      }
      valueTokens.add(value);
      separator = next();
      if (separator.is(Kind.RIGHT_PAREN)) {
        break;
      }
      if (!separator.is(Kind.COMMA)) {
        throw syntaxError(separator, "expected ',' or ')' after " + value.text() + " in the " + keyword + " list");
      }
    }
    Types.NestedField field = comparableColumn(column, "used with " + keyword);
    // Iceberg's factories accept typed literals in place of plain values and keep them as they are.
    List<Literal<?>> values = new ArrayList<>();
    for (Token value : valueTokens) {
      values.add(literal(field, column, value));
    }
    return negated ? Expressions.notIn(column.value(), values) : Expressions.in(column.value(), values);
  }

  /**
   * {@code x BETWEEN a AND b} is {@code x >= a AND x <= b}, both ends included, as in SQL and
   * PyIceberg; {@code x NOT BETWEEN a AND b} is its negation, {@code x < a OR x > b}. A null {@code x}
   * satisfies neither.
   */
  private Expression between(Token column, boolean negated) {
    String keyword = negated ? "NOT BETWEEN" : "BETWEEN";
    Token low = next();
    if (!low.kind().isLiteral()) {
      throw syntaxError(low, "expected a value after " + keyword + ", as in x " + keyword + " 1 AND 5");
    }
    Token and = next();
    if (!and.is(Kind.AND)) {
      throw syntaxError(and, "expected AND after " + keyword + " " + low.text() + ", as in x " + keyword + " 1 AND 5");
    }
    Token high = next();
    if (!high.kind().isLiteral()) {
      throw syntaxError(high, "expected a value after " + keyword + " " + low.text() + " AND");
    }
    Types.NestedField field = comparableColumn(column, "used with " + keyword);
    Literal<?> lower = literal(field, column, low);
    Literal<?> upper = literal(field, column, high);
    String name = column.value();
    return negated
        ? Expressions.or(Expressions.lessThan(name, lower), Expressions.greaterThan(name, upper))
        : Expressions.and(Expressions.greaterThanOrEqual(name, lower), Expressions.lessThanOrEqual(name, upper));
  }

  private Expression is(Token column) {
    boolean negated = accept(Kind.NOT);
    Token what = next();
    if (what.is(Kind.NULL)) {
      resolve(column);
      return negated ? Expressions.notNull(column.value()) : Expressions.isNull(column.value());
    }
    if (what.is(Kind.NAN)) {
      Types.NestedField field = resolve(column);
      if (field.type().typeId() != Type.TypeID.FLOAT && field.type().typeId() != Type.TypeID.DOUBLE) {
        throw schemaError(
            column,
            "Column '" + column.value() + "' has type " + field.type() + " in row filter \"" + filter
                + "\"; IS NAN applies only to float and double columns");
      }
      return negated ? Expressions.notNaN(column.value()) : Expressions.isNaN(column.value());
    }
    String expected = negated ? "NULL or NAN after IS NOT" : "NULL, NOT NULL, NAN or NOT NAN after IS";
    throw syntaxError(what, "expected " + expected);
  }

  /**
   * LIKE supports a prefix, as in PyIceberg: {@code 'abc%'} becomes startsWith("abc"), and a pattern
   * without a wildcard is an equality, {@code 'abc'} becoming {@code = 'abc'} ({@code NOT LIKE}
   * becoming {@code !=}). A backslash makes a following {@code %}, {@code _} or backslash literal.
   * {@code _} is an ordinary character even unescaped, as in PyIceberg: Iceberg has no
   * single-character wildcard.
   */
  private Expression like(Token column, boolean negated) {
    String keyword = negated ? "NOT LIKE" : "LIKE";
    Token pattern = next();
    if (!pattern.is(Kind.STRING)) {
      throw syntaxError(pattern, "expected a quoted pattern like 'abc%' after " + keyword);
    }
    StringBuilder prefix = new StringBuilder();
    boolean wildcard = likePrefix(pattern, keyword, prefix);
    Types.NestedField field = resolve(column);
    if (field.type().typeId() != Type.TypeID.STRING) {
      throw schemaError(
          column,
          "Column '" + column.value() + "' has type " + field.type() + " in row filter \"" + filter + "\"; "
              + keyword + " applies only to string columns");
    }
    String value = prefix.toString();
    if (!wildcard) {
      return negated ? Expressions.notEqual(column.value(), value) : Expressions.equal(column.value(), value);
    }
    return negated ? Expressions.notStartsWith(column.value(), value) : Expressions.startsWith(column.value(), value);
  }

  /** Appends the pattern's text to {@code prefix}, escapes undone; returns whether it ended in '%'. */
  private boolean likePrefix(Token pattern, String keyword, StringBuilder prefix) {
    String text = pattern.value();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean last = i == text.length() - 1;
      if (c == '\\' && !last && "%_\\".indexOf(text.charAt(i + 1)) >= 0) {
        prefix.append(text.charAt(++i));
      } else if (c == '%') {
        if (!last) {
          throw syntaxError(
              pattern,
              keyword
                  + " supports only a pattern with one '%' at the end, like 'abc%', or none, like 'abc'"
                  + " (then it is an equality); write \\% for a literal %");
        }
        return true;
      } else {
        prefix.append(c);
      }
    }
    return false;
  }

  /** Resolves a column that is to be compared with literals, which needs a type that has them. */
  private Types.NestedField comparableColumn(Token column, String use) {
    Types.NestedField field = resolve(column);
    if (!ColumnLiterals.isSupported(field.type())) {
      throw schemaError(
          column,
          "Column '" + column.value() + "' has type " + field.type() + " in row filter \"" + filter
              + "\"; it cannot be " + use + ", only tested with IS NULL or IS NOT NULL");
    }
    return field;
  }

  /**
   * Finds a column by its exact name; dots separate the levels of nested structs. Matching is
   * case-sensitive, as in Iceberg's default binding; a name that differs only by case gets a suggestion
   * rather than a silent match, since a table may hold both {@code id} and {@code ID}.
   */
  private Types.NestedField resolve(Token column) {
    String name = column.value();
    Types.NestedField field = schema.findField(name);
    if (field != null && schema.accessorForField(field.fieldId()) == null) {
      // Iceberg names list elements and map keys and values too (tags.element), but a row has no single
      // value for them to compare.
      throw schemaError(
          column,
          "Column '" + name + "' is inside a list or map in row filter \"" + filter
              + "\"; filters apply to top-level columns and fields of nested structs; columns: "
              + String.join(", ", columnNames()));
    }
    if (field != null) {
      return field;
    }
    StringBuilder message = new StringBuilder();
    message.append("Unknown column '").append(name).append("' in row filter \"").append(filter).append('"');
    Types.NestedField differentCase = schema.caseInsensitiveFindField(name);
    if (differentCase != null) {
      String suggestion = schema.findColumnName(differentCase.fieldId());
      message.append("; did you mean '").append(suggestion).append("'? Column names are case-sensitive");
    }
    message.append("; columns: ").append(String.join(", ", columnNames()));
    throw schemaError(column, message.toString());
  }

  private Literal<?> literal(Types.NestedField field, Token column, Token value) {
    Literal<?> literal = ColumnLiterals.convert(value, field.type());
    if (literal == null) {
      throw schemaError(
          value,
          "Invalid value " + value.text() + " for column '" + column.value() + "' of type " + field.type()
              + " in row filter \"" + filter + "\"; expected " + ColumnLiterals.expected(field.type()));
    }
    return literal;
  }

  /** Every column a filter can name, nested struct fields as dotted paths, in schema order. */
  private List<String> columnNames() {
    List<String> names = new ArrayList<>();
    addColumnNames("", schema.asStruct(), names);
    return names;
  }

  private static void addColumnNames(String prefix, Types.StructType struct, List<String> names) {
    for (Types.NestedField field : struct.fields()) {
      if (field.type().isStructType()) {
        addColumnNames(prefix + field.name() + ".", field.type().asStructType(), names);
      } else {
        names.add(prefix + field.name());
      }
    }
  }

  private Token peek() {
    return peek(0);
  }

  private Token peek(int ahead) {
    return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
  }

  /** The last token consumed. */
  private Token previous() {
    return tokens.get(pos - 1);
  }

  /** Consumes and returns the next token; at the end it keeps returning the END token. */
  private Token next() {
    Token token = peek();
    if (!token.is(Kind.END)) {
      pos++;
    }
    return token;
  }

  private boolean accept(Kind kind) {
    if (peek().is(kind)) {
      pos++;
      return true;
    }
    return false;
  }

  private static String describe(Token token) {
    return "'" + token.text() + "'";
  }

  private FilterSyntaxException syntaxError(Token at, String description) {
    return FilterSyntaxException.at(filter, at.start(), description);
  }

  private FilterSyntaxException schemaError(Token at, String message) {
    return new FilterSyntaxException(message, filter, at.start());
  }
}
