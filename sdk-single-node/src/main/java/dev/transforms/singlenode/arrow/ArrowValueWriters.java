package dev.transforms.singlenode.arrow;

import dev.transforms.api.UnsupportedTypeException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
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
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.shaded.org.apache.avro.util.Utf8;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;

/**
 * Writes values of Iceberg's generic data model into Arrow vectors laid out by {@link
 * ArrowSchemas#toArrow(org.apache.iceberg.Schema)}.
 *
 * <p>Writers are built once per vector, so the type dispatch happens once and not per value. They
 * grow the vectors they write to (with Arrow's {@code setSafe} methods), using the vectors' own
 * allocator; the vectors stay owned by whoever owns the {@link VectorSchemaRoot}.
 */
final class ArrowValueWriters {
  private ArrowValueWriters() {}

  /** Writes one value at a row index of a vector. */
  interface ValueWriter {
    /**
     * Writes a value, or a null.
     *
     * @param index the row index in the vector
     * @param value the value in Iceberg's generic representation, or null
     */
    void write(int index, Object value);
  }

  /**
   * Writes rows (Iceberg {@link StructLike}s, usually records) into the top-level vectors of a
   * root. The rows may hold more fields than the root, as long as every field of the root is found
   * at the same place in the source struct type.
   */
  static final class RowWriter {
    private final ValueWriter[] writers;
    private final int[] positions;

    /**
     * Creates a writer.
     *
     * @param root the root written to; its fields are those of {@code target}
     * @param target the Iceberg struct type of the root's fields, in the root's order
     * @param source the Iceberg struct type of the rows written, which holds every field of {@code
     *     target} (matched by field id) and possibly more
     */
    RowWriter(VectorSchemaRoot root, Types.StructType target, Types.StructType source) {
      List<Types.NestedField> fields = target.fields();
      this.writers = new ValueWriter[fields.size()];
      this.positions = positions(target, source);
      for (int i = 0; i < fields.size(); i++) {
        Types.NestedField field = fields.get(i);
        Types.NestedField sourceField = source.field(field.fieldId());
        writers[i] = writer(field.type(), sourceField.type(), root.getVector(i));
      }
    }

    /**
     * Writes one row.
     *
     * @param row the row, of the source struct type
     */
    void write(int index, StructLike row) {
      for (int i = 0; i < writers.length; i++) {
        writers[i].write(index, row.get(positions[i], Object.class));
      }
    }
  }

  private static int[] positions(Types.StructType target, Types.StructType source) {
    List<Types.NestedField> targetFields = target.fields();
    List<Types.NestedField> sourceFields = source.fields();
    int[] positions = new int[targetFields.size()];
    for (int i = 0; i < targetFields.size(); i++) {
      int id = targetFields.get(i).fieldId();
      positions[i] = -1;
      for (int j = 0; j < sourceFields.size(); j++) {
        if (sourceFields.get(j).fieldId() == id) {
          positions[i] = j;
          break;
        }
      }
      if (positions[i] < 0) {
        throw new IllegalArgumentException(
            "Cannot find field " + targetFields.get(i) + " in the rows read: " + source);
      }
    }
    return positions;
  }

