package dev.transforms.examples;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.days;

import dev.transforms.api.Incremental;
import dev.transforms.api.Input;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.spark.IncrementalTransformInput;
import dev.transforms.spark.SparkTransformContext;
import dev.transforms.spark.TableTransformOutput;
import org.apache.spark.sql.DataFrameWriterV2;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;

/**
 * Writes an input into a table partitioned by day with Iceberg's hidden partitioning
 * ({@code days(created_at)}), incrementally: an incremental build appends only the rows added to the
 * input since the last build; a full build creates or replaces the table and sets its partition spec.
 *
 * <p>The transform tells the two apart with {@code ctx.isIncremental()}: a native write does not know
 * whether the build is incremental.
 */
public class PartitionByDay {

  /** The input dataset, an append-only table with a {@code created_at} timestamp. */
  public static final String SOURCE = "/Examples/iceberg/date-input-dataset";
  /** The day-partitioned output. */
  public static final String OUTPUT = "/Examples/iceberg/date-partitioned-table";

  /**
   * Appends new rows, or (re)creates the partitioned table.
   *
   * @param ctx the context, which tells whether this build is incremental
   * @param source the input; its {@code dataframe()} holds the added rows on an incremental build
   * @param output the day-partitioned table
   * @throws NoSuchTableException never: the table exists when the build is incremental
   */
  @Transform(description = "days(created_at) partitioned writes, appended incrementally")
  @Incremental(semanticVersion = 1)
  public void partitionByDay(SparkTransformContext ctx,
      @Input(SOURCE) IncrementalTransformInput source,
      @TableOutput(OUTPUT) TableTransformOutput output) throws NoSuchTableException {
    DataFrameWriterV2<Row> writer = source.dataframe().writeTo(output.identifier());
    if (ctx.isIncremental()) {
      writer.append();
    } else {
      writer.partitionedBy(days(col("created_at"))).createOrReplace();
    }
  }
}
