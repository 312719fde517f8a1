package dev.transforms.singlenode.internal.schema;

import dev.transforms.api.SchemaMismatchException;
import dev.transforms.api.UnsupportedTypeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The mapping between Iceberg and Arrow schemas behind the public {@code ArrowSchemas}, for the engine's
 * own readers and writers below the {@code arrow} package (see {@code docs/arrow-types.md}).
 */
public final class ArrowSchemaMapping {
  /** The Arrow field metadata key under which the Iceberg field id is kept. */
  public static final String FIELD_ID_KEY = "PARQUET:field_id";

  /** The name Arrow gives the child field of a list. */
  public static final String LIST_ELEMENT_NAME = "element";

  /** The names Arrow gives the entries struct of a map and its two children. */
  public static final String MAP_ENTRIES_NAME = "entries";

  public static final String MAP_KEY_NAME = "key";
  public static final String MAP_VALUE_NAME = "value";

  /** The Arrow time zone used for Iceberg {@code timestamptz} and {@code timestamptz_ns}. */
  public static final String UTC = "UTC";

  public static final String UUID_EXTENSION_NAME = "arrow.uuid";

  private ArrowSchemaMapping() {}

  /**
   * Converts an Iceberg schema to an Arrow schema, keeping field ids and nullability.
   *
   * @param schema an Iceberg schema
   * @return the Arrow schema with one top-level field per Iceberg column, in the same order
   * @throws UnsupportedTypeException if a column has a type without an Arrow counterpart ({@code
   *     variant}, {@code geometry}, {@code geography})
   */
  public static org.apache.arrow.vector.types.pojo.Schema toArrow(org.apache.iceberg.Schema schema) {
    List<Field> fields = new ArrayList<>(schema.columns().size());
    for (Types.NestedField column : schema.columns()) {
      fields.add(toArrow(column));
    }
    return new org.apache.arrow.vector.types.pojo.Schema(fields);
  }

  /**
   * Converts one Iceberg field, with its children, to an Arrow field.
   *
   * @param field an Iceberg field
   * @return the Arrow field, nullable if the Iceberg field is optional, with the field id in its
   *     metadata
   * @throws UnsupportedTypeException if the field or one of its children has a type without an
   *     Arrow counterpart
   */
  public static Field toArrow(Types.NestedField field) {
    return toArrowField(field.name(), field.name(), field.isOptional(), field.fieldId(), field.type());
  }

