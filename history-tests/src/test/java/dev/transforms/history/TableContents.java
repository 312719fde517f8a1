package dev.transforms.history;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Rows of a table read with Iceberg's generic reader (not the SDK's), by column name, and written as
 * sorted text so that two tables compare whatever the order of their rows and columns.
 */
final class TableContents {

  private TableContents() {}

  /**
   * Rows and the columns they have.
   *
   * @param columns the column names
   * @param rows each row by column name
   */
  record Rows(Set<String> columns, List<Map<String, Object>> rows) {

    /** The rows some filter keeps, in the same columns. */
    Rows filter(Predicate<Map<String, Object>> keep) {
      return new Rows(columns, rows.stream().filter(keep).toList());
    }

    /**
     * These rows without the columns another set of rows lacks where every row here is null: an
     * incremental build keeps the columns an output had (a policy never drops one), a full build writes
     * only those it reads.
     */
    Rows withoutNullColumnsBeyond(Set<String> others) {
      Set<String> dropped = new HashSet<>();
      for (String column : columns) {
        if (!others.contains(column) && rows.stream().allMatch(row -> row.get(column) == null)) {
          dropped.add(column);
        }
      }
      if (dropped.isEmpty()) {
        return this;
      }
      Set<String> kept = new TreeSet<>(columns);
      kept.removeAll(dropped);
      List<Map<String, Object>> narrowed = rows.stream().map(row -> {
        Map<String, Object> copy = new TreeMap<>(row);
        copy.keySet().removeAll(dropped);
        return copy;
      }).toList();
      return new Rows(kept, narrowed);
    }
  }

  /**
   * Every current row of a table.
   *
   * @param table the table
   * @return each row by column name, values as Iceberg's generic reader gives them
   */
  static Rows read(Table table) {
    List<Types.NestedField> columns = table.schema().columns();
    Set<String> names = new TreeSet<>();
    columns.forEach(column -> names.add(column.name()));
    List<Map<String, Object>> rows = new ArrayList<>();
    if (table.currentSnapshot() == null) {
      return new Rows(names, rows);
    }
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        Map<String, Object> row = new TreeMap<>();
        for (Types.NestedField column : columns) {
          row.put(column.name(), record.getField(column.name()));
        }
        rows.add(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + table.name(), e);
    }
    return new Rows(names, rows);
  }

  /**
   * One row as text, its columns in name order: {@code id=3, name=u2, seq=2}.
   *
   * @param row a row by column name
   * @param without columns to leave out
   * @return the text
   */
  static String text(Map<String, Object> row, Set<String> without) {
    return new TreeMap<>(row).entrySet().stream().filter(e -> !without.contains(e.getKey()))
        .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
  }

  /**
   * Rows as sorted text, duplicates kept.
   *
   * @param rows rows by column name
   * @param without columns to leave out
   * @return one line per row, sorted
   */
  static List<String> sorted(Collection<Map<String, Object>> rows, Set<String> without) {
    return rows.stream().map(row -> text(row, without)).sorted().toList();
  }

  /**
   * What two sorted row lists differ by, for failure messages: the rows only one of them has.
   *
   * @param expectedName what the expected rows are
   * @param expected the expected rows
   * @param actualName what the actual rows are
   * @param actual the actual rows
   * @return the differing rows, both ways
   */
  static String difference(String expectedName, List<String> expected, String actualName, List<String> actual) {
    List<String> missing = new ArrayList<>(expected);
    actual.forEach(missing::remove);
    List<String> extra = new ArrayList<>(actual);
    expected.forEach(extra::remove);
    StringBuilder text = new StringBuilder();
    text.append("    in ").append(expectedName).append(" only (").append(missing.size()).append("):");
    missing.forEach(row -> text.append("\n      ").append(row));
    text.append("\n    in ").append(actualName).append(" only (").append(extra.size()).append("):");
    extra.forEach(row -> text.append("\n      ").append(row));
    return text.toString();
  }
}
