package dev.transforms.singlenode.arrow;

import dev.transforms.api.UnsupportedTypeException;
import dev.transforms.singlenode.internal.schema.ArrowSchemaMapping;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;

/**
 * Reads values out of Arrow vectors as the Java objects of Iceberg's generic data model ({@link
 * Record}, {@code LocalDate}, {@code OffsetDateTime}, {@code ByteBuffer}...).
 *
 * <p>A reader is built once per vector and column type, so the type dispatch happens once and not
 * per value. Readers only read; they never allocate or free Arrow memory.
 */
final class ArrowValueReaders {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private ArrowValueReaders() {}

  /** Reads the value at one row index of a vector. */
  @FunctionalInterface
  interface ValueReader {
    /**
     * Returns the value at a row index.
     *
     * @param index the row index in the vector
     * @return the value, or null if the slot is null
     */
    Object read(int index);
  }

  /** Reads the rows of a set of top-level vectors as records of an Iceberg struct type. */
  static final class RowReader {
    private final Types.StructType struct;
    private final ValueReader[] readers;

    /**
     * Creates a reader.
     *
     * @param struct the Iceberg struct type of the records produced
     * @param vectorsByName the vectors, by column name; a missing column reads as null
     */
    RowReader(Types.StructType struct, Map<String, ? extends ValueVector> vectorsByName) {
      this.struct = struct;
      List<Types.NestedField> fields = struct.fields();
      this.readers = new ValueReader[fields.size()];
      for (int i = 0; i < fields.size(); i++) {
        Types.NestedField field = fields.get(i);
        ValueVector vector = vectorsByName.get(field.name());
        readers[i] = vector == null ? index -> null : reader(field.name(), field.type(), vector);
      }
    }

    /**
     * Fills a record with the values of one row.
     *
     * @param reuse a record of this reader's struct type to overwrite
     * @return {@code reuse}, filled
     */
    Record read(int index, Record reuse) {
      for (int i = 0; i < readers.length; i++) {
        reuse.set(i, readers[i].read(index));
      }
      return reuse;
    }

    /** Reads one row into a new record. */
    Record read(int index) {
      return read(index, GenericRecord.create(struct));
    }
  }

