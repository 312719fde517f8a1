package dev.transforms.singlenode.filter;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.BoundLiteralPredicate;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ExpressionUtil;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RowFilterTest {

  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "as_of", Types.DateType.get()),
          optional(3, "status", Types.StringType.get()),
          optional(4, "name", Types.StringType.get()),
          optional(5, "score", Types.DoubleType.get()),
          optional(6, "ratio", Types.FloatType.get()),
          optional(7, "qty", Types.IntegerType.get()),
          optional(8, "price", Types.DecimalType.of(10, 2)),
          optional(9, "active", Types.BooleanType.get()),
          optional(10, "created", Types.TimestampType.withoutZone()),
          optional(11, "updated", Types.TimestampType.withZone()),
          optional(12, "uid", Types.UUIDType.get()),
          optional(13, "at", Types.TimeType.get()),
          optional(14, "payload", Types.BinaryType.get()),
          optional(15, "code", Types.FixedType.ofLength(2)),
          optional(16, "my col", Types.StringType.get()),
          optional(17, "not", Types.StringType.get()),
          optional(
              18,
              "address",
              Types.StructType.of(
                  optional(19, "city", Types.StringType.get()), optional(20, "zip", Types.IntegerType.get()))),
          optional(21, "tags", Types.ListType.ofOptional(22, Types.StringType.get())),
          optional(23, "created_ns", Types.TimestampNanoType.withoutZone()),
          optional(24, "updated_ns", Types.TimestampNanoType.withZone()));

  private static final String COLUMNS =
      "id, as_of, status, name, score, ratio, qty, price, active, created, updated, uid, at, payload, code, "
          + "my col, not, address.city, address.zip, tags, created_ns, updated_ns";

  static Stream<Arguments> goodFilters() {
    return Stream.of(
        // comparisons, every spelling
        good("status = 'Stale'", Expressions.equal("status", "Stale")),
        good("status == 'Stale'", Expressions.equal("status", "Stale")),
        good("id != 5", Expressions.notEqual("id", 5L)),
        good("id <> 5", Expressions.notEqual("id", 5L)),
        good("id < 5", Expressions.lessThan("id", 5L)),
        good("id <= 5", Expressions.lessThanOrEqual("id", 5L)),
        good("id > 5", Expressions.greaterThan("id", 5L)),
        good("id >= -5", Expressions.greaterThanOrEqual("id", -5L)),
        good("id>=-9223372036854775808", Expressions.greaterThanOrEqual("id", Long.MIN_VALUE)),
        // literal first: the operator flips
        good("5 < id", Expressions.greaterThan("id", 5L)),
        good("5 <= id", Expressions.greaterThanOrEqual("id", 5L)),
        good("5 > id", Expressions.lessThan("id", 5L)),
        good("5 >= id", Expressions.lessThanOrEqual("id", 5L)),
        good("5 = id", Expressions.equal("id", 5L)),
        good("'Stale' <> status", Expressions.notEqual("status", "Stale")),
        good("false != active", Expressions.notEqual("active", false)),
        // literals typed by their column
        good("as_of < '2026-04-01'", Expressions.lessThan("as_of", days("2026-04-01"))),
        good("active = TRUE", Expressions.equal("active", true)),
        good("qty >= 10", Expressions.greaterThanOrEqual("qty", 10)),
        good("price = 12.5", Expressions.equal("price", new BigDecimal("12.50"))),
        good("score < 1.5e3", Expressions.lessThan("score", 1500.0)),
        good("ratio > 0.25", Expressions.greaterThan("ratio", 0.25f)),
        good("created >= '2026-04-01 12:30:00'", Expressions.greaterThanOrEqual("created", micros("2026-04-01T12:30:00"))),
        good("updated < '2026-04-01T00:00:00Z'", Expressions.lessThan("updated", micros("2026-04-01T00:00:00"))),
        good("uid = '123e4567-e89b-12d3-a456-426614174000'",
            Expressions.equal("uid", UUID.fromString("123e4567-e89b-12d3-a456-426614174000"))),
        good("payload = X'CAFE'", Expressions.equal("payload", ByteBuffer.wrap(new byte[] {(byte) 0xCA, (byte) 0xFE}))),
        good("name = 'O''Brien'", Expressions.equal("name", "O'Brien")),
        // IN, IS, LIKE
        good("id IN (1, 2, 3)", Expressions.in("id", 1L, 2L, 3L)),
        good("id in (7)", Expressions.in("id", 7L)),
        good("id NOT IN (1, 2)", Expressions.notIn("id", 1L, 2L)),
        good("as_of IN ('2026-04-01','2026-04-02')", Expressions.in("as_of", days("2026-04-01"), days("2026-04-02"))),
        good("name IS NULL", Expressions.isNull("name")),
        good("name is not null", Expressions.notNull("name")),
        good("score IS NAN", Expressions.isNaN("score")),
        good("ratio Is Not NaN", Expressions.notNaN("ratio")),
        good("name LIKE 'Ab%'", Expressions.startsWith("name", "Ab")),
        good("name NOT LIKE 'Ab%'", Expressions.notStartsWith("name", "Ab")),
        good("name LIKE 'snake_case%'", Expressions.startsWith("name", "snake_case")),
        good("name like '100\\%\\_\\\\%'", Expressions.startsWith("name", "100%_\\")),
        // LIKE without a wildcard is an equality, as in PyIceberg
        good("name LIKE 'Ab'", Expressions.equal("name", "Ab")),
        good("name NOT LIKE 'Ab'", Expressions.notEqual("name", "Ab")),
        good("name LIKE '50\\%'", Expressions.equal("name", "50%")),
        // BETWEEN includes both ends; NOT BETWEEN is its negation
        good("qty BETWEEN 1 AND 5",
            Expressions.and(Expressions.greaterThanOrEqual("qty", 1), Expressions.lessThanOrEqual("qty", 5))),
        good("as_of between '2026-04-01' and '2026-04-30' or id = 1",
            Expressions.or(
                Expressions.and(Expressions.greaterThanOrEqual("as_of", days("2026-04-01")),
                    Expressions.lessThanOrEqual("as_of", days("2026-04-30"))),
                Expressions.equal("id", 1L))),
        good("qty NOT BETWEEN 1 AND 5 AND id = 2",
            Expressions.and(
                Expressions.or(Expressions.lessThan("qty", 1), Expressions.greaterThan("qty", 5)),
                Expressions.equal("id", 2L))),
        // constants, boolean logic and precedence
        good("true", Expressions.alwaysTrue()),
        good("FALSE", Expressions.alwaysFalse()),
        good("id = 1 AND status = 'a' OR name = 'b'",
            Expressions.or(Expressions.and(Expressions.equal("id", 1L), Expressions.equal("status", "a")),
                Expressions.equal("name", "b"))),
        good("id = 1 OR status = 'a' AND name = 'b'",
            Expressions.or(Expressions.equal("id", 1L),
                Expressions.and(Expressions.equal("status", "a"), Expressions.equal("name", "b")))),
        good("(id = 1 OR status = 'a') AND name = 'b'",
            Expressions.and(Expressions.or(Expressions.equal("id", 1L), Expressions.equal("status", "a")),
                Expressions.equal("name", "b"))),
        good("NOT id = 1 AND name = 'b'",
            Expressions.and(Expressions.not(Expressions.equal("id", 1L)), Expressions.equal("name", "b"))),
        good("not not id = 1", Expressions.equal("id", 1L)),
        good("id > 1 and id < 9 and name is not null",
            Expressions.and(Expressions.and(Expressions.greaterThan("id", 1L), Expressions.lessThan("id", 9L)),
                Expressions.notNull("name"))),
        good("id IN (1, 2, 3) AND NOT (name IS NULL)",
            Expressions.and(Expressions.in("id", 1L, 2L, 3L), Expressions.not(Expressions.isNull("name")))),
        good(" ( ( status='Stale'and(id=1) ) ) ",
            Expressions.and(Expressions.equal("status", "Stale"), Expressions.equal("id", 1L))),
        good("status = 'x' OR true", Expressions.alwaysTrue()),
        // column names
        good("\"my col\" = 'x'", Expressions.equal("my col", "x")),
        good("\"not\" = 'x'", Expressions.equal("not", "x")),
        good("address.city = 'Oslo'", Expressions.equal("address.city", "Oslo")),
        good("\"address\".\"city\" = 'Oslo'", Expressions.equal("address.city", "Oslo")),
        good("address.zip IS NOT NULL", Expressions.notNull("address.zip")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goodFilters")
  void parsesGoodFilters(String filter, Expression expected) {
    Expression parsed = RowFilter.parse(filter, SCHEMA);
    assertThat(parsed.toString()).isEqualTo(expected.toString());
    assertThat(ExpressionUtil.equivalent(expected, parsed, SCHEMA.asStruct(), true))
        .as("equivalent once bound")
        .isTrue();
  }

  static Stream<Arguments> badFilters() {
    return Stream.of(
        // syntax
        bad("as_of < ", at(9, "expected a value after '<'", "as_of < ")),
        bad("", at(1, "expected a condition, but the filter is empty; write true to select every row", "")),
        bad("status = 'Stale", at(10, "unterminated string; close it with ' (write '' for a quote inside it)",
            "status = 'Stale")),
        bad("\"my col = 1", at(1, "unterminated quoted name; close it with \" (write \"\" for a quote inside it)",
            "\"my col = 1")),
        bad("id # 1", at(4, "unexpected character '#'", "id # 1")),
        bad("id ! 1", at(4, "unexpected '!'; write != for 'not equal' or NOT to negate", "id ! 1")),
        bad("AND id = 1", at(1, "expected a condition", "AND id = 1")),
        bad("id = 1 AND", at(11, "expected a condition after 'AND'", "id = 1 AND")),
        bad("(id = 1", at(8, "expected ')' to close the '(' at position 1 after '1'", "(id = 1")),
        bad("id = 1)", at(7, "')' has no matching '('", "id = 1)")),
        bad("id = 1 name = 'x'", at(8, "expected AND, OR or the end of the filter after '1'", "id = 1 name = 'x'")),
        bad("id", at(3, "expected an operator (=, !=, <, <=, >, >=, IN, NOT IN, IS, LIKE, NOT LIKE, BETWEEN, "
            + "NOT BETWEEN) after column id",
            "id")),
        bad("id = NULL", at(6, "expected a value after '='; test for null with IS NULL or IS NOT NULL", "id = NULL")),
        bad("id = status", at(6, "expected a value after '='; comparing two columns is not supported", "id = status")),
        bad("1 = 2", at(5, "expected a column after '='; one side of a comparison must be a column", "1 = 2")),
        bad("5 IN (id)", at(3, "expected a comparison operator (=, !=, <, <=, >, >=) after the value 5", "5 IN (id)")),
        bad("id IN 1", at(7, "expected '(' after IN", "id IN 1")),
        bad("id IN ()", at(8, "expected a value after '(' in the IN list", "id IN ()")),
        bad("id NOT IN (1, 2", at(16, "expected ',' or ')' after 2 in the NOT IN list", "id NOT IN (1, 2")),
        bad("id IS 5", at(7, "expected NULL, NOT NULL, NAN or NOT NAN after IS", "id IS 5")),
        bad("name NOT BETWEEN 'a'", at(21, "expected AND after NOT BETWEEN 'a', as in x NOT BETWEEN 1 AND 5",
            "name NOT BETWEEN 'a'")),
        bad("qty BETWEEN AND 5", at(13, "expected a value after BETWEEN, as in x BETWEEN 1 AND 5",
            "qty BETWEEN AND 5")),
        bad("qty BETWEEN 1 AND", at(18, "expected a value after BETWEEN 1 AND", "qty BETWEEN 1 AND")),
        bad("name NOT IS NULL", at(10, "expected IN, LIKE or BETWEEN after NOT", "name NOT IS NULL")),
        bad("name LIKE '%abc'", at(11, "LIKE supports only a pattern with one '%' at the end, like 'abc%', or none, "
            + "like 'abc' (then it is an equality); write \\% for a literal %", "name LIKE '%abc'")),
        bad("payload = X'ABC'", at(11, "a hex literal needs an even number of digits, two per byte", "payload = X'ABC'")),
        bad("id\t=\t", at(6, "expected a value after '='", "id = ")),
        // schema
        bad("staus = 'Stale'", "Unknown column 'staus' in row filter \"staus = 'Stale'\"; columns: " + COLUMNS),
        bad("Status = 'Stale'", "Unknown column 'Status' in row filter \"Status = 'Stale'\"; did you mean 'status'? "
            + "Column names are case-sensitive; columns: " + COLUMNS),
        bad("as_of < '2026-13-01'", "Invalid value '2026-13-01' for column 'as_of' of type date in row filter "
            + "\"as_of < '2026-13-01'\"; expected a quoted date like '2026-04-01'"),
        bad("id = 'abc'", "Invalid value 'abc' for column 'id' of type long in row filter \"id = 'abc'\"; "
            + "expected a whole number from -9223372036854775808 to 9223372036854775807"),
        bad("qty IN (1, 3000000000)", "Invalid value 3000000000 for column 'qty' of type int in row filter "
            + "\"qty IN (1, 3000000000)\"; expected a whole number from -2147483648 to 2147483647"),
        bad("price = 1.234", "Invalid value 1.234 for column 'price' of type decimal(10, 2) in row filter "
            + "\"price = 1.234\"; expected a number with at most 2 digits after the point and 10 digits in all"),
        bad("updated < '2026-04-01'", "Invalid value '2026-04-01' for column 'updated' of type timestamptz in row "
            + "filter \"updated < '2026-04-01'\"; expected a quoted timestamp with a UTC offset like "
            + "'2026-04-01T13:45:00Z' or '2026-04-01T13:45:00+02:00'"),
        bad("code = X'ABCDEF'", "Invalid value X'ABCDEF' for column 'code' of type fixed[2] in row filter "
            + "\"code = X'ABCDEF'\"; expected a hex literal of exactly 2 bytes like X'ABAB'"),
        bad("uid = '1-2-3-4-5'", "Invalid value '1-2-3-4-5' for column 'uid' of type uuid in row filter "
            + "\"uid = '1-2-3-4-5'\"; expected a quoted UUID like '123e4567-e89b-12d3-a456-426614174000'"),
        bad("id LIKE 'a%'", "Column 'id' has type long in row filter \"id LIKE 'a%'\"; "
            + "LIKE applies only to string columns"),
        bad("id IS NOT NAN", "Column 'id' has type long in row filter \"id IS NOT NAN\"; "
            + "IS NAN applies only to float and double columns"),
        bad("tags = 'a'", "Column 'tags' has type list<string> in row filter \"tags = 'a'\"; "
            + "it cannot be compared with a value, only tested with IS NULL or IS NOT NULL"),
        bad("tags.element = 'a'", "Column 'tags.element' is inside a list or map in row filter \"tags.element = 'a'\"; "
            + "filters apply to top-level columns and fields of nested structs; columns: " + COLUMNS),
        bad("address IN (1)", "Column 'address' has type struct<19: city: optional string, 20: zip: optional int> "
            + "in row filter \"address IN (1)\"; it cannot be used with IN, only tested with IS NULL or IS NOT NULL"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("badFilters")
  void rejectsBadFiltersWithExactMessages(String filter, String message) {
    assertThatThrownBy(() -> RowFilter.parse(filter, SCHEMA))
        .isInstanceOf(FilterSyntaxException.class)
        .hasMessage(message)
        .satisfies(e -> assertThat(((FilterSyntaxException) e).filter()).isEqualTo(filter));
  }

  @Test
  void limitsNesting() {
    String deep = "(".repeat(100) + "id = 1" + ")".repeat(100);
    assertThat(RowFilter.parse(deep, SCHEMA).toString()).isEqualTo(Expressions.equal("id", 1L).toString());
    String tooDeep = "NOT ".repeat(50) + "(".repeat(51) + "id = 1" + ")".repeat(51);
    assertThatThrownBy(() -> RowFilter.parse(tooDeep, SCHEMA))
        .isInstanceOfSatisfying(FilterSyntaxException.class, e -> assertThat(e.index()).isEqualTo(250))
        .hasMessageStartingWith("Invalid row filter at position 251: parentheses and NOT are nested more than 100 deep");
  }

  @Test
  void exceptionReportsTheIndexOfTheProblem() {
    assertThatThrownBy(() -> RowFilter.parse("as_of < ", SCHEMA))
        .isInstanceOfSatisfying(FilterSyntaxException.class, e -> assertThat(e.index()).isEqualTo(8));
    assertThatThrownBy(() -> RowFilter.parse("id = 1 AND staus = 'x'", SCHEMA))
        .isInstanceOfSatisfying(FilterSyntaxException.class, e -> assertThat(e.index()).isEqualTo(11));
  }

  @Test
  void typesLiteralsByTheirColumn() {
    assertThat(boundValue("as_of = '2026-04-01'")).isEqualTo(days("2026-04-01"));
    assertThat(boundValue("created = '2026-04-01T12:30:00.5'")).isEqualTo(micros("2026-04-01T12:30:00.5"));
    assertThat(boundValue("created = '2026-04-01'")).isEqualTo(micros("2026-04-01T00:00:00"));
    assertThat(boundValue("updated = '2026-04-01T12:30:00+02:00'")).isEqualTo(micros("2026-04-01T10:30:00"));
    assertThat(boundValue("updated = '2026-04-01 10:30:00Z'")).isEqualTo(micros("2026-04-01T10:30:00"));
    assertThat(boundValue("created_ns = '2026-04-01T00:00:00.000000001'"))
        .isEqualTo(micros("2026-04-01T00:00:00") * 1000 + 1);
    assertThat(boundValue("created_ns = '2026-04-01'")).isEqualTo(micros("2026-04-01T00:00:00") * 1000);
    assertThat(boundValue("updated_ns = '2026-04-01T00:00:00.000000001-01:00'"))
        .isEqualTo(micros("2026-04-01T01:00:00") * 1000 + 1);
    assertThat(boundValue("at = '13:45:00.25'")).isEqualTo(LocalTime.parse("13:45:00.25").toNanoOfDay() / 1000);
    assertThat(boundValue("price = 7")).isEqualTo(new BigDecimal("7.00"));
    assertThat(boundValue("price = -0.5")).isEqualTo(new BigDecimal("-0.50"));
    assertThat(boundValue("price = 1e3")).isEqualTo(new BigDecimal("1000.00"));
    assertThat(boundValue("id = 9223372036854775807")).isEqualTo(Long.MAX_VALUE);
    assertThat(boundValue("qty = -2147483648")).isEqualTo(Integer.MIN_VALUE);
    assertThat(boundValue("score = 2")).isEqualTo(2.0d);
    assertThat(boundValue("score = -1.25E-2")).isEqualTo(-0.0125d);
    assertThat(boundValue("ratio = 0.1")).isEqualTo(0.1f);
    assertThat(boundValue("active = false")).isEqualTo(false);
    assertThat(boundValue("name = 'Zoë'").toString()).isEqualTo("Zoë");
    assertThat(boundValue("uid = '123E4567-E89B-12D3-A456-426614174000'"))
        .isEqualTo(UUID.fromString("123e4567-e89b-12d3-a456-426614174000"));
    assertThat(boundValue("code = X'0a0B'")).isEqualTo(ByteBuffer.wrap(new byte[] {10, 11}));
  }

  @Test
  void strictTypingRefusesLossyOrReinterpretedLiterals() {
    List<String> refused =
        List.of(
            "qty = 1.0", // a fraction is not an integer, even a whole one
            "id = '5'", // a string is not a number
            "score = '1.5'",
            "name = 5",
            "active = 'true'",
            "active = 1",
            "as_of = 20544", // no day numbers for dates
            "as_of = '2026-04-01T00:00:00'",
            "created = '2026-04-01T00:00:00Z'", // an offset on a timestamp without zone
            "price = 123456789.1", // 11 digits for decimal(10, 2)
            "ratio = 1e39", // beyond float
            "payload = 'CAFE'");
    for (String filter : refused) {
      assertThatThrownBy(() -> RowFilter.parse(filter, SCHEMA))
          .as(filter)
          .isInstanceOf(FilterSyntaxException.class)
          .hasMessageStartingWith("Invalid value ");
    }
  }

  @Test
  void evaluatesParsedFiltersOnRecords() {
    List<GenericRecord> rows =
        List.of(
            row(1, "2026-03-30", "Stale", 0.5),
            row(2, "2026-03-31", "Fresh", Double.NaN),
            row(3, "2026-04-01", "Stale", 2.0),
            row(4, "2026-04-02", null, 3.5),
            row(5, null, "Stale", null));

    assertThat(selectedIds("as_of < '2026-04-01' AND as_of IS NOT NULL", rows)).containsExactly(1L, 2L);
    // Iceberg's Evaluator orders null before every value, unlike SQL: a null date is "less than" any date.
    assertThat(selectedIds("as_of < '2026-04-01'", rows)).containsExactly(1L, 2L, 5L);
    assertThat(selectedIds("as_of > '2026-03-30'", rows)).containsExactly(2L, 3L, 4L);
    assertThat(selectedIds("status = 'Stale' AND as_of >= '2026-03-31'", rows)).containsExactly(3L);
    assertThat(selectedIds("NOT (status = 'Stale') OR status IS NULL", rows)).containsExactly(2L, 4L);
    assertThat(selectedIds("id IN (1, 4, 5) AND as_of IS NOT NULL", rows)).containsExactly(1L, 4L);
    assertThat(selectedIds("score IS NAN OR 3 <= score", rows)).containsExactly(2L, 4L);
    assertThat(selectedIds("status LIKE 'St%'", rows)).containsExactly(1L, 3L, 5L);
    assertThat(selectedIds("status LIKE 'Stale'", rows)).containsExactly(1L, 3L, 5L);
    // the Evaluator's != holds for null too; row edits and scans treat a null as unknown (docs/filters.md)
    assertThat(selectedIds("status NOT LIKE 'Stale'", rows)).containsExactly(2L, 4L);
    assertThat(selectedIds("score BETWEEN 0.5 AND 2", rows)).containsExactly(1L, 3L);
    assertThat(selectedIds("score NOT BETWEEN 0.5 AND 2 AND score IS NOT NULL AND score IS NOT NAN", rows))
        .containsExactly(4L);
    assertThat(selectedIds("true", rows)).containsExactly(1L, 2L, 3L, 4L, 5L);
  }

  private static List<Long> selectedIds(String filter, List<GenericRecord> rows) {
    Evaluator evaluator = new Evaluator(SCHEMA.asStruct(), RowFilter.parse(filter, SCHEMA), true);
    InternalRecordWrapper wrapper = new InternalRecordWrapper(SCHEMA.asStruct());
    return rows.stream()
        .filter(row -> evaluator.eval(wrapper.wrap(row)))
        .map(row -> (Long) row.getField("id"))
        .toList();
  }

  private static GenericRecord row(long id, String asOf, String status, Double score) {
    GenericRecord row = GenericRecord.create(SCHEMA);
    row.setField("id", id);
    row.setField("as_of", asOf == null ? null : LocalDate.parse(asOf));
    row.setField("status", status);
    row.setField("score", score);
    return row;
  }

  private static Object boundValue(String filter) {
    Expression bound = Binder.bind(SCHEMA.asStruct(), RowFilter.parse(filter, SCHEMA), true);
    return ((BoundLiteralPredicate<?>) bound).literal().value();
  }

  private static Arguments good(String filter, Expression expected) {
    return Arguments.of(filter, expected);
  }

  private static Arguments bad(String filter, String message) {
    return Arguments.of(filter, message);
  }

  /** The message of a syntax error: position, description, the filter and a caret under the position. */
  private static String at(int position, String description, String shownFilter) {
    return "Invalid row filter at position " + position + ": " + description + "\n  " + shownFilter + "\n  "
        + " ".repeat(position - 1) + "^";
  }

  private static int days(String date) {
    return (int) LocalDate.parse(date).toEpochDay();
  }

  private static long micros(String localDateTime) {
    OffsetDateTime time = LocalDateTime.parse(localDateTime).atOffset(ZoneOffset.UTC);
    return ChronoUnit.MICROS.between(OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC), time);
  }
}
