package dev.transforms.clustertest.scale;

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
 * The benchmark's partitioned incremental append: a full build writes every event into a table
 * partitioned by {@code days(ts)}, an incremental build appends only the events added since.
 */
public class EventsByDay {

  /** The input: an append-only event table. */
  public static final String EVENTS = "/Scale/raw/events";
  /** The output: the events, partitioned by day. */
  public static final String BY_DAY = "/Scale/clean/events-by-day";

  /**
   * Appends new events, or (re)creates the partitioned table.
   *
   * @param ctx the context, which tells whether the build is incremental
   * @param events the events; only the added ones on an incremental build
   * @param byDay the day-partitioned table
   * @throws NoSuchTableException never: the table exists when the build is incremental
   */
  @Transform(description = "days(ts) partitioned events, appended incrementally (scale benchmark)")
  @Incremental(semanticVersion = 1)
  public void eventsByDay(SparkTransformContext ctx,
      @Input(EVENTS) IncrementalTransformInput events,
      @TableOutput(BY_DAY) TableTransformOutput byDay) throws NoSuchTableException {
    DataFrameWriterV2<Row> writer = events.dataframe().writeTo(byDay.identifier());
    if (ctx.isIncremental()) {
      writer.append();
    } else {
      writer.partitionedBy(days(col("ts"))).createOrReplace();
    }
  }
}
