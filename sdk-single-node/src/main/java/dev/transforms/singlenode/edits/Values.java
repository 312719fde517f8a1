package dev.transforms.singlenode.edits;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;

/**
 * Value normalization and equality for generic records.
 *
 * <p>A value read from a data file and the same value supplied by a caller can differ in Java form:
 * a {@code CharSequence} that is not a {@code String}, a {@code byte[]} where the reader gives a
 * {@code ByteBuffer}, a decimal with another scale, a timestamp with time zone at another offset.
 * Keys are therefore compared in Iceberg's internal representation ({@link #internal}), and whole
 * rows with {@link #sameValue}, which treats such pairs as equal.
 */
final class Values {
  private Values() {}

  /**
   * Converts a generic value to Iceberg's internal representation: dates to days, times and
   * timestamps to micros (or nanos), strings to {@code String}, binary and fixed to {@code
   * ByteBuffer}, decimals to the column's scale when that is exact. Other values are returned as
   * they are. The result has value-based {@code equals}/{@code hashCode} and, for the types where
   * that matters, orders with {@link org.apache.iceberg.types.Comparators#forType}.
   */
  static Object internal(Type.PrimitiveType type, Object value) {
    if (value == null) {
      return null;
    }

    switch (type.typeId()) {
      case STRING:
        return value.toString();
      case DATE:
        return value instanceof LocalDate ? DateTimeUtil.daysFromDate((LocalDate) value) : value;
      case TIME:
        return value instanceof LocalTime ? DateTimeUtil.microsFromTime((LocalTime) value) : value;
      case TIMESTAMP:
        if (value instanceof OffsetDateTime) {
          return DateTimeUtil.microsFromTimestamptz((OffsetDateTime) value);
        } else if (value instanceof LocalDateTime) {
          return DateTimeUtil.microsFromTimestamp((LocalDateTime) value);
        }
        return value;
      case TIMESTAMP_NANO:
        if (value instanceof OffsetDateTime) {
          return DateTimeUtil.nanosFromTimestamptz((OffsetDateTime) value);
        } else if (value instanceof LocalDateTime) {
          return DateTimeUtil.nanosFromTimestamp((LocalDateTime) value);
        }
        return value;
      case FIXED:
      case BINARY:
        if (value instanceof byte[]) {
          return ByteBuffer.wrap((byte[]) value);
        }
        return value;
      case DECIMAL:
        if (value instanceof BigDecimal) {
          BigDecimal decimal = (BigDecimal) value;
          int scale = ((Types.DecimalType) type).scale();
          if (decimal.scale() == scale) {
            return decimal;
          }
          try {
            return decimal.setScale(scale);
          } catch (ArithmeticException e) {
            return decimal.stripTrailingZeros();
          }
        }
        return value;
      default:
        return value;
    }
  }

  /** Returns whether two generic values of the given type denote the same Iceberg value. */
  static boolean sameValue(Type type, Object left, Object right) {
    if (left == right) {
      return true;
    } else if (left == null || right == null) {
      return false;
    }

    if (type.isPrimitiveType()) {
      if (type.typeId() == Type.TypeID.DECIMAL
          && left instanceof BigDecimal
          && right instanceof BigDecimal) {
        return ((BigDecimal) left).compareTo((BigDecimal) right) == 0;
      }
      return Objects.equals(
          internal(type.asPrimitiveType(), left), internal(type.asPrimitiveType(), right));
    }

    switch (type.typeId()) {
      case STRUCT:
        return sameStruct(type.asStructType(), (StructLike) left, (StructLike) right);
      case LIST:
        return sameList(type.asListType(), (List<?>) left, (List<?>) right);
      case MAP:
        return sameMap(type.asMapType(), (Map<?, ?>) left, (Map<?, ?>) right);
      default:
        return Objects.equals(left, right);
    }
  }

  /**
   * Returns whether the first {@code struct.fields().size()} values of two rows are the same.
   * Either row may carry extra trailing fields (such as {@code _pos}); they are ignored.
   */
  static boolean sameStruct(Types.StructType struct, StructLike left, StructLike right) {
    List<Types.NestedField> fields = struct.fields();
    for (int i = 0; i < fields.size(); i += 1) {
      if (!sameValue(fields.get(i).type(), left.get(i, Object.class), right.get(i, Object.class))) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameList(Types.ListType type, List<?> left, List<?> right) {
    if (left.size() != right.size()) {
      return false;
    }
    Iterator<?> leftValues = left.iterator();
    Iterator<?> rightValues = right.iterator();
    while (leftValues.hasNext()) {
      if (!sameValue(type.elementType(), leftValues.next(), rightValues.next())) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameMap(Types.MapType type, Map<?, ?> left, Map<?, ?> right) {
    if (left.size() != right.size()) {
      return false;
    } else if (!type.keyType().isPrimitiveType()) {
      return left.equals(right);
    }
    // keys are primitive: compare them in internal form, values with sameValue
    Map<Object, Object> rightByKey = new HashMap<>();
    for (Map.Entry<?, ?> entry : right.entrySet()) {
      rightByKey.put(internal(type.keyType().asPrimitiveType(), entry.getKey()), entry.getValue());
    }
    for (Map.Entry<?, ?> entry : left.entrySet()) {
      Object key = internal(type.keyType().asPrimitiveType(), entry.getKey());
      if (!rightByKey.containsKey(key)
          || !sameValue(type.valueType(), entry.getValue(), rightByKey.get(key))) {
        return false;
      }
    }
    return true;
  }

  /** Renders a value for an error message, cut short when long. */
  static String show(Object value) {
    if (value == null) {
      return "null";
    }
    String text;
    if (value instanceof CharSequence) {
      text = "'" + value + "'";
    } else if (value instanceof ByteBuffer) {
      text = "<" + ((ByteBuffer) value).remaining() + " bytes>";
    } else if (value instanceof byte[]) {
      text = "<" + ((byte[]) value).length + " bytes>";
    } else {
      text = String.valueOf(value);
    }
    return text.length() > 64 ? text.substring(0, 61) + "..." : text;
  }
}