  /**
   * Builds a writer for one vector.
   *
   * @param target the Iceberg type of the vector, as given to {@link ArrowSchemas#toArrow}
   * @param source the Iceberg type of the values written; differs from {@code target} only by extra
   *     struct fields
   */
  static ValueWriter writer(Type target, Type source, FieldVector vector) {
    switch (target.typeId()) {
      case BOOLEAN:
        {
          BitVector bits = (BitVector) vector;
          return (index, value) -> {
            if (value == null) {
              bits.setNull(index);
            } else {
              bits.setSafe(index, (Boolean) value ? 1 : 0);
            }
          };
        }
      case INTEGER:
        {
          IntVector ints = (IntVector) vector;
          return (index, value) -> {
            if (value == null) {
              ints.setNull(index);
            } else {
              ints.setSafe(index, (Integer) value);
            }
          };
        }
      case LONG:
        {
          BigIntVector longs = (BigIntVector) vector;
          return (index, value) -> {
            if (value == null) {
              longs.setNull(index);
            } else {
              longs.setSafe(index, (Long) value);
            }
          };
        }
      case FLOAT:
        {
          Float4Vector floats = (Float4Vector) vector;
          return (index, value) -> {
            if (value == null) {
              floats.setNull(index);
            } else {
              floats.setSafe(index, (Float) value);
            }
          };
        }
      case DOUBLE:
        {
          Float8Vector doubles = (Float8Vector) vector;
          return (index, value) -> {
            if (value == null) {
              doubles.setNull(index);
            } else {
              doubles.setSafe(index, (Double) value);
            }
          };
        }
      case DECIMAL:
        {
          DecimalVector decimals = (DecimalVector) vector;
          return (index, value) -> {
            if (value == null) {
              decimals.setNull(index);
            } else {
              decimals.setSafe(index, (BigDecimal) value);
            }
          };
        }
      case DATE:
        {
          DateDayVector dates = (DateDayVector) vector;
          return (index, value) -> {
            if (value == null) {
              dates.setNull(index);
            } else {
              dates.setSafe(index, DateTimeUtil.daysFromDate((LocalDate) value));
            }
          };
        }
      case TIME:
        {
          TimeMicroVector times = (TimeMicroVector) vector;
          return (index, value) -> {
            if (value == null) {
              times.setNull(index);
            } else {
              times.setSafe(index, DateTimeUtil.microsFromTime((LocalTime) value));
            }
          };
        }
      case TIMESTAMP:
        {
          TimeStampVector timestamps = (TimeStampVector) vector;
          if (((Types.TimestampType) target).shouldAdjustToUTC()) {
            return (index, value) -> {
              if (value == null) {
                timestamps.setNull(index);
              } else {
                timestamps.setSafe(
                    index, DateTimeUtil.microsFromTimestamptz((OffsetDateTime) value));
              }
            };
          }
          return (index, value) -> {
            if (value == null) {
              timestamps.setNull(index);
            } else {
              timestamps.setSafe(index, DateTimeUtil.microsFromTimestamp((LocalDateTime) value));
            }
          };
        }
      case TIMESTAMP_NANO:
        {
          TimeStampVector timestamps = (TimeStampVector) vector;
          if (((Types.TimestampNanoType) target).shouldAdjustToUTC()) {
            return (index, value) -> {
              if (value == null) {
                timestamps.setNull(index);
              } else {
                timestamps.setSafe(index, DateTimeUtil.nanosFromTimestamptz((OffsetDateTime) value));
              }
            };
          }
          return (index, value) -> {
            if (value == null) {
              timestamps.setNull(index);
            } else {
              timestamps.setSafe(index, DateTimeUtil.nanosFromTimestamp((LocalDateTime) value));
            }
          };
        }
      case STRING:
        {
          VarCharVector strings = (VarCharVector) vector;
          return (index, value) -> {
            if (value == null) {
              strings.setNull(index);
            } else if (value instanceof Utf8) { // bytes as read from Parquet: no decoding
              Utf8 utf8 = (Utf8) value;
              strings.setSafe(index, utf8.getBytes(), 0, utf8.getByteLength());
            } else {
              strings.setSafe(index, value.toString().getBytes(StandardCharsets.UTF_8));
            }
          };
        }
      case UUID:
        {
          FixedSizeBinaryVector fixed = (FixedSizeBinaryVector) vector;
          return (index, value) -> {
            if (value == null) {
              fixed.setNull(index);
            } else if (value instanceof UUID) {
              UUID uuid = (UUID) value;
              byte[] bytes =
                  ByteBuffer.allocate(16)
                      .putLong(uuid.getMostSignificantBits())
                      .putLong(uuid.getLeastSignificantBits())
                      .array();
              fixed.setSafe(index, bytes);
            } else {
              fixed.setSafe(index, bytes(value));
            }
          };
        }
      case FIXED:
        {
          FixedSizeBinaryVector fixed = (FixedSizeBinaryVector) vector;
          return (index, value) -> {
            if (value == null) {
              fixed.setNull(index);
            } else {
              fixed.setSafe(index, bytes(value));
            }
          };
        }
      case BINARY:
        {
          VarBinaryVector binary = (VarBinaryVector) vector;
          return (index, value) -> {
            if (value == null) {
              binary.setNull(index);
            } else if (value instanceof ByteBuffer) {
              // Arrow may move the buffer's position: never touch the caller's buffer
              ByteBuffer buffer = ((ByteBuffer) value).duplicate();
              binary.setSafe(index, buffer, buffer.position(), buffer.remaining());
            } else {
              binary.setSafe(index, (byte[]) value);
            }
          };
        }
      case UNKNOWN:
        return (index, value) -> {};
      case STRUCT:
        return structWriter(target.asStructType(), source.asStructType(), (StructVector) vector);
      case LIST:
        return listWriter(target.asListType(), source.asListType(), (ListVector) vector);
      case MAP:
        return mapWriter(target.asMapType(), source.asMapType(), (MapVector) vector);
      default:
        throw new UnsupportedTypeException(
            String.format(
                "Column '%s' has Iceberg type %s, which has no Arrow counterpart in this SDK",
                vector.getName(), target));
    }
  }

