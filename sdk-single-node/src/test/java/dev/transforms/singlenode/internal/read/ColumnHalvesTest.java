package dev.transforms.singlenode.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** How a read's columns are split between two threads ({@link ColumnHalves#split}). */
class ColumnHalvesTest {

  private static final Types.NestedField ID = Types.NestedField.required(1, "id", Types.LongType.get());
  private static final Types.NestedField NAME = Types.NestedField.optional(2, "name", Types.StringType.get());
  private static final Types.NestedField AMOUNT =
      Types.NestedField.optional(3, "amount", Types.DecimalType.of(12, 2));
  private static final Types.NestedField NOTE = Types.NestedField.optional(4, "note", Types.StringType.get());
  private static final Types.NestedField DAY = Types.NestedField.optional(5, "day", Types.DateType.get());

  @Test
  void aStringColumnAmongFixedWidthOnesGetsAThreadOfItsOwn() {
    // the heavy string column alone weighs as much as the other two together
    assertThat(ColumnHalves.split(List.of(ID, NAME, AMOUNT))).containsExactly(List.of(NAME), List.of(ID, AMOUNT));
  }

  @Test
  void theHeaviestColumnsAreSpreadAndEachPartKeepsTheColumnsOrder() {
    assertThat(ColumnHalves.split(List.of(ID, NAME, AMOUNT, NOTE, DAY)))
        .containsExactly(List.of(NAME, AMOUNT), List.of(ID, NOTE, DAY));
  }

  @Test
  void aDictionaryOfFewStringsWeighsAsMuchAsAnyStringColumn() {
    // the 7-column benchmark shape: Arrow C++ takes about as long for five distinct strings as for a
    // million, and 4-byte values cost about half of 8-byte ones
    Types.NestedField status = Types.NestedField.optional(6, "status", Types.StringType.get());
    Types.NestedField quantity = Types.NestedField.optional(7, "quantity", Types.IntegerType.get());
    Types.NestedField score = Types.NestedField.optional(8, "score", Types.DoubleType.get());
    assertThat(ColumnHalves.split(List.of(ID, NAME, AMOUNT, status, quantity, DAY, score)))
        .containsExactly(List.of(NAME, AMOUNT, quantity, DAY), List.of(ID, status, score));
  }

  @Test
  void aPartWithNothingToDecodeIsNoPart() {
    // a row's position is computed, not decoded: a thread for it alone would be wasted
    assertThat(ColumnHalves.split(List.of(NAME, MetadataColumns.ROW_POSITION)))
        .containsExactly(List.of(NAME, MetadataColumns.ROW_POSITION));
    assertThat(ColumnHalves.split(List.of(NAME))).containsExactly(List.of(NAME));
    assertThat(ColumnHalves.split(List.of(NAME, ID, MetadataColumns.ROW_POSITION)))
        .containsExactly(List.of(NAME), List.of(ID, MetadataColumns.ROW_POSITION));
  }
}
