package dev.transforms.examples;

import static dev.transforms.testing.TransformsAssertions.assertThatTable;

import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

@TransformsTest
class OpenHouseWritesTest {

  static final Schema LOGS = new Schema(
      Types.NestedField.optional(1, "datepartition", Types.StringType.get()),
      Types.NestedField.optional(2, "level", Types.StringType.get()),
      Types.NestedField.optional(3, "message", Types.StringType.get()));

  TestWarehouse warehouse;

  @Test
  void eachWriteModeDoesWhatItsNameSays() {
    warehouse.createTable(OpenHouseWrites.DELIVERIES, LOGS,
        Row.of("2022-05-10", "INFO", "a"), Row.of("2022-05-10", "ERROR", "b"), Row.of("2022-05-11", "INFO", "c"));
    warehouse.build(OpenHouseWrites.class).assertSucceeded();

    Row a = Row.of("2022-05-10", "INFO", "a");
    Row b = Row.of("2022-05-10", "ERROR", "b");
    Row c = Row.of("2022-05-11", "INFO", "c");
    assertThatTable(warehouse.table(OpenHouseWrites.LOGS_BY_DAY)).isPartitionedBy("identity(datepartition)")
        .containsExactlyInAnyOrder(a, b, c);
    assertThatTable(warehouse.table(OpenHouseWrites.LOGS_BY_LEVEL)).containsExactlyInAnyOrder(a, b, c);
    assertThatTable(warehouse.table(OpenHouseWrites.DELIVERY_LOG)).containsExactlyInAnyOrder(a, b, c);
    assertThatTable(warehouse.table(OpenHouseWrites.FIRST_DELIVERY)).containsExactlyInAnyOrder(a, b, c);

    // A re-delivery of 2022-05-11 and a first delivery of 2022-05-12.
    Row c2 = Row.of("2022-05-11", "INFO", "c2");
    Row d = Row.of("2022-05-11", "WARN", "d");
    Row e = Row.of("2022-05-12", "INFO", "e");
    warehouse.append(OpenHouseWrites.DELIVERIES, c2, d, e);
    warehouse.build(OpenHouseWrites.class).assertSucceeded();

    // overwritePartitions replaced 2022-05-11 and added 2022-05-12; 2022-05-10 is untouched.
    assertThatTable(warehouse.table(OpenHouseWrites.LOGS_BY_DAY)).containsExactlyInAnyOrder(a, b, c2, d, e);
    // overwrite(level = 'INFO') replaced the INFO rows and kept the ERROR row.
    assertThatTable(warehouse.table(OpenHouseWrites.LOGS_BY_LEVEL)).containsExactlyInAnyOrder(a, b, c, c2, e);
    // append added the new delivery.
    assertThatTable(warehouse.table(OpenHouseWrites.DELIVERY_LOG)).containsExactlyInAnyOrder(a, b, c, c2, d, e);
    // Time travel to the deliveries' first snapshot.
    assertThatTable(warehouse.table(OpenHouseWrites.FIRST_DELIVERY)).containsExactlyInAnyOrder(a, b, c);
  }
}
