package dev.transforms.interop;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Values in the canonical form both sides of the interop test print (see {@code interop/pyiceberg_check.py}):
 * every scalar a string, structs as maps, lists as lists, maps as sorted [key, value] pairs; and a small
 * JSON writer for them.
 */
final class Canonical {
  private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);
  private static final OffsetDateTime EPOCH_UTC = EPOCH.atOffset(ZoneOffset.UTC);

  private Canonical() {}

  /** The canonical form of a row of the struct type, as a map from column name to value. */
  static Map<String, Object> row(Types.StructType struct, StructLike row) {
    Map<String, Object> out = new LinkedHashMap<>();
    List<Types.NestedField> fields = struct.fields();
    for (int i = 0; i < fields.size(); i += 1) {
      out.put(fields.get(i).name(), value(fields.get(i).type(), row.get(i, Object.class)));
    }
    return out;
  }

  static Object value(Type type, Object value) {
    if (value == null) {
      return null;
    }
    switch (type.typeId()) {
      case BOOLEAN:
      case INTEGER:
      case LONG:
      case STRING:
        return value.toString();
      case FLOAT:
      case DOUBLE:
        return number(((Number) value).doubleValue());
      case DECIMAL:
        return ((BigDecimal) value).toPlainString();
      case DATE:
        return value.toString();
      case TIME:
        return Long.toString(((LocalTime) value).toNanoOfDay() / 1000);
      case TIMESTAMP:
        return value instanceof OffsetDateTime offset
            ? Long.toString(ChronoUnit.MICROS.between(EPOCH_UTC, offset))
            : Long.toString(ChronoUnit.MICROS.between(EPOCH, (LocalDateTime) value));
      case UUID:
        return ((UUID) value).toString().replace("-", "");
      case FIXED:
      case BINARY:
        return hex(value);
      case STRUCT:
        return row(type.asStructType(), (StructLike) value);
      case LIST:
        List<Object> list = new ArrayList<>();
        for (Object element : (List<?>) value) {
          list.add(value(type.asListType().elementType(), element));
        }
        return list;
      case MAP:
        List<List<Object>> pairs = new ArrayList<>();
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
          List<Object> pair = new ArrayList<>();
          pair.add(value(type.asMapType().keyType(), entry.getKey()));
          pair.add(value(type.asMapType().valueType(), entry.getValue()));
          pairs.add(pair);
        }
        pairs.sort((a, b) -> json(a.get(0)).compareTo(json(b.get(0))));
        return pairs;
      default:
        throw new IllegalArgumentException("No canonical form for type " + type);
    }
  }

  /** A double in plain exact decimal, as Python's {@code format(Decimal(x), "f")} gives it. */
  static String number(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "Infinity" : "-Infinity";
    }
    String text = new BigDecimal(value).toPlainString();
    return text.equals("-0") ? "0" : text;
  }

  private static String hex(Object value) {
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer copy = buffer.duplicate();
      byte[] bytes = new byte[copy.remaining()];
      copy.get(bytes);
      return HexFormat.of().formatHex(bytes);
    }
    return HexFormat.of().formatHex((byte[]) value);
  }

  /** JSON text of a canonical value: strings, null, lists and maps of them. */
  static String json(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  private static void write(Object value, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String text) {
      out.append('"');
      for (int i = 0; i < text.length(); i += 1) {
        char c = text.charAt(i);
        if (c == '"' || c == '\\') {
          out.append('\\').append(c);
        } else if (c < 0x20) {
          out.append(String.format("\\u%04x", (int) c));
        } else {
          out.append(c);
        }
      }
      out.append('"');
    } else if (value instanceof Boolean flag) {
      out.append(flag);
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        write(entry.getKey().toString(), out);
        out.append(':');
        write(entry.getValue(), out);
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i += 1) {
        if (i > 0) {
          out.append(',');
        }
        write(list.get(i), out);
      }
      out.append(']');
    } else {
      throw new IllegalArgumentException("Not a canonical value: " + value.getClass());
    }
  }
}
