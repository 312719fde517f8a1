package dev.transforms.singlenode.internal.parquet;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import org.apache.iceberg.shaded.org.apache.parquet.io.api.Binary;
import org.apache.iceberg.shaded.org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveType;
import org.apache.iceberg.shaded.org.apache.parquet.schema.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;
import org.apache.iceberg.util.UUIDUtil;

/** Parquet values to the Java types of Iceberg's generic records: the decoder of one column. */
@FunctionalInterface
interface ValueDecoder {
  /**
   * The current value of a column, in the Java type of Iceberg's generic records.
   *
   * @param values the column's values, at a row that has one
   */
  Object decode(ParquetColumnValues values);

  /**
   * The decoder of a file column for the table's type.
   *
   * @param type the table's type of the column
   * @return the decoder, or null when it is not handled here
   */
  static ValueDecoder of(PrimitiveType file, org.apache.iceberg.types.Type type) {
    PrimitiveType.PrimitiveTypeName physical = file.getPrimitiveTypeName();
    LogicalTypeAnnotation logical = file.getLogicalTypeAnnotation();
    switch (type.typeId()) {
      case BOOLEAN:
        return physical == PrimitiveType.PrimitiveTypeName.BOOLEAN ? ParquetColumnValues::getBoolean : null;
      case INTEGER:
        return physical == PrimitiveType.PrimitiveTypeName.INT32 ? ParquetColumnValues::getInteger : null;
      case LONG:
        if (physical == PrimitiveType.PrimitiveTypeName.INT64) {
          return ParquetColumnValues::getLong;
        }
        return physical == PrimitiveType.PrimitiveTypeName.INT32
            ? reader -> (long) reader.getInteger()
            : null;
      case FLOAT:
        return physical == PrimitiveType.PrimitiveTypeName.FLOAT ? ParquetColumnValues::getFloat : null;
      case DOUBLE:
        if (physical == PrimitiveType.PrimitiveTypeName.DOUBLE) {
          return ParquetColumnValues::getDouble;
        }
        return physical == PrimitiveType.PrimitiveTypeName.FLOAT
            ? reader -> (double) reader.getFloat()
            : null;
      case DATE:
        return physical == PrimitiveType.PrimitiveTypeName.INT32
            ? reader -> DateTimeUtil.dateFromDays(reader.getInteger())
            : null;
      case TIME:
        return physical == PrimitiveType.PrimitiveTypeName.INT64 && hasUnit(logical, MICROS)
            ? reader -> DateTimeUtil.timeFromMicros(reader.getLong())
            : null;
      case TIMESTAMP:
        if (physical != PrimitiveType.PrimitiveTypeName.INT64 || !hasUnit(logical, MICROS)) {
          return null;
        }
        return ((Types.TimestampType) type).shouldAdjustToUTC()
            ? reader -> DateTimeUtil.timestamptzFromMicros(reader.getLong())
            : reader -> DateTimeUtil.timestampFromMicros(reader.getLong());
      case TIMESTAMP_NANO:
        if (physical != PrimitiveType.PrimitiveTypeName.INT64 || !hasUnit(logical, NANOS)) {
          return null;
        }
        return ((Types.TimestampNanoType) type).shouldAdjustToUTC()
            ? reader -> DateTimeUtil.timestamptzFromNanos(reader.getLong())
            : reader -> DateTimeUtil.timestampFromNanos(reader.getLong());
      case STRING:
        return physical == PrimitiveType.PrimitiveTypeName.BINARY
            ? ParquetColumnValues::getString
            : null;
      case UUID:
        return physical == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
                && file.getTypeLength() == 16
            ? reader -> UUIDUtil.convert(reader.getBinary().getBytes())
            : null;
      case FIXED:
        return physical == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
            ? reader -> ownBytes(reader.getBinary())
            : null;
      case BINARY:
        return physical == PrimitiveType.PrimitiveTypeName.BINARY
            ? reader -> ByteBuffer.wrap(ownBytes(reader.getBinary()))
            : null;
      case DECIMAL:
        return decimal(physical, ((Types.DecimalType) type).scale());
      default:
        return null;
    }
  }

  /** The bytes of a value, in an array nobody else holds (a dictionary's values are shared). */
  private static byte[] ownBytes(Binary binary) {
    byte[] bytes = binary.getBytes();
    return java.util.Arrays.copyOf(bytes, bytes.length);
  }

  LogicalTypeAnnotation.TimeUnit MICROS = LogicalTypeAnnotation.TimeUnit.MICROS;
  LogicalTypeAnnotation.TimeUnit NANOS = LogicalTypeAnnotation.TimeUnit.NANOS;

  private static boolean hasUnit(LogicalTypeAnnotation logical, LogicalTypeAnnotation.TimeUnit unit) {
    if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) {
      return ((LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) logical).getUnit() == unit;
    }
    if (logical instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation) {
      return ((LogicalTypeAnnotation.TimeLogicalTypeAnnotation) logical).getUnit() == unit;
    }
    return false;
  }

  private static ValueDecoder decimal(PrimitiveType.PrimitiveTypeName physical, int scale) {
    switch (physical) {
      case INT32:
        return reader -> BigDecimal.valueOf(reader.getInteger(), scale);
      case INT64:
        return reader -> BigDecimal.valueOf(reader.getLong(), scale);
      case BINARY:
      case FIXED_LEN_BYTE_ARRAY:
        return reader -> new BigDecimal(new BigInteger(reader.getBinary().getBytes()), scale);
      default:
        return null;
    }
  }
}
