package dev.transforms.singlenode.internal.schema;

import dev.transforms.api.UnsupportedTypeException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Whether Arrow data fits an Iceberg schema, column by column: the comparison behind {@link
 * ArrowSchemaMapping#differences} and {@code checkReadable}. Columns are matched by name at every nesting level;
 * an Arrow type fits when it holds every value of the Iceberg type without loss ({@link #canHold}, the
 * types {@code docs/arrow-types.md} lists).
 */
public final class ArrowTypeFit {

  private ArrowTypeFit() {}

  public static void compareStruct(
      String prefix,
      Types.StructType struct,
      List<Field> arrowFields,
      boolean strict,
      List<String> differences) {
    Map<String, Field> byName = new LinkedHashMap<>();
    for (Field field : arrowFields) {
      if (byName.putIfAbsent(field.getName(), field) != null) {
        differences.add(
            String.format("column '%s' appears more than once in the Arrow data", prefix + field.getName()));
      }
    }
    Set<String> matched = new HashSet<>();
    for (Types.NestedField column : struct.fields()) {
      String path = prefix + column.name();
      Field field = byName.get(column.name());
      if (field == null) {
        if (column.isRequired()) {
          differences.add(
              String.format(
                  "required column '%s' (%s) is missing from the Arrow data", path, column.type()));
        }
        continue;
      }
      matched.add(column.name());
      if (strict && field.isNullable() && column.isRequired()) {
        differences.add(
            String.format(
                "column '%s' is nullable in the Arrow data but required in the table", path));
      }
      compareType(path, column.type(), field, strict, differences);
    }
    for (Field field : byName.values()) {
      if (strict && !matched.contains(field.getName())) {
        differences.add(
            String.format(
                "column '%s' (Arrow %s) is not in the table", prefix + field.getName(), field.getType()));
      }
    }
  }

  private static void compareType(
      String path, Type type, Field field, boolean strict, List<String> differences) {
    ArrowType arrowType = field.getType();
    if (field.getDictionary() != null) {
      differences.add(
          String.format(
              "column '%s' is dictionary-encoded in the Arrow data; decode it before writing", path));
      return;
    }
    switch (type.typeId()) {
      case STRUCT:
        if (arrowType.getTypeID() != ArrowType.ArrowTypeID.Struct) {
          differences.add(mismatch(path, type, arrowType));
        } else {
          compareStruct(path + ".", type.asStructType(), field.getChildren(), strict, differences);
        }
        return;
      case LIST:
        {
          ArrowType.ArrowTypeID id = arrowType.getTypeID();
          if (id != ArrowType.ArrowTypeID.List
              && id != ArrowType.ArrowTypeID.LargeList
              && id != ArrowType.ArrowTypeID.FixedSizeList) {
            differences.add(mismatch(path, type, arrowType));
            return;
          }
          Types.ListType list = type.asListType();
          Field element = field.getChildren().get(0);
          String elementPath = path + "." + ArrowSchemaMapping.LIST_ELEMENT_NAME;
          if (strict && element.isNullable() && list.isElementRequired()) {
            differences.add(
                String.format(
                    "list elements of '%s' are nullable in the Arrow data but required in the table",
                    path));
          }
          compareType(elementPath, list.elementType(), element, strict, differences);
          return;
        }
      case MAP:
        {
          if (arrowType.getTypeID() != ArrowType.ArrowTypeID.Map) {
            differences.add(mismatch(path, type, arrowType));
            return;
          }
          Types.MapType map = type.asMapType();
          List<Field> entries = field.getChildren().get(0).getChildren();
          Field value = entries.get(1);
          if (strict && value.isNullable() && map.isValueRequired()) {
            differences.add(
                String.format(
                    "map values of '%s' are nullable in the Arrow data but required in the table",
                    path));
          }
          compareType(path + "." + ArrowSchemaMapping.MAP_KEY_NAME, map.keyType(), entries.get(0), strict, differences);
          compareType(path + "." + ArrowSchemaMapping.MAP_VALUE_NAME, map.valueType(), value, strict, differences);
          return;
        }
      default:
        if (!canHold(type, arrowType)) {
          differences.add(mismatch(path, type, arrowType));
        }
    }
  }

  private static String mismatch(String path, Type type, ArrowType arrowType) {
    String expected;
    if (type.isPrimitiveType() && type.typeId() != Type.TypeID.VARIANT) {
      expected = expectedArrowName(type);
    } else {
      expected = type.typeId().name().toLowerCase(java.util.Locale.ROOT);
    }
    return String.format(
        "column '%s' has Arrow type %s but the table type is %s (expected Arrow %s)",
        path, arrowType, type, expected);
  }

  private static String expectedArrowName(Type type) {
    try {
      return ArrowSchemaMapping.toArrowType(type).toString();
    } catch (UnsupportedTypeException e) {
      return "none";
    }
  }

  /** Whether values of an Arrow type can be written to an Iceberg primitive column without loss. */
  public static boolean canHold(Type type, ArrowType arrowType) {
    if (arrowType instanceof ArrowType.ExtensionType) {
      return type.typeId() == Type.TypeID.UUID && ArrowSchemaMapping.isUuid(arrowType);
    }
    ArrowType.ArrowTypeID id = arrowType.getTypeID();
    switch (type.typeId()) {
      case BOOLEAN:
        return id == ArrowType.ArrowTypeID.Bool;
      case INTEGER:
        {
          if (id != ArrowType.ArrowTypeID.Int) {
            return false;
          }
          ArrowType.Int integer = (ArrowType.Int) arrowType;
          return integer.getIsSigned() ? integer.getBitWidth() <= 32 : integer.getBitWidth() <= 16;
        }
      case LONG:
        {
          if (id != ArrowType.ArrowTypeID.Int) {
            return false;
          }
          ArrowType.Int integer = (ArrowType.Int) arrowType;
          return integer.getIsSigned() ? integer.getBitWidth() <= 64 : integer.getBitWidth() <= 32;
        }
      case FLOAT:
        return id == ArrowType.ArrowTypeID.FloatingPoint
            && ((ArrowType.FloatingPoint) arrowType).getPrecision() == FloatingPointPrecision.SINGLE;
      case DOUBLE:
        return id == ArrowType.ArrowTypeID.FloatingPoint
            && ((ArrowType.FloatingPoint) arrowType).getPrecision() != FloatingPointPrecision.HALF;
      case DECIMAL:
        {
          if (id != ArrowType.ArrowTypeID.Decimal) {
            return false;
          }
          Types.DecimalType decimal = (Types.DecimalType) type;
          ArrowType.Decimal arrowDecimal = (ArrowType.Decimal) arrowType;
          return arrowDecimal.getScale() == decimal.scale()
              && arrowDecimal.getPrecision() <= decimal.precision();
        }
      case DATE:
        return id == ArrowType.ArrowTypeID.Date;
      case TIME:
        return id == ArrowType.ArrowTypeID.Time
            && ((ArrowType.Time) arrowType).getUnit() != TimeUnit.NANOSECOND;
      case TIMESTAMP:
        {
          if (id != ArrowType.ArrowTypeID.Timestamp) {
            return false;
          }
          ArrowType.Timestamp timestamp = (ArrowType.Timestamp) arrowType;
          boolean utc = ((Types.TimestampType) type).shouldAdjustToUTC();
          return timestamp.getUnit() != TimeUnit.NANOSECOND
              && (timestamp.getTimezone() != null) == utc;
        }
      case TIMESTAMP_NANO:
        {
          if (id != ArrowType.ArrowTypeID.Timestamp) {
            return false;
          }
          ArrowType.Timestamp timestamp = (ArrowType.Timestamp) arrowType;
          boolean utc = ((Types.TimestampNanoType) type).shouldAdjustToUTC();
          return (timestamp.getTimezone() != null) == utc;
        }
      case STRING:
        return id == ArrowType.ArrowTypeID.Utf8 || id == ArrowType.ArrowTypeID.LargeUtf8;
      case UUID:
        return ArrowSchemaMapping.isUuid(arrowType)
            || (id == ArrowType.ArrowTypeID.FixedSizeBinary
                && ((ArrowType.FixedSizeBinary) arrowType).getByteWidth() == 16);
      case FIXED:
        return id == ArrowType.ArrowTypeID.FixedSizeBinary
            && ((ArrowType.FixedSizeBinary) arrowType).getByteWidth()
                == ((Types.FixedType) type).length();
      case BINARY:
        return id == ArrowType.ArrowTypeID.Binary
            || id == ArrowType.ArrowTypeID.LargeBinary
            || id == ArrowType.ArrowTypeID.FixedSizeBinary;
      case UNKNOWN:
        return id == ArrowType.ArrowTypeID.Null;
      default:
        return false;
    }
  }
}
