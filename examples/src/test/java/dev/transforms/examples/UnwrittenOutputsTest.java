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
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.spark.SparkTransformContext;
import dev.transforms.spark.TableTransformInput;
import dev.transforms.spark.TableTransformOutput;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.apache.spark.sql.SparkSession;
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
  static final String SPARK_MERGED = "/Unwritten/spark-merged";
  static final String SINGLE_NODE_UPSERTED = "/Unwritten/single-node-upserted";
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

  /** A Spark transform that merges its input's new ids into its output: a merge that may find none. */
  public static class SparkMerge {
    @Transform
    public void merge(SparkTransformContext ctx, @TableInput(ORDERS) TableTransformInput orders,
        @TableOutput(SPARK_MERGED) TableTransformOutput out) {
      SparkSession spark = ctx.sparkSession();
      if (!spark.catalog().tableExists(out.identifier())) {
        out.writeDataFrame(orders.dataframe());
        return;
      }
      spark.sql("MERGE INTO " + out.identifier() + " AS t USING (SELECT * FROM " + orders.identifier() + ") AS s"
          + " ON t.id = s.id WHEN NOT MATCHED THEN INSERT *");
    }
  }

  /** A single-node transform that upserts its input into its output: an upsert that may change nothing. */
  public static class SingleNodeUpsert {
    @Transform
    public void upsert(@TableInput(ORDERS) IcebergInput orders, @TableOutput(SINGLE_NODE_UPSERTED) IcebergOutput out) {
      try (VectorSchemaRoot rows = orders.arrow()) {
        if (out.table().isEmpty()) {
          out.writeTable(rows);
        } else {
          RowEdits.on(out.table().get()).upsert(rows, List.of("id"));
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

  @Test
  void aMergeThatFindsNothingToChangeOnSparkCountsAsWritten() {
    editsThatChangeNothingCountAsWriting(SparkMerge.class, SPARK_MERGED);
  }

  @Test
  void anUpsertThatChangesNothingOnASingleNodeCountsAsWritten() {
    editsThatChangeNothingCountAsWriting(SingleNodeUpsert.class, SINGLE_NODE_UPSERTED);
  }

  /**
   * The input gets a new snapshot with the same rows: the transform runs, its edit finds nothing to change and
   * makes no snapshot, and the build still stores its state, so the next build finds it up to date instead of
   * running it again on every build.
   */
  private void editsThatChangeNothingCountAsWriting(Class<?> transform, String output) {
    warehouse.createTable(ORDERS, SCHEMA, Row.of(1L), Row.of(2L));
    warehouse.build(transform).assertSucceeded();
    warehouse.overwrite(ORDERS, Row.of(1L), Row.of(2L));

    TransformResult edited = warehouse.build(transform).assertSucceeded().only();

    assertThat(edited.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(edited.outputs().get(0).published()).as("state stored").isTrue();
    assertThatTable(warehouse.table(output)).containsExactlyInAnyOrder(Row.of(1L), Row.of(2L));
    assertThat(warehouse.build(transform).assertSucceeded().only().status())
        .isEqualTo(TransformResult.Status.UP_TO_DATE);
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
