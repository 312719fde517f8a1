package dev.transforms.singlenode.internal.read;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.types.Types;

/**
 * Splits the columns of a read between two threads: a Parquet column chunk is decoded on one thread,
 * so a read of several columns that must be fast is two reads of about half the decoding work each,
 * side by side (the probe of a row edit reads its columns so).
 */
public final class ColumnHalves {

  private ColumnHalves() {}

  /**
   * The columns in two parts of about half the decoding weight each, when there are two cores and
   * both parts have something to decode; otherwise all the columns as one part. The heaviest columns
   * are placed first, each in the lighter part (so a string column among fixed-width ones gets a part
   * of its own); each part keeps the columns' order.
   *
   * @return one or two lists of columns
   */
  public static List<List<Types.NestedField>> split(List<Types.NestedField> columns) {
    if (columns.size() < 2 || Runtime.getRuntime().availableProcessors() < 2) {
      return List.of(columns);
    }
    List<Types.NestedField> heaviestFirst = new ArrayList<>(columns);
    heaviestFirst.sort(Comparator.comparingInt(ColumnHalves::weight).reversed()); // stable
    Set<Integer> inFirst = new HashSet<>();
    int first = 0;
    int second = 0;
    for (Types.NestedField column : heaviestFirst) {
      if (first <= second) {
        inFirst.add(column.fieldId());
        first += weight(column);
      } else {
        second += weight(column);
      }
    }
    if (first == 0 || second == 0) {
      return List.of(columns);
    }
    List<Types.NestedField> a = new ArrayList<>();
    List<Types.NestedField> b = new ArrayList<>();
    for (Types.NestedField column : columns) {
      (inFirst.contains(column.fieldId()) ? a : b).add(column);
    }
    return List.of(a, b);
  }

  /**
   * A rough relative cost of decoding a column, as measured for the engine's readers
   * (about 40 ms per million strings, dictionary-encoded or not, since they hand over whole strings;
   * 20 for decimals, 15 for 8-byte values, 7 for 4-byte ones): a row's position, computed rather than
   * stored, costs nothing.
   */
  public static int weight(Types.NestedField column) {
    if (column.fieldId() == MetadataColumns.ROW_POSITION.fieldId()) {
      return 0;
    }
    return switch (column.type().typeId()) {
      case STRING, BINARY -> 5;
      case DECIMAL, UUID, FIXED -> 3;
      case LONG, DOUBLE, TIMESTAMP, TIMESTAMP_NANO, TIME -> 2;
      default -> 1;
    };
  }
}
