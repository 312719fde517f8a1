package dev.transforms.singlenode.edits;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The join columns of an upsert: resolves them against the schema, extracts hashable keys from
 * rows, and derives what is needed to skip data files that cannot hold a source key.
 *
 * <p>A key is the join column's value in internal form ({@link Values#internal}) for one column, or
 * a list of those values for several; either has value-based equality, so a key
 * built from a caller's row equals the key built from the same row read back from a data file.
 */
final class JoinKeys {
  /** Above this many distinct values a column is pruned by its range instead of an IN list. */
  private static final int MAX_IN_LIST = 64;

  private final List<Types.NestedField> fields;
  private final int[] fieldIds;

  private JoinKeys(List<Types.NestedField> fields) {
    this.fields = fields;
    this.fieldIds = fields.stream().mapToInt(Types.NestedField::fieldId).toArray();
  }

  /**
   * Resolves join column names, throwing {@link InvalidRowEditException} for bad ones. No names (null
   * or an empty list) means the table's identifier fields, as in PyIceberg.
   */
  static JoinKeys resolve(
      Schema schema, List<String> names, String tableName, boolean caseSensitive) {
    String columns = SourceRows.describe(schema.columns());
    if (names == null || names.isEmpty()) {
      names = new ArrayList<>(schema.identifierFieldNames());
      if (names.isEmpty()) {
        throw new InvalidRowEditException(
            "Upsert into "
                + tableName
                + " was given no join columns and the table has no identifier fields; pass the"
                + " columns that identify a row, such as upsert(rows, List.of(\"id\")), or declare"
                + " them once with table.updateSchema().setIdentifierFields(\"id\").commit(); the"
                + " table has columns "
                + columns);
      }
      // in the order of the table's columns; a nested identifier field is refused below
      List<String> ordered = new ArrayList<>();
      for (Types.NestedField field : schema.columns()) {
        if (names.contains(field.name())) {
          ordered.add(field.name());
        }
      }
      names = ordered.size() == names.size() ? ordered : names;
    }

    List<Types.NestedField> fields = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String name : names) {
      Types.NestedField field =
          name == null
              ? null
              : caseSensitive
                  ? schema.asStruct().field(name)
                  : schema.asStruct().caseInsensitiveField(name);
      boolean nested =
          name != null
              && (caseSensitive ? schema.findField(name) : schema.caseInsensitiveFindField(name))
                  != null;
      if (field == null && nested) {
        throw new InvalidRowEditException(
            String.format(
                "Join column '%s' of table %s is nested in a struct; join on top-level columns %s",
                name, tableName, columns));
      } else if (field == null) {
        throw new InvalidRowEditException(
            String.format(
                "Join column '%s' does not exist in table %s; the table has columns %s",
                name, tableName, columns));
      } else if (!field.type().isPrimitiveType()) {
        throw new InvalidRowEditException(
            String.format(
                "Join column '%s' of table %s has type %s; join columns must have a primitive type",
                name, tableName, field.type()));
      } else if (!seen.add(field.name())) {
        throw new InvalidRowEditException(
            String.format(
                "Join column '%s' is listed twice for table %s; list each column once",
                name, tableName));
      }
      fields.add(field);
    }

