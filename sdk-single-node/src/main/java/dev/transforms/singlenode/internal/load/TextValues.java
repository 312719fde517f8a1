package dev.transforms.singlenode.internal.load;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;

/**
 * Parses text values as the types a load declares, strictly: nothing is rounded, trimmed or guessed.
 * Each parser throws {@link BadValue} with a message that quotes the value and says what was expected.
 */
final class TextValues {

  private static final long MICROS_PER_DAY = 86_400_000_000L;

  private TextValues() {}

  static String quote(char[] chars, int offset, int length) {
    String text = new String(chars, offset, Math.min(length, 60));
    return "'" + text + (length > 60 ? "...'" : "'");
  }

  static long parseLong(char[] chars, int offset, int length, String type) throws BadValue {
    int i = offset;
    int end = offset + length;
    boolean negative = false;
    if (i < end && (chars[i] == '-' || chars[i] == '+')) {
      negative = chars[i] == '-';
      i++;
    }
    if (i == end) {
      throw new BadValue(quote(chars, offset, length) + " is not " + type);
    }
    long value = 0;
    for (; i < end; i++) {
      int digit = chars[i] - '0';
      if (digit < 0 || digit > 9) {
        throw new BadValue(quote(chars, offset, length) + " is not " + type);
      }
      // Accumulate negatively so that Long.MIN_VALUE fits.
      if (value < (Long.MIN_VALUE + digit) / 10) {
        throw new BadValue(quote(chars, offset, length) + " is out of the range of " + type);
      }
      value = value * 10 - digit;
    }
    if (!negative) {
      if (value == Long.MIN_VALUE) {
        throw new BadValue(quote(chars, offset, length) + " is out of the range of " + type);
      }
      value = -value;
    }
    return value;
  }

