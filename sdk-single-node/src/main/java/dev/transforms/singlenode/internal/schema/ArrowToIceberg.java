package dev.transforms.singlenode.internal.schema;

import dev.transforms.api.UnsupportedTypeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * Arrow schemas to Iceberg schemas with fresh field ids ({@link ArrowSchemaMapping#toIceberg}), for tables
 * created from Arrow data: nullable fields become optional, every field without an Iceberg counterpart
 * is named in one error.
 */
public final class ArrowToIceberg {

  private ArrowToIceberg() {}

  /** See {@link ArrowSchemaMapping#toIceberg}. */
  public static org.apache.iceberg.Schema schema(org.apache.arrow.vector.types.pojo.Schema arrowSchema) {
    AtomicInteger ids = new AtomicInteger(0);
    List<String> problems = new ArrayList<>();
    List<Types.NestedField> columns = new ArrayList<>();
    for (Field field : arrowSchema.getFields()) {
      columns.add(toIcebergField(field.getName(), field, ids, problems));
    }
    if (!problems.isEmpty()) {
      throw new UnsupportedTypeException(
          "Cannot convert the Arrow schema to Iceberg:\n  - " + String.join("\n  - ", problems));
    }
    org.apache.iceberg.Schema provisional = new org.apache.iceberg.Schema(columns);
    AtomicInteger freshIds = new AtomicInteger(0);
    return TypeUtil.assignFreshIds(provisional, freshIds::incrementAndGet);
  }

  private static Types.NestedField toIcebergField(
      String path, Field field, AtomicInteger ids, List<String> problems) {
    int id = ids.incrementAndGet();
    Type type = toIcebergType(path, field, ids, problems);
    return Types.NestedField.of(id, field.isNullable(), field.getName(), type);
  }

  private static Type toIcebergType(
      String path, Field field, AtomicInteger ids, List<String> problems) {
    if (field.getDictionary() != null) {
      problems.add(
          String.format(
              "column '%s' is dictionary-encoded; decode it before converting", path));
      return Types.StringType.get();
    }
    ArrowType type = field.getType();
    switch (type.getTypeID()) {
      case Struct:
        {
          List<Types.NestedField> children = new ArrayList<>();
          for (Field child : field.getChildren()) {
            children.add(toIcebergField(path + "." + child.getName(), child, ids, problems));
          }
          return Types.StructType.of(children);
        }
      case List:
      case LargeList:
      case FixedSizeList:
        {
          Field element = field.getChildren().get(0);
          int elementId = ids.incrementAndGet();
          Type elementType =
              toIcebergType(path + "." + ArrowSchemaMapping.LIST_ELEMENT_NAME, element, ids, problems);
          return element.isNullable()
              ? Types.ListType.ofOptional(elementId, elementType)
              : Types.ListType.ofRequired(elementId, elementType);
        }
      case Map:
        {
          Field entries = field.getChildren().get(0);
          Field key = entries.getChildren().get(0);
          Field value = entries.getChildren().get(1);
          int keyId = ids.incrementAndGet();
          int valueId = ids.incrementAndGet();
          Type keyType = toIcebergType(path + "." + ArrowSchemaMapping.MAP_KEY_NAME, key, ids, problems);
          Type valueType = toIcebergType(path + "." + ArrowSchemaMapping.MAP_VALUE_NAME, value, ids, problems);
          return value.isNullable()
              ? Types.MapType.ofOptional(keyId, valueId, keyType, valueType)
              : Types.MapType.ofRequired(keyId, valueId, keyType, valueType);
        }
      default:
        Type primitive = toIcebergPrimitive(type);
        if (primitive == null) {
          problems.add(
              String.format("column '%s' has Arrow type %s, which has no Iceberg counterpart", path, type));
          return Types.StringType.get();
        }
        return primitive;
    }
  }

  /**
   * The Iceberg type for an Arrow primitive type when creating a table, or null if there is none.
   */
  private static Type toIcebergPrimitive(ArrowType type) {
    if (type instanceof ArrowType.ExtensionType) {
      return ArrowSchemaMapping.isUuid(type) ? Types.UUIDType.get() : null;
    }
    switch (type.getTypeID()) {
      case Null:
        return Types.UnknownType.get();
      case Bool:
        return Types.BooleanType.get();
      case Int:
        {
          ArrowType.Int integer = (ArrowType.Int) type;
          if (integer.getIsSigned()) {
            return integer.getBitWidth() <= 32 ? Types.IntegerType.get() : Types.LongType.get();
          }
          if (integer.getBitWidth() <= 16) {
            return Types.IntegerType.get();
          }
          return integer.getBitWidth() <= 32 ? Types.LongType.get() : null;
        }
      case FloatingPoint:
        switch (((ArrowType.FloatingPoint) type).getPrecision()) {
          case SINGLE:
            return Types.FloatType.get();
          case DOUBLE:
            return Types.DoubleType.get();
          default:
            return null;
        }
      case Decimal:
        {
          ArrowType.Decimal decimal = (ArrowType.Decimal) type;
          if (decimal.getPrecision() > 38) {
            return null;
          }
          return Types.DecimalType.of(decimal.getPrecision(), decimal.getScale());
        }
      case Date:
        return Types.DateType.get();
      case Time:
        return ((ArrowType.Time) type).getUnit() == TimeUnit.NANOSECOND ? null : Types.TimeType.get();
      case Timestamp:
        {
          ArrowType.Timestamp timestamp = (ArrowType.Timestamp) type;
          boolean utc = timestamp.getTimezone() != null;
          if (timestamp.getUnit() == TimeUnit.NANOSECOND) {
            return utc ? Types.TimestampNanoType.withZone() : Types.TimestampNanoType.withoutZone();
          }
          return utc ? Types.TimestampType.withZone() : Types.TimestampType.withoutZone();
        }
      case Utf8:
      case LargeUtf8:
        return Types.StringType.get();
      case Binary:
      case LargeBinary:
        return Types.BinaryType.get();
      case FixedSizeBinary:
        return Types.FixedType.ofLength(((ArrowType.FixedSizeBinary) type).getByteWidth());
      default:
        return null;
    }
  }
}
