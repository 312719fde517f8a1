package dev.transforms.examples;

import static org.apache.spark.sql.functions.col;

import dev.transforms.api.Incremental;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.spark.IncrementalTransformInput;
import dev.transforms.spark.SparkTransformContext;
import dev.transforms.spark.TableTransformInput;
import dev.transforms.spark.TableTransformOutput;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;

/**
 * The DataFrameWriterV2 writes of an Iceberg control plane's Spark guide, as transforms over daily log
 * deliveries ({@code datepartition}, {@code level}, {@code message}): create, a partitioned create
 * sorted within partitions, append, dynamic {@code overwritePartitions}, {@code overwrite} by a
 * condition, and time travel by snapshot id.
 *
 * <p>Spark does not let Iceberg request a sort before a partitioned write, so each write sorts within
 * partitions itself, which keeps one file per partition and task.
 */
public class OpenHouseWrites {

  /** Daily log deliveries; a re-delivery of a day replaces that day. */
  public static final String DELIVERIES = "/Examples/openhouse/log-deliveries";
  /** Logs partitioned by {@code datepartition}. */
  public static final String LOGS_BY_DAY = "/Examples/openhouse/logs-by-day";
  /** The latest INFO logs, next to every other level ever delivered. */
  public static final String LOGS_BY_LEVEL = "/Examples/openhouse/logs-by-level";
  /** Every delivery, appended as it came. */
  public static final String DELIVERY_LOG = "/Examples/openhouse/delivery-log";
  /** The deliveries as they were at the input's first snapshot. */
  public static final String FIRST_DELIVERY = "/Examples/openhouse/first-delivery";

  /**
   * Creates a table partitioned by day on the first build; afterwards replaces exactly the days that
   * new deliveries touch (dynamic overwrite), leaving every other day as it is.
   *
   * @param ctx the context
   * @param deliveries the deliveries; added rows on incremental builds
   * @param logs the partitioned logs
   * @throws NoSuchTableException never: the table exists when the build is incremental
   */
  @Transform(description = "partitioned create sorted within partitions, then overwritePartitions")
  @Incremental
  public void logsByDay(SparkTransformContext ctx,
      @TableInput(DELIVERIES) IncrementalTransformInput deliveries,
      @TableOutput(LOGS_BY_DAY) TableTransformOutput logs) throws NoSuchTableException {
    Dataset<Row> sorted = deliveries.dataframe().sortWithinPartitions("datepartition");
    if (ctx.isIncremental()) {
      sorted.writeTo(logs.identifier()).overwritePartitions();
    } else {
      sorted.writeTo(logs.identifier()).partitionedBy(col("datepartition")).createOrReplace();
    }
  }

  /**
   * Creates the table, partitioned by level, on the first build; afterwards replaces only the INFO rows
   * with the deliveries' current INFO rows (overwrite by condition), keeping the other levels.
   *
   * <p>{@code overwrite(condition)} replaces whole files: Iceberg refuses it when a file holds rows on
   * both sides of the condition. Partitioning by the condition's column makes every file fall on one
   * side; for conditions that cut across files, use MERGE INTO or DELETE, which rewrite rows.
   *
   * @param ctx the context
   * @param deliveries the deliveries
   * @param byLevel the table of logs by level
   * @throws AnalysisException never: the table is created only when missing, written only when present
   */
  @Transform(description = "partitioned create, then overwrite rows matching a condition")
  public void logsByLevel(SparkTransformContext ctx,
      @TableInput(DELIVERIES) TableTransformInput deliveries,
      @TableOutput(LOGS_BY_LEVEL) TableTransformOutput byLevel) throws AnalysisException {
    SparkSession spark = ctx.sparkSession();
    if (!spark.catalog().tableExists(byLevel.identifier())) {
      deliveries.dataframe().sortWithinPartitions("level")
          .writeTo(byLevel.identifier()).partitionedBy(col("level")).create();
      return;
    }
    deliveries.dataframe().filter(col("level").equalTo("INFO"))
        .sortWithinPartitions("level")
        .writeTo(byLevel.identifier())
        .overwrite(col("level").equalTo("INFO"));
  }

  /**
   * Appends each delivery as it comes.
   *
   * @param ctx the context
   * @param deliveries the deliveries; added rows on incremental builds
   * @param log the delivery log
   * @throws NoSuchTableException never: the table exists when the build is incremental
   */
  @Transform(description = "create, then append")
  @Incremental
  public void deliveryLog(SparkTransformContext ctx,
      @TableInput(DELIVERIES) IncrementalTransformInput deliveries,
      @TableOutput(DELIVERY_LOG) TableTransformOutput log) throws NoSuchTableException {
    if (ctx.isIncremental()) {
      deliveries.dataframe().writeTo(log.identifier()).append();
    } else {
      deliveries.dataframe().writeTo(log.identifier()).createOrReplace();
    }
  }

  /**
   * Reads the deliveries as they were at their first snapshot, found in the {@code snapshots} metadata
   * table (time travel by snapshot id).
   *
   * @param ctx the context
   * @param deliveries the deliveries
   * @param first the first delivery
   */
  @Transform(description = "time travel by snapshot id")
  public void firstDelivery(SparkTransformContext ctx,
      @TableInput(DELIVERIES) TableTransformInput deliveries,
      @TableOutput(FIRST_DELIVERY) TableTransformOutput first) {
    long firstSnapshot = ctx.sparkSession()
        .sql("SELECT snapshot_id FROM " + deliveries.identifier() + ".snapshots ORDER BY committed_at LIMIT 1")
        .first().getLong(0);
    first.writeDataFrame(deliveries.dataframeAtSnapshot(firstSnapshot));
  }
}
