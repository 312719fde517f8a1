package dev.transforms.singlenode.filter;

import dev.transforms.singlenode.filter.Token.Kind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.DateTimeException;
import java.util.HexFormat;
import java.util.UUID;
import java.util.regex.Pattern;
import org.apache.iceberg.expressions.Literal;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Turns a literal token into an Iceberg {@link Literal} of its column's type.
 *
 * <p>The result is already of the column's type (a date is a date literal holding days, a timestamp holds
 * micros, a decimal has the column's scale), so binding never has to guess. Conversions are strict: a
 * quoted string is not a number, a fraction is not an integer, and a decimal literal with more digits after
 * the point than the column's scale is refused rather than rounded.
 */
final class ColumnLiterals {

  private static final Pattern DATE_ONLY = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
  private static final Pattern CANONICAL_UUID =
      Pattern.compile("\\p{XDigit}{8}-\\p{XDigit}{4}-\\p{XDigit}{4}-\\p{XDigit}{4}-\\p{XDigit}{12}");
  private static final BigInteger MIN_INT = BigInteger.valueOf(Integer.MIN_VALUE);
  private static final BigInteger MAX_INT = BigInteger.valueOf(Integer.MAX_VALUE);
  private static final BigInteger MIN_LONG = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger MAX_LONG = BigInteger.valueOf(Long.MAX_VALUE);

  private ColumnLiterals() {}

  /** Whether filters can compare a column of this type with literals. */
  static boolean isSupported(Type type) {
    return !expected(type).isEmpty();
  }

  /**
   * Describes the literals a column of this type accepts, for error messages; empty when filters cannot
   * compare the type with literals at all (nested, variant and geospatial types).
   */
  static String expected(Type type) {
    switch (type.typeId()) {
      case BOOLEAN:
        return "true or false";
      case INTEGER:
        return "a whole number from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
      case LONG:
        return "a whole number from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
      case FLOAT:
        return "a number within the range of float";
      case DOUBLE:
        return "a number within the range of double";
      case DECIMAL:
        Types.DecimalType decimal = (Types.DecimalType) type;
        return "a number with at most " + decimal.scale() + " digits after the point and "
            + decimal.precision() + " digits in all";
      case STRING:
        return "a quoted string like 'text'";
      case UUID:
        return "a quoted UUID like '123e4567-e89b-12d3-a456-426614174000'";
      case DATE:
        return "a quoted date like '2026-04-01'";
      case TIME:
        return "a quoted time like '13:45:00' or '13:45:00.123456'";
      case TIMESTAMP:
      case TIMESTAMP_NANO:
        return isZoned(type)
            ? "a quoted timestamp with a UTC offset like '2026-04-01T13:45:00Z' or '2026-04-01T13:45:00+02:00'"
            : "a quoted timestamp without a zone like '2026-04-01T13:45:00', or a date like '2026-04-01' for midnight";
      case BINARY:
        return "a hex literal like X'CAFE'";
      case FIXED:
        int length = ((Types.FixedType) type).length();
        return "a hex literal of exactly " + length + " byte" + (length == 1 ? "" : "s") + " like X'"
            + "AB".repeat(length) + "'";
      default:
        return "";
    }
  }

  /**
   * Converts a literal token to a literal of the given type.
   *
   * @return the literal, or null if the token is not a value of the type
   */
  static Literal<?> convert(Token token, Type type) {
    switch (type.typeId()) {
      case BOOLEAN:
        return token.is(Kind.TRUE) || token.is(Kind.FALSE) ? Literal.of(token.is(Kind.TRUE)) : null;
      case INTEGER:
        BigInteger intValue = wholeNumber(token);
        return inRange(intValue, MIN_INT, MAX_INT) ? Literal.of(intValue.intValue()) : null;
      case LONG:
        BigInteger longValue = wholeNumber(token);
        return inRange(longValue, MIN_LONG, MAX_LONG) ? Literal.of(longValue.longValue()) : null;
      case FLOAT:
        if (!token.is(Kind.NUMBER)) {
          return null;
        }
        float floatValue = Float.parseFloat(token.value());
        return Float.isInfinite(floatValue) ? null : Literal.of(floatValue);
      case DOUBLE:
        if (!token.is(Kind.NUMBER)) {
          return null;
        }
        double doubleValue = Double.parseDouble(token.value());
        return Double.isInfinite(doubleValue) ? null : Literal.of(doubleValue);
      case DECIMAL:
        return token.is(Kind.NUMBER) ? decimal(token.value(), (Types.DecimalType) type) : null;
      case STRING:
        return token.is(Kind.STRING) ? Literal.of(token.value()) : null;
      case UUID:
        // UUID.fromString also takes short forms such as "1-2-3-4-5"; only the canonical form is meant.
        boolean isUuid = token.is(Kind.STRING) && CANONICAL_UUID.matcher(token.value()).matches();
        return isUuid ? Literal.of(UUID.fromString(token.value())) : null;
      case DATE:
      case TIME:
        return token.is(Kind.STRING) ? parsed(token.value(), type) : null;
      case TIMESTAMP:
      case TIMESTAMP_NANO:
        return token.is(Kind.STRING) ? parsed(isoTimestamp(token.value(), isZoned(type)), type) : null;
      case BINARY:
        return token.is(Kind.HEX) ? Literal.of(ByteBuffer.wrap(HexFormat.of().parseHex(token.value()))) : null;
      case FIXED:
        // A fixed literal of the wrong length converts to null.
        return token.is(Kind.HEX) ? Literal.of(HexFormat.of().parseHex(token.value())).to(type) : null;
      default:
        return null;
    }
  }

  private static BigInteger wholeNumber(Token token) {
    if (!token.is(Kind.NUMBER) || token.value().matches(".*[.eE].*")) {
      return null;
    }
    return new BigInteger(token.value());
  }

  private static boolean inRange(BigInteger value, BigInteger min, BigInteger max) {
    return value != null && value.compareTo(min) >= 0 && value.compareTo(max) <= 0;
  }

  /** The number at the column's scale, exactly: Iceberg's own conversion would round extra digits away. */
  private static Literal<BigDecimal> decimal(String text, Types.DecimalType type) {
    BigDecimal value;
    try {
      value = new BigDecimal(text).setScale(type.scale());
    } catch (ArithmeticException needsRounding) {
      return null;
    }
    return value.precision() <= type.precision() ? Literal.of(value) : null;
  }

  /** Dates, times and timestamps are parsed by Iceberg's string conversion, which reads ISO-8601. */
  private static Literal<?> parsed(String text, Type type) {
    try {
      return Literal.of(text).to(type);
    } catch (DateTimeException notIso) {
      return null;
    }
  }

  /**
   * Accepts the common spellings Iceberg's ISO parser does not: a space instead of {@code T} between date
   * and time, and, for timestamps without a zone, a bare date meaning midnight. A bare date is not accepted
   * for timestamptz: which midnight it means depends on a zone the filter does not give.
   */
  private static String isoTimestamp(String text, boolean zoned) {
    if (DATE_ONLY.matcher(text).matches()) {
      return zoned ? text : text + "T00:00:00";
    }
    if (text.length() > 10 && text.charAt(10) == ' ' && DATE_ONLY.matcher(text.substring(0, 10)).matches()) {
      return text.substring(0, 10) + 'T' + text.substring(11);
    }
    return text;
  }

  private static boolean isZoned(Type type) {
    if (type instanceof Types.TimestampType) {
      return ((Types.TimestampType) type).shouldAdjustToUTC();
    }
    return type instanceof Types.TimestampNanoType && ((Types.TimestampNanoType) type).shouldAdjustToUTC();
  }
}
