package dev.transforms.examples;

import static dev.transforms.testing.TransformsAssertions.assertThatTable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.OutputWrites;
import dev.transforms.runtime.TransformResult;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.spark.TableTransformInput;
import dev.transforms.spark.TableTransformOutput;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A full transform with an early return, on either engine: the output it leaves unwritten keeps its rows,
 * nothing is published to it, and the next build runs the transform again instead of calling it up to date.
 */
@TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
public class UnwrittenOutputsTest {

  /**
   * The input: a demo input, so that these transforms (indexed with the test classes, which the demo's tests
   * build too) find it there as well.
   */
  static final String ORDERS = SnapshotComparison.SOURCE;
  static final String SPARK_COPY = "/Unwritten/spark-copy";
  static final String SINGLE_NODE_COPY = "/Unwritten/single-node-copy";
  static final Schema SCHEMA = new Schema(Types.NestedField.optional(1, "id", Types.LongType.get()));

  /** Whether the transforms write: false is the early return. */
  static volatile boolean writes = true;

  /** Whether what they write is empty: an empty result, which a full build publishes. */
  static volatile boolean empty = false;

  TestWarehouse warehouse;

  /** A Spark transform that copies its input, unless told not to write. */
  public static class SparkCopy {
    @Transform
    public void copy(@TableInput(ORDERS) TableTransformInput orders, @TableOutput(SPARK_COPY) TableTransformOutput out) {
      if (writes) {
        out.writeDataFrame(empty ? orders.dataframe().limit(0) : orders.dataframe());
      }
    }
  }

  /** A single-node transform that copies its input, unless told not to write. */
  public static class SingleNodeCopy {
    @Transform
    public void copy(@TableInput(ORDERS) IcebergInput orders, @TableOutput(SINGLE_NODE_COPY) IcebergOutput out) {
      if (writes) {
        try (VectorSchemaRoot rows = orders.arrow()) {
          if (empty) {
            rows.setRowCount(0);
          }
          out.writeTable(rows);
        }
      }
    }
  }

  @AfterEach
  void writeAgain() {
    writes = true;
    empty = false;
  }

  @Test
  void onSpark() {
    theUnwrittenOutputKeepsItsRowsAndTheTransformStaysOutOfDate(SparkCopy.class, SPARK_COPY);
  }

  @Test
  void onASingleNode() {
    theUnwrittenOutputKeepsItsRowsAndTheTransformStaysOutOfDate(SingleNodeCopy.class, SINGLE_NODE_COPY);
  }

  private void theUnwrittenOutputKeepsItsRowsAndTheTransformStaysOutOfDate(Class<?> transform, String copy) {
    warehouse.createTable(ORDERS, SCHEMA, Row.of(1L), Row.of(2L));
    warehouse.build(transform).assertSucceeded();
    long published = warehouse.table(copy).currentSnapshot().snapshotId();
    warehouse.append(ORDERS, Row.of(3L));

    writes = false;
    TransformResult unwritten = warehouse.build(transform).assertSucceeded().only();

    OutputWrites output = unwritten.outputs().get(0);
    assertThat(output.published()).isFalse();
    assertThat(output.snapshotId()).hasValue(published);
    Table table = warehouse.table(copy);
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(published);
    assertThat(table.refs().keySet()).containsExactly("main");
    assertThatTable(table).containsExactlyInAnyOrder(Row.of(1L), Row.of(2L));

    writes = true;
    TransformResult written = warehouse.build(transform).assertSucceeded().only();
    assertThat(written.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(written.outputs().get(0).published()).isTrue();
    assertThatTable(warehouse.table(copy)).containsExactlyInAnyOrder(Row.of(1L), Row.of(2L), Row.of(3L));
    assertThat(warehouse.build(transform).assertSucceeded().only().status())
        .isEqualTo(TransformResult.Status.UP_TO_DATE);

    // An empty result is written, not left out: a full build publishes it, and the output is empty.
    warehouse.append(ORDERS, Row.of(4L));
    empty = true;
    TransformResult emptied = warehouse.build(transform).assertSucceeded().only();
    assertThat(emptied.outputs().get(0).published()).isTrue();
    assertThatTable(warehouse.table(copy)).containsExactlyInAnyOrder();
  }
}
