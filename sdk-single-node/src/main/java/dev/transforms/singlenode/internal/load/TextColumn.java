package dev.transforms.singlenode.internal.load;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * One declared column being filled from text: parses each value as the column's type and sets it in
 * the column's Arrow vector (laid out by {@code ArrowSchemas.toArrow}).
 */
abstract class TextColumn {
  final Types.NestedField field;
  private final FieldVector vector;

  private TextColumn(Types.NestedField field, FieldVector vector) {
    this.field = field;
    this.vector = vector;
  }

  /**
   * The column for a field, writing into its vector.
   *
   * @throws dev.transforms.api.InvalidLoadException for a type text cannot hold (nested types)
   */
  static TextColumn of(Types.NestedField field, FieldVector vector) {
    Type type = field.type();
    return switch (type.typeId()) {
      case BOOLEAN -> new TextColumn(field, vector) {
        @Override
        void set(int row, char[] c, int o, int n) throws BadValue {
          ((BitVector) vector()).setSafe(row, TextValues.parseBoolean(c, o, n) ? 1 : 0);
        }
      };
      case INTEGER -> new TextColumn(field, vector) {
        @Override
        void set(int row, char[] c, int o, int n) throws BadValue {
          ((IntVector) vector()).setSafe(row, TextValues.parseInt(c, o, n));
        }
      };
      case LONG -> new TextColumn(field, vector) {
        @Override
        void set(int row, char[] c, int o, int n) throws BadValue {
          ((BigIntVector) vector()).setSafe(row, TextValues.parseLong(c, o, n, "a long"));
        }
      };
      case FLOAT -> new TextColumn(field, vector) {
        @Override
        void set(int row, char[] c, int o, int n) throws BadValue {
          double value = TextValues.parseDouble(c, o, n, "a float");
          if (!Double.isInfinite(value) && Float.isInfinite((float) value)) {
            throw new BadValue(TextValues.quote(c, o, n) + " is out of the range of a float");
          }
          ((Float4Vector) vector()).setSafe(row, (float) value);
        }
      };
      case DOUBLE -> new TextColumn(field, vector) {
        @Override
        void set(int row, char[] c, int o, int n) throws BadValue {
          ((Float8Vector) vector()).setSafe(row, TextValues.parseDouble(c, o, n, "a double"));
        }
      };
      case DECIMAL -> new TextColumn(field, vector) {
        private final Types.DecimalType decimal = (Types.DecimalType) type;

        @Override
        void set(int row, char[] c, int o, int n) throws BadValue {
          ((DecimalVector) vector()).setSafe(row,
              TextValues.parseDecimal(c, o, n, decimal.precision(), decimal.scale()));
        }
      };
      case DATE -> new TextColumn(field, vector) {
        @Override
        void set(int row, char[] c, int o, int n) throws BadValue {
          ((DateDayVector) vector()).setSafe(row, TextValues.parseDate(c, o, n));
        }
      };
      case TIME -> new TextColumn(field, vector) {
        @Override
        void set(int row, char[] c, int o, int n) throws BadValue {
          ((TimeMicroVector) vector()).setSafe(row, TextValues.parseTime(c, o, n));
        }
      };
      case TIMESTAMP -> new TextColumn(field, vector) {
        private final boolean zoned = ((Types.TimestampType) type).shouldAdjustToUTC();

        @Override
        void set(int row, char[] c, int o, int n) throws BadValue {
          ((TimeStampVector) vector()).setSafe(row, TextValues.parseTimestamp(c, o, n, zoned));
        }
      };
      case STRING -> new TextColumn(field, vector) {
        private byte[] bytes = new byte[256];

        @Override
        void set(int row, char[] c, int o, int n) {
          // ASCII is copied byte for byte; anything else goes through the UTF-8 encoder.
          if (bytes.length < n) {
            bytes = new byte[Math.max(n, bytes.length * 2)];
          }
          for (int i = 0; i < n; i++) {
            char ch = c[o + i];
            if (ch >= 0x80) {
              byte[] encoded = new String(c, o, n).getBytes(StandardCharsets.UTF_8);
              ((VarCharVector) vector()).setSafe(row, encoded, 0, encoded.length);
              return;
            }
            bytes[i] = (byte) ch;
          }
          ((VarCharVector) vector()).setSafe(row, bytes, 0, n);
        }
      };
      case UUID -> new TextColumn(field, vector) {
        @Override
        void set(int row, char[] c, int o, int n) throws BadValue {
          UUID uuid;
          try {
            if (n != 36) {
              throw new IllegalArgumentException();
            }
            uuid = UUID.fromString(new String(c, o, n));
          } catch (IllegalArgumentException e) {
            throw new BadValue(TextValues.quote(c, o, n) + " is not a UUID (8-4-4-4-12 hexadecimal digits)");
          }
          ByteBuffer buffer = ByteBuffer.allocate(16);
          buffer.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
          ((FixedSizeBinaryVector) vector()).setSafe(row, buffer.array());
        }
      };
      case BINARY -> new TextColumn(field, vector) {
        @Override
        void set(int row, char[] c, int o, int n) throws BadValue {
          try {
            byte[] decoded = Base64.getDecoder().decode(new String(c, o, n));
            ((VarBinaryVector) vector()).setSafe(row, decoded, 0, decoded.length);
          } catch (IllegalArgumentException e) {
            throw new BadValue(TextValues.quote(c, o, n) + " is not base64 text");
          }
        }
      };
      default -> throw new dev.transforms.api.InvalidLoadException("Column " + field.name() + " has type "
          + type + ", which text files cannot hold; load it from Parquet");
    };
  }

  FieldVector vector() {
    return vector;
  }

  /** What the column is, for messages: {@code amount (decimal(10,2), not null)}. */
  String describe() {
    return field.name() + " (" + field.type() + (field.isRequired() ? ", not null" : "") + ")";
  }

  /**
   * Parses a value and sets it at a row.
   *
   * @throws BadValue if the text is not a value of the column's type
   */
  abstract void set(int row, char[] chars, int offset, int length) throws BadValue;

  /**
   * Sets a row's value to null.
   *
   * @throws BadValue if the column is required
   */
  void setNull(int row) throws BadValue {
    if (field.isRequired()) {
      throw new BadValue("empty, but the column is not null");
    }
    vector.setNull(row);
  }
}
