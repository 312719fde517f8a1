package dev.transforms.runtime.internal.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.TransformsConfig;
import dev.transforms.testengine.IdTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedCatalogConcurrencyTest {

  /** The namespace every racer creates, two levels deep as a dataset folder's would be. */
  static final Namespace RACED = Namespace.of("Examples", "raced");

  /**
   * Two builds start at once on a new warehouse: each starts the embedded catalog (creating its tables
   * and migrating their schema) and creates the same namespace. Before Catalogs retried and re-checked,
   * about one round in four failed with "Cannot check and eventually update SQL schema" (a column the
   * other had just added) or a failed INSERT into iceberg_namespace_properties.
   */
  @Test
  void twoCatalogsStartingAtOnceOnANewWarehouseBothSucceed(@TempDir Path dir) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 12; round++) {
        Path warehouse = dir.resolve("round-" + round);
        CyclicBarrier start = new CyclicBarrier(2);
        List<Future<?>> racers = new ArrayList<>();
        for (int racer = 0; racer < 2; racer++) {
          String table = "t" + racer;
          racers.add(pool.submit(() -> {
            try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(warehouse))) {
              start.await();
              startAndCreate(catalogs, table);
            }
            return null;
          }));
        }
        for (Future<?> racer : racers) {
          racer.get(1, TimeUnit.MINUTES);
        }
        assertBothTablesExist(warehouse);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** The same race between two JVMs, as two ./transforms builds would run it. */
  @Test
  void twoProcessesStartingAtOnceOnANewWarehouseBothSucceed(@TempDir Path dir) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    for (int round = 0; round < 3; round++) {
      Path warehouse = dir.resolve("round-" + round);
      Path go = dir.resolve("go-" + round);
      List<Process> racers = new ArrayList<>();
      List<Path> outputs = new ArrayList<>();
      for (int racer = 0; racer < 2; racer++) {
        Path output = dir.resolve("racer-" + round + "-" + racer + ".txt");
        outputs.add(output);
        racers.add(new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
            EmbeddedCatalogConcurrencyTest.class.getName(), warehouse.toString(), "t" + racer, go.toString())
            .redirectErrorStream(true).redirectOutput(output.toFile()).start());
      }
      // Both JVMs have loaded their classes and wait for this file: they start the catalog together.
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      while (!(Files.exists(Path.of(go + ".ready0")) && Files.exists(Path.of(go + ".ready1")))
          && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      Files.createFile(go);
      for (int racer = 0; racer < 2; racer++) {
        assertThat(racers.get(racer).waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(racers.get(racer).exitValue()).as(Files.readString(outputs.get(racer))).isZero();
      }
      assertBothTablesExist(warehouse);
    }
  }

  /**
   * A racer of {@link #twoProcessesStartingAtOnceOnANewWarehouseBothSucceed}: loads its classes, says
   * it is ready, waits for the go file, then starts the catalog and creates its table.
   *
   * @param args the warehouse, the table name, the go file
   * @throws Exception when the race is lost, with a non-zero exit
   */
  public static void main(String[] args) throws Exception {
    Path warehouse = Path.of(args[0]);
    Path go = Path.of(args[2]);
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(warehouse))) {
      Class.forName("org.apache.iceberg.jdbc.JdbcCatalog");
      Class.forName("org.sqlite.JDBC");
      Files.createFile(Path.of(go + ".ready" + args[1].substring(1)));
      while (!Files.exists(go)) {
        Thread.sleep(1);
      }
      startAndCreate(catalogs, args[1]);
    }
  }

  private static void startAndCreate(Catalogs catalogs, String table) {
    Catalog catalog = catalogs.catalog("local");
    Catalogs.createNamespaceIfMissing(catalog, RACED);
    catalog.createTable(TableIdentifier.of(RACED, table), IdTables.SCHEMA);
  }

  private static void assertBothTablesExist(Path warehouse) {
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(warehouse))) {
      Catalog catalog = catalogs.catalog("local");
      assertThat(catalog.listTables(RACED)).containsExactlyInAnyOrder(
          TableIdentifier.of(RACED, "t0"), TableIdentifier.of(RACED, "t1"));
    }
  }

  @Test
  void eightWritersTimesTenCommitsAllLandOnTheEmbeddedCatalog(@TempDir Path warehouse) throws Exception {
    TableIdentifier id = TableIdentifier.of("ns", "contended");
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(warehouse))) {
      Catalog catalog = catalogs.catalog("local");
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("ns"));
      catalog.createTable(id, IdTables.SCHEMA);
      ExecutorService pool = Executors.newFixedThreadPool(8);
      List<Future<?>> futures = new ArrayList<>();
      for (int writer = 0; writer < 8; writer++) {
        int base = writer * 100;
        futures.add(pool.submit(() -> {
          for (int commit = 0; commit < 10; commit++) {
            // Each writer loads its own table object, as separate builds would.
            Table table = catalog.loadTable(id);
            IdTables.append(table, null, Map.of(), base + commit);
          }
          return null;
        }));
      }
      for (Future<?> future : futures) {
        future.get(5, TimeUnit.MINUTES);
      }
      pool.shutdown();
      Table table = catalog.loadTable(id);
      List<Long> ids = IdTables.ids(table, null);
      assertThat(ids).hasSize(80).doesNotHaveDuplicates();
      int snapshots = 0;
      for (var ignored : table.snapshots()) {
        snapshots++;
      }
      assertThat(snapshots).isEqualTo(80);
    }
  }
}