  private static byte[] bytes(Object value) {
    if (value instanceof byte[]) {
      return (byte[]) value;
    }
    ByteBuffer buffer = ((ByteBuffer) value).duplicate();
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    return bytes;
  }

  private static ValueWriter structWriter(
      Types.StructType target, Types.StructType source, StructVector vector) {
    List<Types.NestedField> fields = target.fields();
    int[] positions = positions(target, source);
    ValueWriter[] writers = new ValueWriter[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      Types.NestedField field = fields.get(i);
      writers[i] =
          writer(
              field.type(),
              source.field(field.fieldId()).type(),
              (FieldVector) vector.getChildByOrdinal(i));
    }
    return (index, value) -> {
      if (value == null) {
        vector.setNull(index);
        return;
      }
      StructLike struct = (StructLike) value;
      vector.setIndexDefined(index);
      for (int i = 0; i < writers.length; i++) {
        writers[i].write(index, struct.get(positions[i], Object.class));
      }
    };
  }

  private static ValueWriter listWriter(
      Types.ListType target, Types.ListType source, ListVector vector) {
    ValueWriter element =
        writer(target.elementType(), source.elementType(), vector.getDataVector());
    return (index, value) -> {
      if (value == null) {
        vector.setNull(index);
        return;
      }
      List<?> list = (List<?>) value;
      int offset = vector.startNewValue(index);
      int size = list.size();
      for (int i = 0; i < size; i++) {
        element.write(offset + i, list.get(i));
      }
      vector.endValue(index, size);
    };
  }

  private static ValueWriter mapWriter(Types.MapType target, Types.MapType source, MapVector vector) {
    StructVector entries = (StructVector) vector.getDataVector();
    ValueWriter key =
        writer(target.keyType(), source.keyType(), (FieldVector) entries.getChildByOrdinal(0));
    ValueWriter value =
        writer(target.valueType(), source.valueType(), (FieldVector) entries.getChildByOrdinal(1));
    return (index, map) -> {
      if (map == null) {
        vector.setNull(index);
        return;
      }
      int offset = vector.startNewValue(index);
      int size = 0;
      for (Map.Entry<?, ?> entry : ((Map<?, ?>) map).entrySet()) {
        int entryIndex = offset + size;
        entries.setIndexDefined(entryIndex);
        key.write(entryIndex, entry.getKey());
        value.write(entryIndex, entry.getValue());
        size += 1;
      }
      vector.endValue(index, size);
    };
  }
}