  /**
   * Returns the Iceberg field id kept in an Arrow field's metadata.
   *
   * @param field an Arrow field
   * @return the field id, or {@code null} if the metadata holds none or it is not a number
   */
  public static Integer fieldId(Field field) {
    String id = field.getMetadata().get(FIELD_ID_KEY);
    if (id == null) {
      return null;
    }
    try {
      return Integer.valueOf(id.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Field toArrowField(String path, String name, boolean nullable, int id, Type type) {
    Map<String, String> metadata = Map.of(FIELD_ID_KEY, Integer.toString(id));
    switch (type.typeId()) {
      case STRUCT:
        {
          List<Types.NestedField> icebergChildren = type.asStructType().fields();
          List<Field> children = new ArrayList<>(icebergChildren.size());
          for (Types.NestedField child : icebergChildren) {
            children.add(
                toArrowField(
                    path + "." + child.name(),
                    child.name(),
                    child.isOptional(),
                    child.fieldId(),
                    child.type()));
          }
          return new Field(
              name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null, metadata), children);
        }
      case LIST:
        {
          Types.ListType list = type.asListType();
          Field element =
              toArrowField(
                  path + "." + LIST_ELEMENT_NAME,
                  LIST_ELEMENT_NAME,
                  list.isElementOptional(),
                  list.elementId(),
                  list.elementType());
          return new Field(
              name, new FieldType(nullable, ArrowType.List.INSTANCE, null, metadata), List.of(element));
        }
      case MAP:
        {
          Types.MapType map = type.asMapType();
          Field key =
              toArrowField(
                  path + "." + MAP_KEY_NAME, MAP_KEY_NAME, false, map.keyId(), map.keyType());
          Field value =
              toArrowField(
                  path + "." + MAP_VALUE_NAME,
                  MAP_VALUE_NAME,
                  map.isValueOptional(),
                  map.valueId(),
                  map.valueType());
          Field entries =
              new Field(
                  MAP_ENTRIES_NAME, FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(key, value));
          return new Field(
              name,
              new FieldType(nullable, new ArrowType.Map(false), null, metadata),
              List.of(entries));
        }
      default:
        return new Field(
            name, new FieldType(nullable, toArrowType(path, type), null, metadata), List.of());
    }
  }

  /**
   * Returns the Arrow type that this SDK uses for an Iceberg primitive type.
   *
   * @param type an Iceberg primitive type
   * @return the Arrow type, as listed in {@code docs/arrow-types.md}
   * @throws UnsupportedTypeException if the type has no Arrow counterpart, or is nested
   */
  public static ArrowType toArrowType(Type type) {
    return toArrowType(type.toString(), type);
  }

  private static ArrowType toArrowType(String path, Type type) {
    switch (type.typeId()) {
      case BOOLEAN:
        return ArrowType.Bool.INSTANCE;
      case INTEGER:
        return new ArrowType.Int(32, true);
      case LONG:
        return new ArrowType.Int(64, true);
      case FLOAT:
        return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case DOUBLE:
        return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case DECIMAL:
        {
          Types.DecimalType decimal = (Types.DecimalType) type;
          return new ArrowType.Decimal(decimal.precision(), decimal.scale(), 128);
        }
      case DATE:
        return new ArrowType.Date(DateUnit.DAY);
      case TIME:
        return new ArrowType.Time(TimeUnit.MICROSECOND, 64);
      case TIMESTAMP:
        return new ArrowType.Timestamp(
            TimeUnit.MICROSECOND, ((Types.TimestampType) type).shouldAdjustToUTC() ? UTC : null);
      case TIMESTAMP_NANO:
        return new ArrowType.Timestamp(
            TimeUnit.NANOSECOND, ((Types.TimestampNanoType) type).shouldAdjustToUTC() ? UTC : null);
      case STRING:
        return ArrowType.Utf8.INSTANCE;
      case UUID:
        return new ArrowType.FixedSizeBinary(16);
      case FIXED:
        return new ArrowType.FixedSizeBinary(((Types.FixedType) type).length());
      case BINARY:
        return ArrowType.Binary.INSTANCE;
      case UNKNOWN:
        return ArrowType.Null.INSTANCE;
      default:
        throw new UnsupportedTypeException(
            String.format(
                "Column '%s' has Iceberg type %s, which has no Arrow counterpart in this SDK;"
                    + " leave it out of the selected columns",
                path, type));
    }
  }

  /**
   * Converts an Arrow schema to a new Iceberg schema with fresh field ids, for creating a table
   * from Arrow data. Nullable fields become optional, non-nullable fields required.
   *
   * @param arrowSchema an Arrow schema
   * @return an Iceberg schema with ids assigned as Iceberg assigns them to a new table
   * @throws UnsupportedTypeException naming every field whose Arrow type has no Iceberg counterpart
   */
  public static org.apache.iceberg.Schema toIceberg(org.apache.arrow.vector.types.pojo.Schema arrowSchema) {
    return ArrowToIceberg.schema(arrowSchema);
  }

  public static boolean isUuid(ArrowType type) {
    return type instanceof ArrowType.ExtensionType
        && UUID_EXTENSION_NAME.equals(((ArrowType.ExtensionType) type).extensionName());
  }

  /**
   * Checks that Arrow data with the given schema can be written to a table with the given schema,
   * and reports every difference at once.
   *
   * @param tableSchema the schema of the table written to
   * @param arrowSchema the schema of the Arrow data
   * @throws SchemaMismatchException listing every column that is missing, extra, of another type, or
   *     nullable where the table requires a value
   * @see #differences(org.apache.iceberg.Schema, org.apache.arrow.vector.types.pojo.Schema)
   */
  public static void checkWritable(
      org.apache.iceberg.Schema tableSchema, org.apache.arrow.vector.types.pojo.Schema arrowSchema) {
    List<String> differences = differences(tableSchema, arrowSchema);
    if (!differences.isEmpty()) {
      throw mismatch("the table", differences);
    }
  }

  /**
   * Lists every reason why Arrow data with the given schema cannot be written to a table.
   *
   * <p>Columns are matched by name (case-sensitive) at every nesting level; their order does not
   * matter. An optional table column missing from the Arrow data is written as null. A difference is
   * reported for: a required table column missing from the Arrow data; an Arrow column the table
   * does not have; an Arrow type that cannot hold the table type's values (the accepted Arrow types
   * are listed in {@code docs/arrow-types.md}, for example {@code LargeUtf8} for {@code string} or
   * {@code Int(16)} for {@code int}); and a nullable Arrow field for a required table field, even if
   * it holds no null.
   *
   * @param tableSchema the schema of the table written to
   * @param arrowSchema the schema of the Arrow data
   * @return one line per difference naming the column by its dotted path; empty if writable
   */
  public static List<String> differences(
      org.apache.iceberg.Schema tableSchema, org.apache.arrow.vector.types.pojo.Schema arrowSchema) {
    List<String> differences = new ArrayList<>();
    ArrowTypeFit.compareStruct("", tableSchema.asStruct(), arrowSchema.getFields(), true, differences);
    return differences;
  }

  /**
   * Checks that rows of an Arrow schema can be read as values of an Iceberg schema: like {@link
   * #checkWritable}, but Arrow columns unknown to the Iceberg schema are ignored and nullability is
   * not compared (a null where a value is required is then the caller's concern).
   */
  public static void checkReadable(
      org.apache.iceberg.Schema schema, org.apache.arrow.vector.types.pojo.Schema arrowSchema) {
    List<String> differences = new ArrayList<>();
    ArrowTypeFit.compareStruct("", schema.asStruct(), arrowSchema.getFields(), false, differences);
    if (!differences.isEmpty()) {
      throw mismatch("the Iceberg schema", differences);
    }
  }

  /**
   * The error for Arrow data that does not fit a schema: the message lists every difference, one a line.
   *
   * @param context what was being written, for example {@code "table db.events"}
   * @param differences every difference found, each naming its column; not empty
   * @return the exception
   */
  public static SchemaMismatchException mismatch(String context, List<String> differences) {
    StringBuilder message = new StringBuilder("Arrow data does not match the schema of ").append(context).append(" (")
        .append(differences.size()).append(differences.size() == 1 ? " difference" : " differences").append("):");
    for (String difference : differences) {
      message.append("\n  - ").append(difference);
    }
    return new SchemaMismatchException(message.toString(), differences);
  }
}
