package dev.transforms.singlenode.arrow;

import dev.transforms.api.SchemaMismatchException;
import dev.transforms.api.UnsupportedTypeException;
import dev.transforms.singlenode.internal.schema.ArrowSchemaMapping;
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
 * Converts schemas between Apache Iceberg and Apache Arrow, and checks whether Arrow data can be
 * written to an Iceberg table.
 *
 * <p>Iceberg to Arrow ({@link #toArrow(org.apache.iceberg.Schema)}) maps every Iceberg type to one
 * Arrow type (see {@code docs/arrow-types.md}), keeps the nullability of each field ({@code
 * optional} becomes nullable) and stores the Iceberg field id in the Arrow field metadata under
 * {@value #FIELD_ID_KEY}, the key PyIceberg and the Parquet Arrow bridge use.
 *
 * <p>Arrow to Iceberg ({@link #toIceberg(org.apache.arrow.vector.types.pojo.Schema)}) is meant for
 * creating a table from Arrow data: it accepts a wider set of Arrow types (large strings and
 * binaries, narrow integers, other timestamp units) and assigns fresh field ids; ids found in the
 * Arrow metadata are ignored.
 *
 * <p>{@link #checkWritable(org.apache.iceberg.Schema, org.apache.arrow.vector.types.pojo.Schema)}
 * matches columns by name, not by field id, so Arrow data from any source can be written, and
 * reports every difference in one {@link SchemaMismatchException}.
 *
 * <p>This class only deals with schemas; it allocates no Arrow memory.
 */
public final class ArrowSchemas {
  /** The Arrow field metadata key under which the Iceberg field id is kept. */
  public static final String FIELD_ID_KEY = ArrowSchemaMapping.FIELD_ID_KEY;

  /** The Arrow time zone used for Iceberg {@code timestamptz} and {@code timestamptz_ns}. */
  public static final String UTC = ArrowSchemaMapping.UTC;

  private ArrowSchemas() {}

  /**
   * Converts an Iceberg schema to an Arrow schema, keeping field ids and nullability.
   *
   * @param schema an Iceberg schema
   * @return the Arrow schema with one top-level field per Iceberg column, in the same order
   * @throws UnsupportedTypeException if a column has a type without an Arrow counterpart ({@code
   *     variant}, {@code geometry}, {@code geography})
   */
  public static org.apache.arrow.vector.types.pojo.Schema toArrow(org.apache.iceberg.Schema schema) {
    return ArrowSchemaMapping.toArrow(schema);
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
    return ArrowSchemaMapping.toArrow(field);
  }

  /**
   * Returns the Iceberg field id kept in an Arrow field's metadata.
   *
   * @param field an Arrow field
   * @return the field id, or {@code null} if the metadata holds none or it is not a number
   */
  public static Integer fieldId(Field field) {
    return ArrowSchemaMapping.fieldId(field);
  }

  /**
   * Returns the Arrow type that this SDK uses for an Iceberg primitive type.
   *
   * @param type an Iceberg primitive type
   * @return the Arrow type, as listed in {@code docs/arrow-types.md}
   * @throws UnsupportedTypeException if the type has no Arrow counterpart, or is nested
   */
  public static ArrowType toArrowType(Type type) {
    return ArrowSchemaMapping.toArrowType(type);
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
    return ArrowSchemaMapping.toIceberg(arrowSchema);
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
    ArrowSchemaMapping.checkWritable(tableSchema, arrowSchema);
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
    return ArrowSchemaMapping.differences(tableSchema, arrowSchema);
  }
}