  static int parseInt(char[] chars, int offset, int length) throws BadValue {
    long value = parseLong(chars, offset, length, "an int");
    if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
      throw new BadValue(quote(chars, offset, length) + " is out of the range of an int");
    }
    return (int) value;
  }

  static double parseDouble(char[] chars, int offset, int length, String type) throws BadValue {
    String text = new String(chars, offset, length);
    if (text.isEmpty() || Character.isWhitespace(text.charAt(0))
        || Character.isWhitespace(text.charAt(text.length() - 1)) || text.endsWith("d") || text.endsWith("D")
        || text.endsWith("f") || text.endsWith("F")) {
      throw new BadValue(quote(chars, offset, length) + " is not " + type);
    }
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new BadValue(quote(chars, offset, length) + " is not " + type);
    }
  }

  static boolean parseBoolean(char[] chars, int offset, int length) throws BadValue {
    String text = new String(chars, offset, length);
    if (text.equalsIgnoreCase("true")) {
      return true;
    }
    if (text.equalsIgnoreCase("false")) {
      return false;
    }
    throw new BadValue(quote(chars, offset, length) + " is not a boolean (true or false)");
  }

  /** A decimal with exactly the column's scale; more digits after the point than the scale is an error. */
  static BigDecimal parseDecimal(char[] chars, int offset, int length, int precision, int scale) throws BadValue {
    BigDecimal value;
    try {
      value = new BigDecimal(chars, offset, length);
    } catch (NumberFormatException e) {
      throw new BadValue(quote(chars, offset, length) + " is not a decimal number");
    }
    if (value.scale() > scale) {
      try {
        value = value.setScale(scale);
      } catch (ArithmeticException e) {
        throw new BadValue(quote(chars, offset, length) + " has " + value.scale() + " digits after the point; the "
            + "column holds " + scale);
      }
    } else {
      value = value.setScale(scale);
    }
    if (value.precision() > precision) {
      throw new BadValue(quote(chars, offset, length) + " has " + (value.precision() - scale) + " digits before the "
          + "point; the column holds " + (precision - scale));
    }
    return value;
  }

  /** Days since 1970-01-01 of an ISO date, {@code 2026-04-01}. */
  static int parseDate(char[] chars, int offset, int length) throws BadValue {
    if (length == 10 && chars[offset + 4] == '-' && chars[offset + 7] == '-') {
      int year = digits(chars, offset, 4);
      int month = digits(chars, offset + 5, 2);
      int day = digits(chars, offset + 8, 2);
      if (year >= 0 && month >= 0 && day >= 0) {
        try {
          return (int) LocalDate.of(year, month, day).toEpochDay();
        } catch (DateTimeException e) {
          throw new BadValue(quote(chars, offset, length) + " is not a valid date (" + e.getMessage() + ")");
        }
      }
    }
    throw new BadValue(quote(chars, offset, length) + " is not a date (yyyy-MM-dd)");
  }

  /** Microseconds of the day of an ISO time, {@code 13:45:00.123456}. */
  static long parseTime(char[] chars, int offset, int length) throws BadValue {
    try {
      return LocalTime.parse(new String(chars, offset, length)).toNanoOfDay() / 1000;
    } catch (DateTimeParseException e) {
      throw new BadValue(quote(chars, offset, length) + " is not a time (HH:mm:ss, with up to 6 fraction digits)");
    }
  }

  /**
   * Microseconds since the epoch of an ISO timestamp: {@code 2026-04-01T12:30:00}, a space allowed for
   * the {@code T}, seconds and a fraction of up to 6 digits optional. With {@code zoned}, the value must
   * end with an offset ({@code Z}, {@code +02:00}) and is converted to UTC; without, it must have none.
   */
  static long parseTimestamp(char[] chars, int offset, int length, boolean zoned) throws BadValue {
    int end = offset + length;
    int date = -1;
    if (length >= 16 && chars[offset + 4] == '-' && chars[offset + 7] == '-'
        && (chars[offset + 10] == 'T' || chars[offset + 10] == ' ') && chars[offset + 13] == ':') {
      int year = digits(chars, offset, 4);
      int month = digits(chars, offset + 5, 2);
      int day = digits(chars, offset + 8, 2);
      int hour = digits(chars, offset + 11, 2);
      int minute = digits(chars, offset + 14, 2);
      int i = offset + 16;
      int second = 0;
      long micros = 0;
      boolean ok = year >= 0 && month >= 0 && day >= 0 && hour >= 0 && hour < 24 && minute >= 0 && minute < 60;
      if (ok && i < end && chars[i] == ':') {
        second = i + 3 <= end ? digits(chars, i + 1, 2) : -1;
        ok = second >= 0 && second < 60;
        i += 3;
        if (ok && i < end && chars[i] == '.') {
          int fractionDigits = 0;
          i++;
          while (i < end && chars[i] >= '0' && chars[i] <= '9') {
            if (fractionDigits == 6) {
              throw new BadValue(quote(chars, offset, length) + " has more than 6 fraction digits; the column "
                  + "holds microseconds");
            }
            micros = micros * 10 + (chars[i] - '0');
            fractionDigits++;
            i++;
          }
          ok = fractionDigits > 0;
          for (int pad = fractionDigits; pad < 6; pad++) {
            micros *= 10;
          }
        }
      }
      long offsetSeconds = 0;
      boolean hasOffset = false;
      if (ok && i < end) {
        hasOffset = true;
        if (chars[i] == 'Z' && i + 1 == end) {
          i++;
        } else if ((chars[i] == '+' || chars[i] == '-') && (end - i == 6 || end - i == 5 || end - i == 3)) {
          int sign = chars[i] == '-' ? -1 : 1;
          int offsetHours = digits(chars, i + 1, 2);
          int offsetMinutes = end - i == 3 ? 0 : digits(chars, end - 2, 2);
          ok = offsetHours >= 0 && offsetHours <= 18 && offsetMinutes >= 0 && offsetMinutes < 60
              && (end - i != 6 || chars[i + 3] == ':');
          offsetSeconds = sign * (offsetHours * 3600L + offsetMinutes * 60L);
          i = end;
        } else {
          ok = false;
        }
      }
      if (ok && i == end) {
        if (zoned && !hasOffset) {
          throw new BadValue(quote(chars, offset, length) + " has no offset (Z or +02:00); the column is a "
              + "timestamptz, whose instant an offset fixes");
        }
        if (!zoned && hasOffset) {
          throw new BadValue(quote(chars, offset, length) + " has an offset; the column is a timestamp without "
              + "time zone (declare it timestamptz to keep instants)");
        }
        try {
          date = (int) LocalDate.of(year, month, day).toEpochDay();
        } catch (DateTimeException e) {
          throw new BadValue(quote(chars, offset, length) + " is not a valid timestamp (" + e.getMessage() + ")");
        }
        return date * MICROS_PER_DAY + ((hour * 60L + minute) * 60L + second - offsetSeconds) * 1_000_000L + micros;
      }
    }
    throw new BadValue(quote(chars, offset, length) + " is not a timestamp (yyyy-MM-dd HH:mm:ss[.ffffff]"
        + (zoned ? " followed by Z or an offset such as +02:00)" : ")"));
  }

  private static int digits(char[] chars, int offset, int count) {
    int value = 0;
    for (int i = offset; i < offset + count; i++) {
      int digit = chars[i] - '0';
      if (digit < 0 || digit > 9) {
        return -1;
      }
      value = value * 10 + digit;
    }
    return value;
  }
}
