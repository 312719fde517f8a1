package dev.transforms.singlenode.internal.duckdb;

import dev.transforms.api.SchemaMismatchException;
import dev.transforms.singlenode.internal.schema.ArrowSchemaMapping;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Fits Arrow batches of another engine (DuckDB's Arrow export) to the schema of an existing output
 * table, where the values can be carried over exactly:
 *
 * <ul>
 *   <li>nullability: query results are nullable everywhere, so a field is marked non-nullable where the
 *       table requires it (a null found there is still refused by the writer, naming the column);
 *   <li>{@code Decimal(p, 0)} (DuckDB's {@code HUGEINT}, the type of {@code sum} over integers) into an
 *       {@code int} or {@code long} column, and {@code Decimal(p, s)} into a {@code decimal} of the same
 *       scale and a smaller precision (DuckDB's {@code sum} over decimals has precision 38): each value
 *       is checked to fit;
 *   <li>text (DuckDB's {@code UUID}) or 16-byte binaries into a {@code uuid} column, and binaries of the
 *       right length into a {@code fixed} column.
 * </ul>
 *
 * Anything else passes unchanged, and the writer reports the columns that still differ. Columns are
 * matched by name at the top level; nested fields only get their nullability fitted.
 */
public final class TableConformer {

  private enum Conversion { TRANSFER, TO_INT, TO_LONG, TO_DECIMAL, TEXT_TO_UUID, BINARY_TO_FIXED }

  private record Column(Field target, Conversion conversion, Types.NestedField tableColumn) {}

  private final String table;
  private final List<Column> columns = new ArrayList<>();
  private final Schema schema;

  private TableConformer(String table, org.apache.iceberg.Schema tableSchema, Schema arrowSchema) {
    this.table = table;
    List<Field> fields = new ArrayList<>();
    for (Field field : arrowSchema.getFields()) {
      Types.NestedField column = tableSchema.asStruct().field(field.getName());
      Column plan = column == null ? new Column(field, Conversion.TRANSFER, null) : plan(field, column);
      columns.add(plan);
      fields.add(plan.target());
    }
    this.schema = new Schema(fields);
  }

  /**
   * Plans how batches of one Arrow schema are fitted to a table.
   *
   * @param table the table's path, for messages
   */
  public static TableConformer of(String table, org.apache.iceberg.Schema tableSchema, Schema arrowSchema) {
    return new TableConformer(table, tableSchema, arrowSchema);
  }

  /**
   * The schema of the fitted batches.
   *
   * @return the Arrow schema {@link #conform} produces
   */
  public Schema schema() {
    return schema;
  }

  /**
   * What the fitted batches hold, as table columns: the types of the table's columns where a value
   * conversion fits the batches to them ({@code HUGEINT} to {@code long}, text to {@code uuid}...), the
   * types the Arrow data names elsewhere. What a write of these batches brings to the output's schema.
   *
   * @return the Iceberg schema of the written columns
   */
  public org.apache.iceberg.Schema writtenSchema() {
    org.apache.iceberg.Schema arrow = dev.transforms.singlenode.internal.schema.ArrowSchemaMapping.toIceberg(schema);
    List<Types.NestedField> fields = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      Column column = columns.get(i);
      Types.NestedField field = arrow.columns().get(i);
      fields.add(column.conversion() == Conversion.TRANSFER || column.tableColumn() == null ? field
          : Types.NestedField.of(field.fieldId(), field.isOptional(), field.name(), column.tableColumn().type()));
    }
    return new org.apache.iceberg.Schema(fields);
  }

  private static Column plan(Field field, Types.NestedField column) {
    ArrowType type = field.getType();
    boolean nullable = column.isOptional();
    Type target = column.type();
    if (type instanceof ArrowType.Decimal decimal) {
      if (decimal.getScale() == 0 && target.typeId() == Type.TypeID.INTEGER) {
        return new Column(primitive(field, nullable, new ArrowType.Int(32, true)), Conversion.TO_INT, column);
      }
      if (decimal.getScale() == 0 && target.typeId() == Type.TypeID.LONG) {
        return new Column(primitive(field, nullable, new ArrowType.Int(64, true)), Conversion.TO_LONG, column);
      }
      if (target instanceof Types.DecimalType wanted && wanted.scale() == decimal.getScale()
          && wanted.precision() < decimal.getPrecision()) {
        return new Column(primitive(field, nullable, new ArrowType.Decimal(wanted.precision(), wanted.scale(), 128)),
            Conversion.TO_DECIMAL, column);
      }
    }
    if (type instanceof ArrowType.Utf8 && target.typeId() == Type.TypeID.UUID) {
      return new Column(primitive(field, nullable, new ArrowType.FixedSizeBinary(16)), Conversion.TEXT_TO_UUID, column);
    }
    if (type instanceof ArrowType.Binary && target.typeId() == Type.TypeID.UUID) {
      return new Column(primitive(field, nullable, new ArrowType.FixedSizeBinary(16)), Conversion.BINARY_TO_FIXED,
          column);
    }
    if (type instanceof ArrowType.Binary && target instanceof Types.FixedType fixed) {
      return new Column(primitive(field, nullable, new ArrowType.FixedSizeBinary(fixed.length())),
          Conversion.BINARY_TO_FIXED, column);
    }
    return new Column(withNullability(field, column.isOptional(), target), Conversion.TRANSFER, column);
  }

  private static Field primitive(Field field, boolean nullable, ArrowType type) {
    return new Field(field.getName(), new FieldType(nullable, type, null, field.getMetadata()), List.of());
  }

  /** The field with the table's nullability at every level where the shapes agree. */
  private static Field withNullability(Field field, boolean nullable, Type type) {
    List<Field> children = field.getChildren();
    List<Field> fitted = new ArrayList<>(children.size());
    ArrowType.ArrowTypeID id = field.getType().getTypeID();
    if (type.isStructType() && id == ArrowType.ArrowTypeID.Struct) {
      for (Field child : children) {
        Types.NestedField nested = type.asStructType().field(child.getName());
        fitted.add(nested == null ? child : withNullability(child, nested.isOptional(), nested.type()));
      }
    } else if (type.isListType() && (id == ArrowType.ArrowTypeID.List || id == ArrowType.ArrowTypeID.LargeList)) {
      Types.ListType list = type.asListType();
      fitted.add(withNullability(children.get(0), list.isElementOptional(), list.elementType()));
    } else if (type.isMapType() && id == ArrowType.ArrowTypeID.Map) {
      Types.MapType map = type.asMapType();
      Field entries = children.get(0);
      Field key = withNullability(entries.getChildren().get(0), false, map.keyType());
      Field value = withNullability(entries.getChildren().get(1), map.isValueOptional(), map.valueType());
      fitted.add(new Field(entries.getName(), entries.getFieldType(), List.of(key, value)));
    } else {
      fitted.addAll(children);
    }
    FieldType original = field.getFieldType();
    return new Field(field.getName(),
        new FieldType(nullable, original.getType(), original.getDictionary(), original.getMetadata()), fitted);
  }

  /**
   * Fits one batch. The batch's vectors are emptied (their buffers move to the new root, or are read
   * and left), so the batch must not be read again.
   *
   * @return a new root the caller closes
   * @throws SchemaMismatchException if a value does not fit the table's column, naming it
   */
  public VectorSchemaRoot conform(VectorSchemaRoot batch, BufferAllocator allocator) {
    int rows = batch.getRowCount();
    List<FieldVector> vectors = new ArrayList<>(columns.size());
    try {
      for (int i = 0; i < columns.size(); i++) {
        Column column = columns.get(i);
        FieldVector source = batch.getVector(i);
        FieldVector target = column.target().createVector(allocator);
        vectors.add(target);
        if (column.conversion() == Conversion.TRANSFER) {
          TransferPair transfer = source.makeTransferPair(target);
          transfer.transfer();
        } else {
          convert(column, source, target, rows);
        }
      }
      VectorSchemaRoot root = new VectorSchemaRoot(vectors);
      root.setRowCount(rows);
      return root;
    } catch (RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
  }

  private void convert(Column column, FieldVector source, FieldVector target, int rows) {
    target.setInitialCapacity(rows);
    target.allocateNew();
    for (int row = 0; row < rows; row++) {
      if (source.isNull(row)) {
        target.setNull(row);
        continue;
      }
      switch (column.conversion()) {
        case TO_INT -> ((IntVector) target).set(row, exact(column, ((DecimalVector) source).getObject(row)).intValueExact());
        case TO_LONG -> ((BigIntVector) target).set(row, exact(column, ((DecimalVector) source).getObject(row)).longValueExact());
        case TO_DECIMAL -> {
          BigDecimal value = ((DecimalVector) source).getObject(row);
          int precision = ((Types.DecimalType) column.tableColumn().type()).precision();
          if (value.precision() > precision) {
            throw misfit(column, value.toPlainString(), "has more than " + precision + " digits");
          }
          ((DecimalVector) target).set(row, value);
        }
        case TEXT_TO_UUID -> {
          String text = new String(((VarCharVector) source).get(row), StandardCharsets.UTF_8);
          UUID uuid;
          try {
            uuid = UUID.fromString(text);
          } catch (IllegalArgumentException e) {
            throw misfit(column, "'" + text + "'", "is not a UUID");
          }
          ByteBuffer bytes = ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
              .putLong(uuid.getLeastSignificantBits());
          ((FixedSizeBinaryVector) target).set(row, bytes.array());
        }
        case BINARY_TO_FIXED -> {
          byte[] bytes = ((VarBinaryVector) source).get(row);
          int width = ((FixedSizeBinaryVector) target).getByteWidth();
          if (bytes.length != width) {
            throw misfit(column, bytes.length + " bytes", "is not " + width + " bytes long");
          }
          ((FixedSizeBinaryVector) target).set(row, bytes);
        }
        default -> throw new IllegalStateException(column.conversion().name());
      }
    }
    target.setValueCount(rows);
  }

  private BigDecimal exact(Column column, BigDecimal value) {
    Type type = column.tableColumn().type();
    BigDecimal min = BigDecimal.valueOf(type.typeId() == Type.TypeID.INTEGER ? Integer.MIN_VALUE : Long.MIN_VALUE);
    BigDecimal max = BigDecimal.valueOf(type.typeId() == Type.TypeID.INTEGER ? Integer.MAX_VALUE : Long.MAX_VALUE);
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw misfit(column, value.toPlainString(), "is out of the range of " + type);
    }
    return value;
  }

  private SchemaMismatchException misfit(Column column, String value, String why) {
    String difference = String.format("column '%s': value %s %s (table type %s); cast it in the query",
        column.tableColumn().name(), value, why, column.tableColumn().type());
    return new SchemaMismatchException("Query result does not fit table " + table + ": " + difference,
        List.of(difference));
  }
}
