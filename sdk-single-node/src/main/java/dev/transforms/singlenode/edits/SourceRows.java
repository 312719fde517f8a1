package dev.transforms.singlenode.edits;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Checks incoming rows against the table schema and returns them as records in the table's column
 * order.
 *
 * <p>A row fits when its top-level fields match the table's columns by name, each with the same
 * type (nested types are compared by shape and names, not field ids), every required column has a
 * value, and every top-level decimal fits its column (a value with fewer digits after the point,
 * such as {@code 1.5} for {@code decimal(10,2)}, is brought to the column's scale in a copy).
 * Optional table columns may be missing from a row; they are written as null. Rows built from the
 * table schema ({@code GenericRecord.create(table.schema())}) are passed through without a copy;
 * other fitting rows are copied into the table's order. The check is done once per distinct row
 * struct, so its cost per row is a reference comparison and the required-column null checks.
 */
final class SourceRows {
  private SourceRows() {}

  /**
   * Returns the rows as records of {@code schema}, or throws {@link InvalidRowEditException} naming
   * the first row that does not fit and its fields.
   */
  static List<Record> conform(Iterable<Record> rows, Schema schema, String tableName) {
    if (rows == null) {
      throw new InvalidRowEditException(
          "No rows given for table " + tableName + ": pass an empty list to write nothing");
    }

    Types.StructType tableStruct = schema.asStruct();
    List<Types.NestedField> columns = tableStruct.fields();
    int[] required =
        columns.stream().filter(Types.NestedField::isRequired).mapToInt(columns::indexOf).toArray();
    int[] decimals =
        columns.stream()
            .filter(column -> column.type().typeId() == Type.TypeID.DECIMAL)
            .mapToInt(columns::indexOf)
            .toArray();

    List<Record> result =
        rows instanceof Collection
            ? new ArrayList<>(((Collection<?>) rows).size())
            : new ArrayList<>();
    Types.StructType lastStruct = null;
    int[] lastMapping = null;
    long index = 0;
    for (Record row : rows) {
      if (row == null) {
        throw new InvalidRowEditException(
            String.format(
                "Row %d for table %s is null; pass only non-null rows", index, tableName));
      }

      Types.StructType struct = row.struct();
      if (struct != lastStruct) {
        lastMapping = mapping(struct, tableStruct, tableName, index);
        lastStruct = struct;
      }

      Record conformed = lastMapping == null ? row : copy(row, lastMapping, schema);
      for (int position : decimals) {
        conformed = withColumnScale(conformed, position, columns.get(position), index, tableName);
      }
      for (int position : required) {
        if (conformed.get(position) == null) {
          throw new InvalidRowEditException(
              String.format(
                  "Row %d for table %s has no value for required column '%s'; give it a value",
                  index, tableName, columns.get(position).name()));
        }
      }

      result.add(conformed);
      index += 1;
    }

    return result;
  }

  /**
   * Returns null when a row of {@code struct} can be used as it is, or for each table column the
   * position of the row field that holds it (-1 when absent).
   */
  private static int[] mapping(
      Types.StructType struct, Types.StructType table, String tableName, long index) {
    if (struct.equals(table)) {
      return null;
    }

    List<Types.NestedField> columns = table.fields();
    List<Types.NestedField> fields = struct.fields();
    Map<String, Integer> positionByName = new HashMap<>();
    for (int i = 0; i < fields.size(); i += 1) {
      positionByName.put(fields.get(i).name(), i);
    }

    List<String> missing = new ArrayList<>();
    List<String> mismatched = new ArrayList<>();
    int[] mapping = new int[columns.size()];
    boolean identity = fields.size() == columns.size();
    for (int i = 0; i < columns.size(); i += 1) {
      Types.NestedField column = columns.get(i);
      Integer position = positionByName.remove(column.name());
      if (position == null) {
        mapping[i] = -1;
        identity = false;
        if (column.isRequired()) {
          missing.add(describe(column));
        }
      } else {
        mapping[i] = position;
        identity &= position == i;
        Types.NestedField field = fields.get(position);
        if (!sameShape(column.type(), field.type())) {
          mismatched.add(
              column.name() + ": " + field.type() + " (table has " + column.type() + ")");
        }
      }
    }

    List<String> unexpected =
        positionByName.keySet().stream()
            .map(name -> describe(struct.field(name)))
            .sorted()
            .collect(Collectors.toList());

    if (!missing.isEmpty() || !mismatched.isEmpty() || !unexpected.isEmpty()) {
      StringBuilder message = new StringBuilder();
      message.append(String.format("Row %d does not fit table %s:", index, tableName));
      if (!missing.isEmpty()) {
        message.append(" missing required fields ").append(missing).append(';');
      }
      if (!unexpected.isEmpty()) {
        message.append(" unexpected fields ").append(unexpected).append(';');
      }
      if (!mismatched.isEmpty()) {
        message.append(" wrong types ").append(mismatched).append(';');
      }
      message.append(" the row has fields ").append(describe(fields));
      message.append(" and the table has columns ").append(describe(columns));
      message.append(". Build rows with GenericRecord.create(table.schema()).");
      throw new InvalidRowEditException(message.toString());
    }

    return identity ? null : mapping;
  }

  /**
   * Returns the row with its decimal at {@code position} in the column's scale (a copy when the
   * value had another scale), or throws when the value does not fit the column.
   */
  private static Record withColumnScale(
      Record row, int position, Types.NestedField column, long index, String tableName) {
    Object value = row.get(position);
    if (!(value instanceof BigDecimal)) {
      return row;
    }
    Types.DecimalType type = (Types.DecimalType) column.type();
    BigDecimal decimal = (BigDecimal) value;
    BigDecimal scaled = decimal;
    if (decimal.scale() != type.scale()) {
      try {
        scaled = decimal.setScale(type.scale());
      } catch (ArithmeticException e) {
        throw new InvalidRowEditException(
            String.format(
                "Row %d for table %s has %s in column '%s' of type %s: more than %d digits after"
                    + " the point; round it first",
                index, tableName, decimal.toPlainString(), column.name(), type, type.scale()));
      }
    }
    if (scaled.precision() > type.precision()) {
      throw new InvalidRowEditException(
          String.format(
              "Row %d for table %s has %s in column '%s' of type %s: more than %d digits",
              index, tableName, decimal.toPlainString(), column.name(), type, type.precision()));
    }
    if (scaled == decimal) {
      return row;
    }
    Record copy = row.copy();
    copy.set(position, scaled);
    return copy;
  }

  private static Record copy(Record row, int[] mapping, Schema schema) {
    GenericRecord copy = GenericRecord.create(schema);
    for (int i = 0; i < mapping.length; i += 1) {
      if (mapping[i] >= 0) {
        copy.set(i, row.get(mapping[i]));
      }
    }
    return copy;
  }

  /** Compares types by shape: primitives by equality, nested types by names and element types. */
  static boolean sameShape(Type expected, Type actual) {
    if (expected.isPrimitiveType() || actual.isPrimitiveType()) {
      return expected.equals(actual);
    } else if (expected.typeId() != actual.typeId()) {
      return false;
    }

    switch (expected.typeId()) {
      case STRUCT:
        List<Types.NestedField> left = expected.asStructType().fields();
        List<Types.NestedField> right = actual.asStructType().fields();
        if (left.size() != right.size()) {
          return false;
        }
        for (int i = 0; i < left.size(); i += 1) {
          if (!left.get(i).name().equals(right.get(i).name())
              || !sameShape(left.get(i).type(), right.get(i).type())) {
            return false;
          }
        }
        return true;
      case LIST:
        return sameShape(expected.asListType().elementType(), actual.asListType().elementType());
      case MAP:
        return sameShape(expected.asMapType().keyType(), actual.asMapType().keyType())
            && sameShape(expected.asMapType().valueType(), actual.asMapType().valueType());
      default:
        return expected.equals(actual);
    }
  }

  static String describe(List<Types.NestedField> fields) {
    return fields.stream().map(SourceRows::describe).collect(Collectors.joining(", ", "[", "]"));
  }

  private static String describe(Types.NestedField field) {
    return field.name() + ": " + field.type() + (field.isRequired() ? " (required)" : "");
  }
}