  /**
   * Builds a reader for one vector holding values of an Iceberg type.
   *
   * @param path the column path, for error messages
   * @param type the Iceberg type of the values
   * @param vector the vector; its Arrow type must be one that {@link ArrowTypeFit#canHold} accepts
   * @throws UnsupportedTypeException if the vector cannot hold values of the type
   */
  static ValueReader reader(String path, Type type, ValueVector vector) {
    if (vector instanceof ExtensionTypeVector) {
      return reader(path, type, ((ExtensionTypeVector<?>) vector).getUnderlyingVector());
    }
    switch (type.typeId()) {
      case BOOLEAN:
        {
          BitVector bits = cast(path, type, vector, BitVector.class);
          return index -> bits.isNull(index) ? null : bits.get(index) != 0;
        }
      case INTEGER:
        {
          BaseIntVector ints = cast(path, type, vector, BaseIntVector.class);
          return index -> vector.isNull(index) ? null : (int) ints.getValueAsLong(index);
        }
      case LONG:
        {
          BaseIntVector ints = cast(path, type, vector, BaseIntVector.class);
          return index -> vector.isNull(index) ? null : ints.getValueAsLong(index);
        }
      case FLOAT:
        {
          Float4Vector floats = cast(path, type, vector, Float4Vector.class);
          return index -> floats.isNull(index) ? null : floats.get(index);
        }
      case DOUBLE:
        if (vector instanceof Float4Vector) {
          Float4Vector floats = (Float4Vector) vector;
          return index -> floats.isNull(index) ? null : (double) floats.get(index);
        } else {
          Float8Vector doubles = cast(path, type, vector, Float8Vector.class);
          return index -> doubles.isNull(index) ? null : doubles.get(index);
        }
      case DECIMAL:
        return decimalReader(path, (Types.DecimalType) type, vector);
      case DATE:
        if (vector instanceof DateMilliVector) {
          DateMilliVector dates = (DateMilliVector) vector;
          return index ->
              dates.isNull(index)
                  ? null
                  : LocalDate.ofEpochDay(Math.floorDiv(dates.get(index), MILLIS_PER_DAY));
        } else {
          DateDayVector dates = cast(path, type, vector, DateDayVector.class);
          return index -> dates.isNull(index) ? null : DateTimeUtil.dateFromDays(dates.get(index));
        }
      case TIME:
        return timeReader(path, type, vector);
      case TIMESTAMP:
        {
          TimeStampVector timestamps = cast(path, type, vector, TimeStampVector.class);
          long toMicros = microsFactor(timestamps);
          if (((Types.TimestampType) type).shouldAdjustToUTC()) {
            return index ->
                timestamps.isNull(index)
                    ? null
                    : DateTimeUtil.timestamptzFromMicros(timestamps.get(index) * toMicros);
          }
          return index ->
              timestamps.isNull(index)
                  ? null
                  : DateTimeUtil.timestampFromMicros(timestamps.get(index) * toMicros);
        }
      case TIMESTAMP_NANO:
        {
          TimeStampVector timestamps = cast(path, type, vector, TimeStampVector.class);
          long toNanos = nanosFactor(timestamps);
          if (((Types.TimestampNanoType) type).shouldAdjustToUTC()) {
            return index ->
                timestamps.isNull(index)
                    ? null
                    : DateTimeUtil.timestamptzFromNanos(timestamps.get(index) * toNanos);
          }
          return index ->
              timestamps.isNull(index)
                  ? null
                  : DateTimeUtil.timestampFromNanos(timestamps.get(index) * toNanos);
        }
      case STRING:
        {
          ValueReader bytes = bytesReader(path, type, vector);
          return index -> {
            byte[] value = (byte[]) bytes.read(index);
            return value == null ? null : new String(value, StandardCharsets.UTF_8);
          };
        }
      case UUID:
        {
          FixedSizeBinaryVector fixed = cast(path, type, vector, FixedSizeBinaryVector.class);
          return index -> {
            byte[] value = fixed.isNull(index) ? null : fixed.get(index);
            if (value == null) {
              return null;
            }
            ByteBuffer buffer = ByteBuffer.wrap(value);
            return new UUID(buffer.getLong(), buffer.getLong());
          };
        }
      case FIXED:
        {
          FixedSizeBinaryVector fixed = cast(path, type, vector, FixedSizeBinaryVector.class);
          return index -> fixed.isNull(index) ? null : fixed.get(index);
        }
      case BINARY:
        {
          ValueReader bytes = bytesReader(path, type, vector);
          return index -> {
            byte[] value = (byte[]) bytes.read(index);
            return value == null ? null : ByteBuffer.wrap(value);
          };
        }
      case UNKNOWN:
        return index -> null;
      case STRUCT:
        return structReader(path, type.asStructType(), vector);
      case LIST:
        return listReader(path, type.asListType(), vector);
      case MAP:
        return mapReader(path, type.asMapType(), vector);
      default:
        throw new UnsupportedTypeException(
            String.format("Column '%s' has Iceberg type %s, which this SDK cannot write", path, type));
    }
  }

  private static ValueReader decimalReader(String path, Types.DecimalType type, ValueVector vector) {
    if (vector instanceof Decimal256Vector) {
      Decimal256Vector decimals = (Decimal256Vector) vector;
      return index -> decimals.isNull(index) ? null : decimals.getObject(index);
    }
    DecimalVector decimals = cast(path, type, vector, DecimalVector.class);
    return index -> {
      if (decimals.isNull(index)) {
        return null;
      }
      BigDecimal value = decimals.getObject(index);
      return value.scale() == type.scale() ? value : value.setScale(type.scale());
    };
  }

  private static ValueReader timeReader(String path, Type type, ValueVector vector) {
    if (vector instanceof TimeMicroVector) {
      TimeMicroVector times = (TimeMicroVector) vector;
      return index -> times.isNull(index) ? null : DateTimeUtil.timeFromMicros(times.get(index));
    } else if (vector instanceof TimeMilliVector) {
      TimeMilliVector times = (TimeMilliVector) vector;
      return index ->
          times.isNull(index) ? null : LocalTime.ofNanoOfDay(times.get(index) * 1_000_000L);
    } else {
      TimeSecVector times = cast(path, type, vector, TimeSecVector.class);
      return index -> times.isNull(index) ? null : LocalTime.ofSecondOfDay(times.get(index));
    }
  }

  private static ValueReader bytesReader(String path, Type type, ValueVector vector) {
    if (vector instanceof BaseVariableWidthVector) {
      BaseVariableWidthVector bytes = (BaseVariableWidthVector) vector;
      return index -> bytes.isNull(index) ? null : bytes.get(index);
    } else if (vector instanceof BaseLargeVariableWidthVector) {
      BaseLargeVariableWidthVector bytes = (BaseLargeVariableWidthVector) vector;
      return index -> bytes.isNull(index) ? null : bytes.get(index);
    } else {
      FixedSizeBinaryVector bytes = cast(path, type, vector, FixedSizeBinaryVector.class);
      return index -> bytes.isNull(index) ? null : bytes.get(index);
    }
  }