    return new JoinKeys(fields);
  }

  int[] fieldIds() {
    return fieldIds;
  }

  List<String> names() {
    return fields.stream().map(Types.NestedField::name).collect(Collectors.toList());
  }

  /** Returns the positions of the join columns in a top-level struct, such as a read schema. */
  int[] positionsIn(Types.StructType struct) {
    int[] positions = new int[fields.size()];
    List<Types.NestedField> structFields = struct.fields();
    for (int i = 0; i < fields.size(); i += 1) {
      int fieldId = fields.get(i).fieldId();
      positions[i] = -1;
      for (int j = 0; j < structFields.size(); j += 1) {
        if (structFields.get(j).fieldId() == fieldId) {
          positions[i] = j;
          break;
        }
      }
    }
    return positions;
  }

  /**
   * Returns the key of a row, with the join columns at {@code positions}; null when a join value is
   * null (such a row can match nothing).
   */
  Object keyOf(StructLike row, int[] positions) {
    if (positions.length == 1) {
      return Values.internal(
          fields.get(0).type().asPrimitiveType(), row.get(positions[0], Object.class));
    }

    Object[] values = new Object[positions.length];
    for (int i = 0; i < positions.length; i += 1) {
      Object value = row.get(positions[i], Object.class);
      if (value == null) {
        return null;
      }
      values[i] = Values.internal(fields.get(i).type().asPrimitiveType(), value);
    }
    return Arrays.asList(values);
  }

  /** Renders a key, such as {@code id=3} or {@code (id=3, region='eu')}, for an error message. */
  String show(Record row, int[] positions) {
    if (positions.length == 1) {
      return fields.get(0).name() + "=" + Values.show(row.get(positions[0]));
    }
    StringBuilder text = new StringBuilder("(");
    for (int i = 0; i < positions.length; i += 1) {
      if (i > 0) {
        text.append(", ");
      }
      text.append(fields.get(i).name()).append('=').append(Values.show(row.get(positions[i])));
    }
    return text.append(')').toString();
  }

  /**
   * Summarizes the source keys per join column so that data files can be skipped: their sorted
   * distinct values, for the columns whose type orders well in Iceberg's metrics.
   *
   * @param keys the source's keys, each once
   */
  KeyRanges ranges(Set<Object> keys) {
    List<Object[]> sortedValues = new ArrayList<>();
    for (int i = 0; i < fields.size(); i += 1) {
      Type.PrimitiveType type = fields.get(i).type().asPrimitiveType();
      if (!prunable(type)) {
        sortedValues.add(null);
        continue;
      }
      Object[] values;
      if (fields.size() == 1) {
        values = keys.toArray(); // the keys of a one-column join are its values
      } else {
        Set<Object> distinct = new HashSet<>();
        for (Object key : keys) {
          distinct.add(((List<?>) key).get(i));
        }
        values = distinct.toArray();
      }
      if (type.typeId() == Type.TypeID.DECIMAL
          && Arrays.stream(values)
              .anyMatch(
                  v -> ((java.math.BigDecimal) v).scale() != ((Types.DecimalType) type).scale())) {
        sortedValues.add(null); // a value the column cannot hold; let the writer report it
        continue;
      }
      if (!sortIntegral(values)) {
        Arrays.sort(values, Comparators.forType(type));
      }
      sortedValues.add(values);
    }
    return new KeyRanges(sortedValues);
  }

  /**
   * Sorts distinct values that are all {@link Integer}s or all {@link Long}s (the integral, date,
   * time and timestamp columns) as primitive longs, about ten times faster than through a comparator
   * of boxes for the 10,000 keys of an upsert; returns false, leaving them alone, for other values.
   */
  static boolean sortIntegral(Object[] values) {
    if (values.length == 0) {
      return true;
    }
    Class<?> boxed = values[0].getClass();
    if (boxed != Long.class && boxed != Integer.class) {
      return false;
    }
    long[] longs = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      if (values[i].getClass() != boxed) {
        return false;
      }
      longs[i] = ((Number) values[i]).longValue();
    }
    Arrays.sort(longs);
    for (int i = 0; i < longs.length; i++) {
      values[i] = boxed == Long.class ? (Object) longs[i] : (Object) (int) longs[i];
    }
    return true;
  }

  private static boolean prunable(Type.PrimitiveType type) {
    switch (type.typeId()) {
      case INTEGER:
      case LONG:
      case STRING:
      case DATE:
      case TIME:
      case TIMESTAMP:
      case DECIMAL:
        return true;
      default:
        // floating point (NaN is not in bounds), booleans, binary, UUIDs and nano timestamps are
        // not worth it or not safe to turn into range predicates
        return false;
    }
  }

  /** Per-column sorted distinct source key values; see {@link #ranges}. */
  final class KeyRanges {
    private final List<Object[]> sortedValues;

    private KeyRanges(List<Object[]> sortedValues) {
      this.sortedValues = sortedValues;
    }

    /**
     * Returns a filter that every table row with a source key satisfies: an IN list or a range per
     * prunable join column. Used to plan candidate files and as the conflict detection filter.
     */
    Expression filter() {
      Expression filter = Expressions.alwaysTrue();
      for (int i = 0; i < fields.size(); i += 1) {
        Object[] values = sortedValues.get(i);
        if (values == null || values.length == 0) {
          continue;
        }
        String name = fields.get(i).name();
        Expression column;
        if (values.length == 1) {
          // internal values bind to their column: days to date, micros to time and timestamp
          column = Expressions.equal(name, values[0]);
        } else if (values.length <= MAX_IN_LIST) {
          column = Expressions.in(name, values);
        } else {
          column =
              Expressions.and(
                  Expressions.greaterThanOrEqual(name, values[0]),
                  Expressions.lessThanOrEqual(name, values[values.length - 1]));
        }
        filter = Expressions.and(filter, column);
      }
      return filter;
    }

    /**
     * Returns false when the file's lower and upper bounds show that no source key lies within them
     * for some join column, so no row of the file can match.
     */
    boolean mightContainKeys(DataFile file) {
      Map<Integer, ByteBuffer> lowerBounds = file.lowerBounds();
      Map<Integer, ByteBuffer> upperBounds = file.upperBounds();
      if (lowerBounds == null || upperBounds == null) {
        return true;
      }

      for (int i = 0; i < fields.size(); i += 1) {
        Object[] values = sortedValues.get(i);
        if (values == null) {
          continue;
        }
        Types.NestedField field = fields.get(i);
        ByteBuffer lower = lowerBounds.get(field.fieldId());
        ByteBuffer upper = upperBounds.get(field.fieldId());
        if (lower == null || upper == null) {
          continue;
        }
        Type.PrimitiveType type = field.type().asPrimitiveType();
        Comparator<Object> comparator = Comparators.forType(type);
        Object low = Conversions.fromByteBuffer(type, lower);
        Object high = Conversions.fromByteBuffer(type, upper);
        if (!anyWithin(values, low, high, comparator)) {
          return false;
        }
      }
      return true;
    }

    private boolean anyWithin(Object[] sorted, Object low, Object high, Comparator<Object> cmp) {
      int from = 0;
      int to = sorted.length;
      while (from < to) { // first index whose value is >= low
        int mid = (from + to) >>> 1;
        if (cmp.compare(sorted[mid], low) < 0) {
          from = mid + 1;
        } else {
          to = mid;
        }
      }
      return from < sorted.length && cmp.compare(sorted[from], high) <= 0;
    }
  }

  /** Builds the source index, rejecting null and duplicate keys with messages that name them. */
  Map<Object, Record> index(List<Record> rows, Schema schema, String tableName) {
    int[] positions = positionsIn(schema.asStruct());
    Map<Object, Record> index = new LinkedHashMap<>(Math.max(16, rows.size() * 2));
    Map<Object, Integer> duplicates = new LinkedHashMap<>();
    Map<Object, String> shown = new LinkedHashMap<>();
    for (int r = 0; r < rows.size(); r += 1) {
      Record row = rows.get(r);
      for (int i = 0; i < positions.length; i += 1) {
        if (row.get(positions[i]) == null) {
          throw new InvalidRowEditException(
              String.format(
                  "Upsert source row %d has a null in join column '%s' of table %s; join columns"
                      + " must have a value in every source row",
                  r, fields.get(i).name(), tableName));
        }
      }
      Object key = keyOf(row, positions);
      if (index.putIfAbsent(key, row) != null) {
        duplicates.merge(key, 2, (count, one) -> count + 1);
        shown.putIfAbsent(key, show(row, positions));
      }
    }

    if (!duplicates.isEmpty()) {
      int limit = 5;
      String listed =
          duplicates.entrySet().stream()
              .limit(limit)
              .map(entry -> shown.get(entry.getKey()) + " (" + entry.getValue() + " rows)")
              .collect(Collectors.joining(", "));
      String more =
          duplicates.size() > limit ? " and " + (duplicates.size() - limit) + " more keys" : "";
      throw new InvalidRowEditException(
          String.format(
              "Upsert source for table %s has duplicate keys on join columns %s: %s%s. Each key"
                  + " must appear in at most one source row; deduplicate the rows first",
              tableName, names(), listed, more));
    }

    return index;
  }
}
