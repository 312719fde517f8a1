package dev.transforms.benchmarks;

import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.build.BuildOptions;
import dev.transforms.runtime.internal.build.BuildRunner;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.validate.ReflectiveModels;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import dev.transforms.spark.SparkSessions;
import dev.transforms.spark.TableTransformInput;
import dev.transforms.spark.TableTransformOutput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.duckdb.DuckDBConnection;

/**
 * SQL on a single node against Spark, end to end through the runtime, on the same two 1M-row tables:
 * a join and a group-by, as a single-node transform querying DuckDB and as a Spark transform on {@code
 * local[*]}; builds alternate. Then, inside single-node builds, the time to load a 1M-row input into
 * the SQL session against reading it with {@code arrow()}, and against scanning the engine's Arrow
 * stream in DuckDB directly without loading it (what a session that re-registers a stream for each
 * query would pay per query).
 *
 * <p>Arguments: rows (default 1,000,000), measured runs (default 7).
 */
public final class SqlBenchmark {

  static final String ORDERS = "/bench/sql/orders";
  static final String CUSTOMERS = "/bench/sql/customers";

  static final String QUERY = "SELECT c.country, count(*) AS orders, sum(o.amount) AS amount"
      + " FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.country";

  /** The join and group-by with SQL on a single node. */
  public static class SingleNodeJoin {
    @Transform(name = "sql_join")
    public void join(SingleNodeTransformContext ctx, @TableInput(ORDERS) IcebergInput orders,
        @TableInput(CUSTOMERS) IcebergInput customers, @TableOutput("/bench/sql/by_country_duckdb") IcebergOutput out) {
      long start = System.nanoTime();
      ctx.sql().connection();   // loads both inputs (at once), timed apart from the query
      long loadedAt = System.nanoTime();
      out.writeTable(ctx.sql().query(QUERY));
      loadBoth = (loadedAt - start) / 1e6;
      queryAndWrite = (System.nanoTime() - loadedAt) / 1e6;
    }
  }

  /** The parts of the last DuckDB join build, in ms. */
  static volatile double loadBoth;
  static volatile double queryAndWrite;

  /** The same join and group-by in Spark. */
  public static class SparkJoin {
    @Transform(name = "spark_join")
    public void join(@TableInput(ORDERS) TableTransformInput orders, @TableInput(CUSTOMERS) TableTransformInput customers,
        @TableOutput("/bench/sql/by_country_spark") TableTransformOutput out) {
      Dataset<Row> joined = orders.dataframe().join(customers.dataframe(), "customer_id");
      out.writeDataFrame(joined.groupBy("country").agg(count(lit(1)).as("orders"), sum("amount").as("amount")));
    }
  }

  /** What the last timed read inside a transform took, in ms. */
  static volatile double inside;

  /** What opening the last SQL session took, in ms. */
  static volatile double opened;

  /** Reads the input with arrow(). */
  public static class ReadArrow {
    @Transform(name = "read_arrow")
    public void read(@TableInput(ORDERS) IcebergInput orders, @TableOutput("/bench/sql/sink_arrow") IcebergOutput out) {
      long start = System.nanoTime();
      int rows = orders.arrow().getRowCount();
      inside = (System.nanoTime() - start) / 1e6;
      check(rows);
    }
  }

  /** Loads the input into the SQL session (register happened at sql(); the first query loads it). */
  public static class LoadSql {
    @Transform(name = "load_sql")
    public void load(SingleNodeTransformContext ctx, @TableInput(ORDERS) IcebergInput orders,
        @TableOutput("/bench/sql/sink_sql") IcebergOutput out) throws IOException {
      long opening = System.nanoTime();
      ctx.sql();   // opens the DuckDB session: timed apart
      opened = (System.nanoTime() - opening) / 1e6;
      long start = System.nanoTime();
      ArrowReader count = ctx.sql().query("SELECT count(*) AS n FROM orders");
      count.loadNextBatch();
      inside = (System.nanoTime() - start) / 1e6;
      check(((org.apache.arrow.vector.BigIntVector) count.getVectorSchemaRoot().getVector(0)).get(0));
    }
  }

