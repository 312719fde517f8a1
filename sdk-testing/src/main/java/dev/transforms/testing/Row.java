package dev.transforms.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One row of a table in a test: its values in column order. Values are plain Java objects; when a row
 * is written to a table they are converted to the column's type ({@code "2026-04-01"} becomes a date,
 * {@code 1} a long), and rows read back from a table hold Iceberg's generic values ({@code Long},
 * {@code LocalDate}, {@code BigDecimal}, {@code LocalDateTime}, {@code OffsetDateTime}...).
 *
 * <pre>{@code
 * Row.of(1L, "2026-04-02", "Stale")
 * }</pre>
 */
public final class Row {

  private final List<Object> values;

  private Row(List<Object> values) {
    this.values = values;
  }

  /**
   * A row of values in column order; {@code null} is a null value.
   *
   * @param values the values
   * @return the row
   */
  public static Row of(Object... values) {
    return new Row(Collections.unmodifiableList(new ArrayList<>(Arrays.asList(values))));
  }

  /**
   * The values in column order.
   *
   * @return the values, unmodifiable
   */
  public List<Object> values() {
    return values;
  }

  /**
   * The value of a column.
   *
   * @param index the column's position, from 0
   * @return the value, possibly null
   */
  public Object get(int index) {
    return values.get(index);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Row row && row.values.equals(values);
  }

  @Override
  public int hashCode() {
    return Objects.hash(values);
  }

  /** Returns the values as {@code (1, 2026-04-02, Stale)}, strings quoted. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder("(");
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        out.append(", ");
      }
      Object value = values.get(i);
      out.append(value instanceof CharSequence ? "'" + value + "'" : String.valueOf(value));
    }
    return out.append(')').toString();
  }
}
