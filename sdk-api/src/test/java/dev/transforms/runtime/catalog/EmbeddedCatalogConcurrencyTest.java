package dev.transforms.runtime.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.testengine.IdTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