  private static ValueReader structReader(String path, Types.StructType struct, ValueVector vector) {
    StructVector structs = cast(path, struct, vector, StructVector.class);
    Map<String, ValueVector> children = new HashMap<>();
    for (String name : structs.getChildFieldNames()) {
      children.put(name, structs.getChild(name));
    }
    List<Types.NestedField> fields = struct.fields();
    ValueReader[] readers = new ValueReader[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      Types.NestedField field = fields.get(i);
      ValueVector child = children.get(field.name());
      readers[i] =
          child == null ? index -> null : reader(path + "." + field.name(), field.type(), child);
    }
    return index -> {
      if (structs.isNull(index)) {
        return null;
      }
      Record record = GenericRecord.create(struct);
      for (int i = 0; i < readers.length; i++) {
        record.set(i, readers[i].read(index));
      }
      return record;
    };
  }

  private static ValueReader listReader(String path, Types.ListType list, ValueVector vector) {
    String elementPath = path + "." + ArrowSchemaMapping.LIST_ELEMENT_NAME;
    if (vector instanceof ListVector && !(vector instanceof MapVector)) {
      ListVector lists = (ListVector) vector;
      ValueReader element = reader(elementPath, list.elementType(), lists.getDataVector());
      return index -> {
        if (lists.isNull(index)) {
          return null;
        }
        return readList(element, lists.getElementStartIndex(index), lists.getElementEndIndex(index));
      };
    } else if (vector instanceof LargeListVector) {
      LargeListVector lists = (LargeListVector) vector;
      ValueReader element = reader(elementPath, list.elementType(), lists.getDataVector());
      return index -> {
        if (lists.isNull(index)) {
          return null;
        }
        return readList(
            element,
            Math.toIntExact(lists.getElementStartIndex(index)),
            Math.toIntExact(lists.getElementEndIndex(index)));
      };
    } else {
      FixedSizeListVector lists = cast(path, list, vector, FixedSizeListVector.class);
      ValueReader element = reader(elementPath, list.elementType(), lists.getDataVector());
      int size = lists.getListSize();
      return index -> lists.isNull(index) ? null : readList(element, index * size, (index + 1) * size);
    }
  }

  private static List<Object> readList(ValueReader element, int start, int end) {
    if (start == end) {
      return new ArrayList<>(0);
    }
    List<Object> values = new ArrayList<>(end - start);
    for (int i = start; i < end; i++) {
      values.add(element.read(i));
    }
    return values;
  }

  private static ValueReader mapReader(String path, Types.MapType map, ValueVector vector) {
    MapVector maps = cast(path, map, vector, MapVector.class);
    StructVector entries = (StructVector) maps.getDataVector();
    ValueReader key =
        reader(path + "." + ArrowSchemaMapping.MAP_KEY_NAME, map.keyType(), entries.getChildByOrdinal(0));
    ValueReader value =
        reader(
            path + "." + ArrowSchemaMapping.MAP_VALUE_NAME, map.valueType(), entries.getChildByOrdinal(1));
    return index -> {
      if (maps.isNull(index)) {
        return null;
      }
      int start = maps.getElementStartIndex(index);
      int end = maps.getElementEndIndex(index);
      if (start == end) {
        return Collections.emptyMap();
      }
      Map<Object, Object> result = new LinkedHashMap<>();
      for (int i = start; i < end; i++) {
        result.put(key.read(i), value.read(i));
      }
      return result;
    };
  }

  private static long microsFactor(TimeStampVector vector) {
    long toNanos = nanosFactor(vector);
    if (toNanos == 1L) {
      throw new UnsupportedTypeException(String.format(
          "Column '%s' holds nanosecond timestamps; the table column has microseconds", vector.getName()));
    }
    return toNanos / 1_000L;
  }

  private static long nanosFactor(TimeStampVector vector) {
    TimeUnit unit = ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
    switch (unit) {
      case SECOND:
        return 1_000_000_000L;
      case MILLISECOND:
        return 1_000_000L;
      case MICROSECOND:
        return 1_000L;
      default:
        return 1L;
    }
  }

  private static <V> V cast(String path, Type type, ValueVector vector, Class<V> expected) {
    if (!expected.isInstance(vector)) {
      throw new UnsupportedTypeException(
          String.format(
              "Column '%s' has Arrow type %s, which cannot hold Iceberg type %s",
              path, vector.getField().getType(), type));
    }
    return expected.cast(vector);
  }
}
