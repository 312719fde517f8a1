package dev.transforms.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Tells whether data can be written into a table without losing anything: the same columns (matched
 * by name, case-insensitively), each of the same type or a lossless widening of it (smaller integers
 * into larger ones, float into double, a decimal into a wider one of the same scale).
 */
final class SchemaCheck {

  private SchemaCheck() {}

  /**
   * Lists the columns that differ between data and table.
   *
   * @param data the schema of the data written
   * @param table the schema of the table
   * @param sameOrder whether the columns must also come in the table's order (writes by position)
   * @return one description per differing column, empty when the data fits
   */
  static List<String> differences(StructType data, StructType table, boolean sameOrder) {
    List<String> out = new ArrayList<>();
    for (StructField column : table.fields()) {
      Optional<StructField> match = find(data, column.name());
      if (match.isEmpty()) {
        out.add(column.name() + ": missing from the data (table " + column.dataType().simpleString() + ")");
      } else if (!fits(match.get().dataType(), column.dataType())) {
        out.add(column.name() + ": table " + column.dataType().simpleString() + ", data "
            + match.get().dataType().simpleString());
      }
    }
    for (StructField column : data.fields()) {
      if (find(table, column.name()).isEmpty()) {
        out.add(column.name() + ": not in the table (data " + column.dataType().simpleString() + ")");
      }
    }
    if (out.isEmpty() && sameOrder) {
      List<String> dataOrder = names(data);
      List<String> tableOrder = names(table);
      if (!dataOrder.equals(tableOrder)) {
        out.add("column order: table (" + String.join(", ", tableOrder) + "), data (" + String.join(", ", dataOrder)
            + ")");
      }
    }
    return out;
  }

  private static List<String> names(StructType type) {
    List<String> names = new ArrayList<>();
    for (StructField field : type.fields()) {
      names.add(field.name().toLowerCase(Locale.ROOT));
    }
    return names;
  }

  private static Optional<StructField> find(StructType type, String name) {
    for (StructField field : type.fields()) {
      if (field.name().equalsIgnoreCase(name)) {
        return Optional.of(field);
      }
    }
    return Optional.empty();
  }

  /** Whether values of type {@code data} go into a column of type {@code table} without loss. */
  static boolean fits(DataType data, DataType table) {
    if (data instanceof NullType) {
      return true;
    }
    if (data instanceof StructType d && table instanceof StructType t) {
      return differences(d, t, false).isEmpty();
    }
    if (data instanceof ArrayType d && table instanceof ArrayType t) {
      return fits(d.elementType(), t.elementType());
    }
    if (data instanceof MapType d && table instanceof MapType t) {
      return fits(d.keyType(), t.keyType()) && fits(d.valueType(), t.valueType());
    }
    if (data instanceof DecimalType d && table instanceof DecimalType t) {
      return t.scale() >= d.scale() && t.precision() - t.scale() >= d.precision() - d.scale();
    }
    int from = integralRank(data);
    int to = integralRank(table);
    if (from > 0 && to > 0) {
      return from <= to;
    }
    if (data instanceof FloatType && table instanceof DoubleType) {
      return true;
    }
    return data.sameType(table);
  }

  private static int integralRank(DataType type) {
    if (type instanceof ByteType) {
      return 1;
    }
    if (type instanceof ShortType) {
      return 2;
    }
    if (type instanceof IntegerType) {
      return 3;
    }
    if (type instanceof LongType) {
      return 4;
    }
    return 0;
  }
}
