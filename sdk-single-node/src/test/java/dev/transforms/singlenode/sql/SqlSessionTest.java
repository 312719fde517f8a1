package dev.transforms.singlenode.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import dev.transforms.Transforms;
import dev.transforms.api.ReadMode;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import dev.transforms.singlenode.SqlSession;
import dev.transforms.singlenode.filter.FilterSyntaxException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQL over inputs with position and equality deletes, through the real build runner: every result is
 * checked against rows computed in plain Java from what the inputs hold.
 */
public class SqlSessionTest {

  static final Schema ORDERS = new Schema(
      Types.NestedField.required(1, "order_id", Types.LongType.get()),
      Types.NestedField.optional(2, "customer_id", Types.LongType.get()),
      Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)),
      Types.NestedField.optional(4, "region", Types.StringType.get()));
  static final Schema CUSTOMERS = new Schema(
      Types.NestedField.required(1, "customer_id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()),
      Types.NestedField.optional(3, "country", Types.StringType.get()));
  static final String[] REGIONS = {"north", "south", "east", "west"};
  static final String[] COUNTRIES = {"FR", "DE", "JP"};
  static final long[] DELETED_ORDER_POSITIONS = {1, 2, 50, 299};
  static final Long[] DELETED_CUSTOMERS = {4L, 7L};

  @TempDir Path warehouse;
  Transforms runner;
  Catalog catalog;
  /** The live rows of the inputs, as the oracle sees them. */
  List<Record> liveOrders;
  List<Record> liveCustomers;

  @BeforeEach
  void setUp() {
    runner = Transforms.open(TransformsConfig.embedded(warehouse));
    catalog = runner.catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("shop"));
    Table orders = catalog.createTable(TableIdentifier.of("shop", "orders"), ORDERS);
    List<Record> orderRows = new ArrayList<>();
    for (long i = 0; i < 300; i++) {
      orderRows.add(SqlTables.row(ORDERS, i, i % 13 == 0 ? null : i % 23, BigDecimal.valueOf(i * 7919 % 100000, 2),
          i % 17 == 0 ? null : REGIONS[(int) (i % 4)]));
    }
    DataFile file = SqlTables.append(orders, orderRows);
    SqlTables.deletePositions(orders, file, DELETED_ORDER_POSITIONS);
    Table customers = catalog.createTable(TableIdentifier.of("shop", "customers"), CUSTOMERS);
    List<Record> customerRows = new ArrayList<>();
    for (long id = 0; id < 23; id++) {
      customerRows.add(SqlTables.row(CUSTOMERS, id, "c" + id, COUNTRIES[(int) (id % 3)]));
    }
    SqlTables.append(customers, customerRows);
    SqlTables.deleteWhereEqual(customers, "customer_id", (Object[]) DELETED_CUSTOMERS);

    Set<Long> deletedPositions = new HashSet<>();
    for (long p : DELETED_ORDER_POSITIONS) {
      deletedPositions.add(p);
    }
    liveOrders = new ArrayList<>();
    for (int p = 0; p < orderRows.size(); p++) {
      if (!deletedPositions.contains((long) p)) {
        liveOrders.add(orderRows.get(p));
      }
    }
    liveCustomers = customerRows.stream()
        .filter(c -> !List.of(DELETED_CUSTOMERS).contains((Long) c.getField("customer_id"))).toList();
  }

  @AfterEach
  void tearDown() {
    runner.close();
  }

  Table table(String namespace, String name) {
    return catalog.loadTable(TableIdentifier.of(namespace, name));
  }

  static TransformResult only(BuildReport report) {
    assertThat(report.results()).hasSize(1);
    return report.results().get(0);
  }

  static String errorText(TransformResult result) {
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    StringBuilder text = new StringBuilder();
    for (Throwable t = result.error().orElseThrow(); t != null; t = t.getCause()) {
      text.append(t.getMessage()).append('\n');
    }
    return text.toString();
  }

  /** Joins, aggregates, a window, filters, a self-join and one query run twice, over both inputs. */
  public static class Report {
    @Transform(name = "report")
    public void report(SingleNodeTransformContext ctx,
        @TableInput("/shop/orders") IcebergInput orders,
        @TableInput("/shop/customers") IcebergInput customers,
        @TableOutput("/report/by_country") IcebergOutput byCountry,
        @TableOutput("/report/top_orders") IcebergOutput topOrders,
        @TableOutput("/report/pairs") IcebergOutput pairs,
        @TableOutput("/report/pairs_again") IcebergOutput pairsAgain,
        @TableOutput("/report/north") IcebergOutput north) {
      SqlSession sql = ctx.sql();
      byCountry.writeTable(sql.query("SELECT c.country, count(*) AS orders, sum(o.amount) AS amount"
          + " FROM orders o JOIN customers c ON o.customer_id = c.customer_id GROUP BY c.country"));
      topOrders.writeTable(sql.query("SELECT customer_id, order_id, amount FROM ("
          + " SELECT *, row_number() OVER (PARTITION BY customer_id ORDER BY amount DESC, order_id) AS rn"
          + " FROM orders WHERE customer_id IS NOT NULL) WHERE rn = 1"));
      String selfJoin = "SELECT a.order_id, b.order_id AS next_id FROM orders a JOIN orders b ON b.order_id = a.order_id + 1"
          + " WHERE a.region = 'north' AND a.amount > 100";
      pairs.writeTable(sql.query(selfJoin));
      pairsAgain.writeTable(sql.query(selfJoin));
      sql.register("north_orders", orders, "region = 'north'");
      north.writeTable(sql.query("SELECT order_id FROM north_orders"));
    }
  }

  @Test
  void joinsAggregatesWindowsAndFiltersSeeTheLiveRowsOnly() {
    assertThat(only(dev.transforms.singlenode.Builds.forced(runner, Report.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);

    Map<Long, String> countryOf = new HashMap<>();
    liveCustomers.forEach(c -> countryOf.put((Long) c.getField("customer_id"), (String) c.getField("country")));
    Map<String, Long> expectedCounts = new TreeMap<>();
    Map<String, BigDecimal> expectedSums = new TreeMap<>();
    for (Record o : liveOrders) {
      String country = countryOf.get((Long) o.getField("customer_id"));
      if (country != null) {
        expectedCounts.merge(country, 1L, Long::sum);
        expectedSums.merge(country, (BigDecimal) o.getField("amount"), BigDecimal::add);
      }
    }
    Map<String, Long> counts = new TreeMap<>();
    Map<String, BigDecimal> sums = new TreeMap<>();
    for (Record r : SqlTables.read(table("report", "by_country"))) {
      counts.put((String) r.getField("country"), (Long) r.getField("orders"));
      sums.put((String) r.getField("country"), (BigDecimal) r.getField("amount"));
    }
    assertThat(counts).isEqualTo(expectedCounts);
    assertThat(sums).isEqualTo(expectedSums);
    assertThat(table("report", "by_country").schema().findType("amount")).isEqualTo(Types.DecimalType.of(38, 2));

    Map<Long, Long> expectedTop = new TreeMap<>();
    liveOrders.stream()
        .filter(o -> o.getField("customer_id") != null)
        .sorted(Comparator.comparing((Record o) -> (BigDecimal) o.getField("amount")).reversed()
            .thenComparing(o -> (Long) o.getField("order_id")))
        .forEach(o -> expectedTop.putIfAbsent((Long) o.getField("customer_id"), (Long) o.getField("order_id")));
    Map<Long, Long> top = new TreeMap<>();
    SqlTables.read(table("report", "top_orders"))
        .forEach(r -> top.put((Long) r.getField("customer_id"), (Long) r.getField("order_id")));
    assertThat(top).isEqualTo(expectedTop);

    Set<Long> live = new HashSet<>();
    liveOrders.forEach(o -> live.add((Long) o.getField("order_id")));
    List<List<Long>> expectedPairs = new ArrayList<>();
    for (Record o : liveOrders) {
      long id = (Long) o.getField("order_id");
      BigDecimal amount = (BigDecimal) o.getField("amount");
      if ("north".equals(o.getField("region")) && amount.compareTo(BigDecimal.valueOf(100)) > 0 && live.contains(id + 1)) {
        expectedPairs.add(List.of(id, id + 1));
      }
    }
    assertThat(expectedPairs).isNotEmpty();
    for (String name : List.of("pairs", "pairs_again")) {
      List<List<Long>> pairs = SqlTables.read(table("report", name)).stream()
          .map(r -> List.of((Long) r.getField("order_id"), (Long) r.getField("next_id"))).toList();
      assertThat(pairs).as(name).containsExactlyInAnyOrderElementsOf(expectedPairs);
    }

    List<Long> expectedNorth = liveOrders.stream().filter(o -> "north".equals(o.getField("region")))
        .map(o -> (Long) o.getField("order_id")).toList();
    assertThat(SqlTables.read(table("report", "north")).stream().map(r -> (Long) r.getField("order_id")))
        .containsExactlyInAnyOrderElementsOf(expectedNorth);
  }

  /** Writes the ids of the orders; with {@link #sql} changed, fails. */
  public static class Ids {
    static String sql = "SELECT order_id FROM orders";

    @Transform(name = "ids")
    public void ids(SingleNodeTransformContext ctx, @TableInput("/shop/orders") IcebergInput orders,
        @TableOutput("/out/ids") IcebergOutput out) {
      out.writeTable(ctx.sql().query(sql));
    }
  }

  @Test
  void aFailingQueryLeavesTheOutputUnchangedAndShowsDuckDbsMessage() {
    Ids.sql = "SELECT order_idd FROM orders";
    String unknownColumn = errorText(only(dev.transforms.singlenode.Builds.forced(runner, Ids.class)));
    assertThat(unknownColumn).contains("Transform ids failed").contains("order_idd").contains("Binder Error")
        .contains("SQL: SELECT order_idd FROM orders");
    assertThat(catalog.tableExists(TableIdentifier.of("out", "ids"))).isFalse();

    Ids.sql = "SELECT order_id FROM orders";
    assertThat(only(dev.transforms.singlenode.Builds.forced(runner, Ids.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    long published = table("out", "ids").currentSnapshot().snapshotId();
    assertThat(SqlTables.read(table("out", "ids"))).hasSize(liveOrders.size());

    Ids.sql = "SELECT CAST(region AS INTEGER) AS order_id FROM orders";
    String badCast = errorText(only(dev.transforms.singlenode.Builds.forced(runner, Ids.class)));
    assertThat(badCast).contains("Transform ids failed").contains("Conversion Error");
    Ids.sql = "SELECT order_id FROM orders; DROP TABLE orders";
    assertThat(only(dev.transforms.singlenode.Builds.forced(runner, Ids.class)).status()).isEqualTo(TransformResult.Status.FAILED);
    Ids.sql = "SELECT order_id FROM orders";
    Table out = table("out", "ids");
    assertThat(out.currentSnapshot().snapshotId()).isEqualTo(published);
    assertThat(out.refs()).containsOnlyKeys("main");
    assertThat(SqlTables.read(out)).hasSize(liveOrders.size());
  }

  /** Misuses register. */
  public static class BadRegister {
    static String name;
    static String filter;

    @Transform(name = "bad_register")
    public void run(SingleNodeTransformContext ctx, @TableInput("/shop/orders") IcebergInput orders,
        @TableOutput("/out/bad") IcebergOutput out) {
      if (filter == null) {
        ctx.sql().register(name, orders);
      } else {
        ctx.sql().register(name, orders, filter);
      }
      out.writeTable(ctx.sql().query("SELECT 1 AS x"));
    }
  }

  @Test
  void aBadNameOrFilterIsRefusedNamingTheArgument() {
    BadRegister.name = "north-orders";
    BadRegister.filter = null;
    assertThat(errorText(only(dev.transforms.singlenode.Builds.forced(runner, BadRegister.class))))
        .contains("Argument name of register must be a plain SQL name").contains("'north-orders'");
    BadRegister.name = "north";
    BadRegister.filter = "regoin = 'north'";
    TransformResult badFilter = only(dev.transforms.singlenode.Builds.forced(runner, BadRegister.class));
    assertThat(errorText(badFilter)).contains("regoin");
    assertThat(badFilter.error().orElseThrow().getCause()).isInstanceOf(FilterSyntaxException.class);
    assertThat(catalog.tableExists(TableIdentifier.of("out", "bad"))).isFalse();
  }

  /** Counts the rows of each read mode of an incremental input. */
  public static class ReadModes {
    @Transform(name = "read_modes")
    @dev.transforms.api.Incremental(semanticVersion = 1)
    public void run(SingleNodeTransformContext ctx, @TableInput("/shop/customers") IcebergInput customers,
        @TableOutput("/out/modes") IcebergOutput out) {
      SqlSession sql = ctx.sql();
      sql.register("added", customers, ReadMode.ADDED);
      sql.register("previous", customers, ReadMode.PREVIOUS);
      sql.register("current", customers, ReadMode.CURRENT);
      out.writeTable(sql.query("SELECT (SELECT count(*) FROM added) AS added, (SELECT count(*) FROM previous)"
          + " AS previous, (SELECT count(*) FROM current) AS current, (SELECT count(*) FROM customers) AS by_default,"
          + " (SELECT max(customer_id) FROM added) AS newest"));
    }
  }

  @Test
  void incrementalReadModesReadTheSnapshotsTheBuildPinned() {
    assertThat(only(dev.transforms.singlenode.Builds.forced(runner, ReadModes.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    Table customers = table("shop", "customers");
    SqlTables.append(customers, List.of(SqlTables.row(CUSTOMERS, 100L, "c100", "FR"),
        SqlTables.row(CUSTOMERS, 101L, "c101", "DE")));
    TransformResult second = only(dev.transforms.singlenode.Builds.forced(runner, ReadModes.class));
    assertThat(second.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(second.incremental()).isTrue();
    int before = liveCustomers.size();
    List<List<Long>> rows = SqlTables.read(table("out", "modes")).stream()
        .map(r -> List.of((Long) r.getField("added"), (Long) r.getField("previous"), (Long) r.getField("current"),
            (Long) r.getField("by_default"), (Long) r.getField("newest")))
        .toList();
    assertThat(rows).containsExactlyInAnyOrder(
        List.of((long) before, 0L, (long) before, (long) before, 22L),
        List.of(2L, (long) before, before + 2L, before + 2L, 101L));
  }
}