  /** Scans the engine's Arrow stream in DuckDB directly, once, without loading it into a table. */
  public static class ScanStream {
    @Transform(name = "scan_stream")
    public void scan(SingleNodeTransformContext ctx, @TableInput(ORDERS) IcebergInput orders,
        @TableOutput("/bench/sql/sink_stream") IcebergOutput out) throws SQLException, IOException {
      // "orders" re-registered with a filter no file matches, so that connection() loads nothing
      ctx.sql().register("orders", orders, "order_id < 0");
      java.sql.Connection connection = ctx.sql().connection();
      long start = System.nanoTime();
      try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(ctx.allocator());
          ArrowReader batches = orders.arrowReader()) {
        Data.exportArrayStream(ctx.allocator(), batches, stream);
        connection.unwrap(DuckDBConnection.class).registerArrowStream("orders_stream", stream);
        try (Statement st = connection.createStatement(); ResultSet n = st.executeQuery("SELECT count(*) FROM orders_stream")) {
          n.next();
          inside = (System.nanoTime() - start) / 1e6;
          check(n.getLong(1));
        }
      }
    }
  }

  static long expectedRows;

  static void check(long rows) {
    if (rows != expectedRows) {
      throw new IllegalStateException("read " + rows + " rows, expected " + expectedRows);
    }
  }

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    expectedRows = rows;
    Path warehouse = Files.createTempDirectory("transforms-sql-bench");
    Harness.deleteOnExit(warehouse);
    TransformsConfig config = TransformsConfig.embedded(warehouse.resolve("warehouse"));
    Files.createDirectories(config.warehouse());
    SparkSession parent = SparkSessions.builder(config).master("local[*]")
        .config("spark.sql.shuffle.partitions", "4").getOrCreate();
    SparkSession spark = SparkSessions.forBuild(parent, config);
    try (BuildRunner runner = new BuildRunner(config)) {
      String orders = runner.resolver().resolve(DatasetPath.of(ORDERS)).sparkIdentifier();
      String customers = runner.resolver().resolve(DatasetPath.of(CUSTOMERS)).sparkIdentifier();
      spark.sql("CREATE NAMESPACE IF NOT EXISTS `local`.`bench`.`sql`");
      spark.sql("CREATE TABLE " + orders + " USING iceberg AS SELECT id AS order_id, (id * 7919) % " + rows
          + " AS customer_id, CAST((id % 100000) / 100.0 AS DECIMAL(10,2)) AS amount,"
          + " CASE WHEN id % 4 = 0 THEN 'north' WHEN id % 4 = 1 THEN 'south' ELSE 'east' END AS region"
          + " FROM range(" + rows + ") ORDER BY id");
      spark.sql("CREATE TABLE " + customers + " USING iceberg AS SELECT id AS customer_id, concat('c', id) AS name,"
          + " concat('country-', id % 50) AS country FROM range(" + rows + ") ORDER BY id");
      long files = spark.sql("SELECT * FROM " + orders + ".files").count();
      System.out.printf("rows per table: %d (orders in %d data files); cores: %d;"
              + " load average at start: %.2f%n",
          rows, files, Runtime.getRuntime().availableProcessors(),
          java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());

      BuildPlan sql = BuildPlan.of(ReflectiveModels.transformsOf(SingleNodeJoin.class));
      BuildPlan sparkJoin = BuildPlan.of(ReflectiveModels.transformsOf(SparkJoin.class));
      Runnable sqlBuild = () -> succeed(runner.run(sql, BuildListener.NONE, BuildOptions.forcing(sql)));
      Runnable sparkBuild = () -> succeed(runner.run(sparkJoin, BuildListener.NONE, BuildOptions.forcing(sparkJoin)));
      for (int i = 0; i < 2; i++) {
        sqlBuild.run();
        sparkBuild.run();
      }
      double[] duck = new double[runs];
      double[] sparkTimes = new double[runs];
      double[] loads = new double[runs];
      double[] queries = new double[runs];
      for (int i = 0; i < runs; i++) {
        duck[i] = Harness.time(sqlBuild);
        loads[i] = loadBoth;
        queries[i] = queryAndWrite;
        sparkTimes[i] = Harness.time(sparkBuild);
      }
      sameResult(spark, runner);

      BuildPlan arrow = BuildPlan.of(ReflectiveModels.transformsOf(ReadArrow.class));
      BuildPlan load = BuildPlan.of(ReflectiveModels.transformsOf(LoadSql.class));
      BuildPlan stream = BuildPlan.of(ReflectiveModels.transformsOf(ScanStream.class));
      for (int i = 0; i < 2; i++) {
        succeed(runner.run(arrow, BuildListener.NONE, BuildOptions.forcing(arrow)));
        succeed(runner.run(load, BuildListener.NONE, BuildOptions.forcing(load)));
        succeed(runner.run(stream, BuildListener.NONE, BuildOptions.forcing(stream)));
      }
      double[] arrowTimes = new double[runs];
      double[] duckArrowTimes = new double[runs];
      double[] loadTimes = new double[runs];
      double[] streamTimes = new double[runs];
      double[] openTimes = new double[runs];
      for (int i = 0; i < runs; i++) {
        succeed(runner.run(arrow, BuildListener.NONE, BuildOptions.forcing(arrow)));
        arrowTimes[i] = inside;
        // the same read with the page decoder switched off: the engine's own reader
        System.setProperty(dev.transforms.singlenode.internal.parquet.PagedColumnsRead.SWITCH, "false");
        try {
          succeed(runner.run(arrow, BuildListener.NONE, BuildOptions.forcing(arrow)));
        } finally {
          System.clearProperty(dev.transforms.singlenode.internal.parquet.PagedColumnsRead.SWITCH);
        }
        duckArrowTimes[i] = inside;
        succeed(runner.run(load, BuildListener.NONE, BuildOptions.forcing(load)));
        loadTimes[i] = inside;
        openTimes[i] = opened;
        succeed(runner.run(stream, BuildListener.NONE, BuildOptions.forcing(stream)));
        streamTimes[i] = inside;
      }
      for (double[] times : new double[][] {duck, loads, queries, sparkTimes, arrowTimes, duckArrowTimes, loadTimes, streamTimes, openTimes}) {
        Arrays.sort(times);
      }
      Harness.header();
      Harness.row("join + group-by, build with ctx.sql() (DuckDB)", duck);
      Harness.row("  of which: loading both inputs", loads);
      Harness.row("  of which: the query and writing its result", queries);
      Harness.row("join + group-by, build with Spark local[*]", sparkTimes);
      Harness.row("orders: arrow() (1 input)", arrowTimes);
      Harness.row("orders: arrow(), page decoder off (the engine's reader)", duckArrowTimes);
      Harness.row("orders: loaded into the SQL session", loadTimes);
      Harness.row("orders: Arrow stream scanned once by DuckDB", streamTimes);
      Harness.row("opening the SQL session (once per run)", openTimes);
      System.out.printf("Spark / DuckDB build (medians): %.2fx; SQL load / arrow() (medians): %.2f;"
          + " stream scan / arrow(): %.2f; load average at end: %.2f%n",
          Harness.median(sparkTimes) / Harness.median(duck), Harness.median(loadTimes) / Harness.median(arrowTimes),
          Harness.median(streamTimes) / Harness.median(arrowTimes),
          java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    } finally {
      parent.stop();
    }
  }

  /** Both outputs hold the same rows. */
  private static void sameResult(SparkSession spark, BuildRunner runner) {
    String duck = runner.resolver().resolve(DatasetPath.of("/bench/sql/by_country_duckdb")).sparkIdentifier();
    String sparkOut = runner.resolver().resolve(DatasetPath.of("/bench/sql/by_country_spark")).sparkIdentifier();
    spark.sql("REFRESH TABLE " + duck);
    spark.sql("REFRESH TABLE " + sparkOut);
    long differ = spark.sql("SELECT country, orders, CAST(amount AS DECIMAL(38,2)) FROM " + duck
        + " EXCEPT SELECT country, orders, CAST(amount AS DECIMAL(38,2)) FROM " + sparkOut).count()
        + spark.sql("SELECT country, orders, CAST(amount AS DECIMAL(38,2)) FROM " + sparkOut
        + " EXCEPT SELECT country, orders, CAST(amount AS DECIMAL(38,2)) FROM " + duck).count();
    long countries = spark.sql("SELECT * FROM " + duck).count();
    if (differ != 0 || countries != 50) {
      throw new IllegalStateException("DuckDB and Spark disagree: " + differ + " rows differ, " + countries + " countries");
    }
  }

  private static void succeed(BuildReport report) {
    if (!report.succeeded()) {
      throw new IllegalStateException(report.format());
    }
  }
}
