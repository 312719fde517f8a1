package dev.transforms.testing;

import org.apache.iceberg.Table;

/** Entry points of the SDK's AssertJ assertions. */
public final class TransformsAssertions {

  private TransformsAssertions() {}

  /**
   * Starts assertions on a table.
   *
   * <pre>{@code
   * assertThatTable(warehouse.table("/Examples/iceberg/edited-spark"))
   *     .hasColumns("id", "as_of", "status")
   *     .containsExactlyInAnyOrder(Row.of(1L, LocalDate.of(2026, 4, 2), "Archived"));
   * }</pre>
   *
   * @param table the table; a null table fails the first assertion
   * @return the assertion
   */
  public static TableAssert assertThatTable(Table table) {
    return new TableAssert(table);
  }
}
