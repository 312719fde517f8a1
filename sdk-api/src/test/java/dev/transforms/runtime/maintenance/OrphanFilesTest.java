package dev.transforms.runtime.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.internal.catalog.KeyPrefixFileIO;
import dev.transforms.runtime.Locations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The files orphan removal lists: the table's own, on stores that list by folder and by key prefix. */
class OrphanFilesTest {
  private static final Schema SCHEMA = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  @TempDir Path dir;

  @Test
  void onAnObjectStoreTheFilesOfATableWhoseLocationExtendsThisOnesAreNotOrphans() throws Exception {
    // object stores list by key prefix: the listing of .../Shop/orders also holds .../Shop/orders_archive/...
    try (JdbcCatalog catalog = new JdbcCatalog()) {
      catalog.setConf(new Configuration());
      catalog.initialize("local", Map.of(
          CatalogProperties.URI, "jdbc:sqlite:" + dir.resolve("catalog.db"),
          CatalogProperties.WAREHOUSE_LOCATION, Locations.of(dir.resolve("warehouse")),
          CatalogProperties.FILE_IO_IMPL, KeyPrefixFileIO.class.getName(),
          "jdbc.schema-version", "V1"));
      catalog.createNamespace(Namespace.of("Shop"));
      Table orders = catalog.createTable(TableIdentifier.of("Shop", "orders"), SCHEMA);
      Table archive = catalog.createTable(TableIdentifier.of("Shop", "orders_archive"), SCHEMA);
      archive.updateProperties().set("k", "v").commit();
      assertThat(orders.io()).isInstanceOf(KeyPrefixFileIO.class);
      Path stray = Files.writeString(Files.createDirectories(dir.resolve("warehouse/Shop/orders/data"))
          .resolve("left-behind.parquet"), "x");
      try (Stream<Path> all = Files.walk(dir.resolve("warehouse"))) {
        for (Path file : all.filter(Files::isRegularFile).toList()) {
          Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(Duration.ofDays(4))));
        }
      }

      List<OrphanFiles.Orphan> orphans = OrphanFiles.find(orders, "/Shop/orders", MaintenanceOptions.MIN_ORPHAN_AGE,
          Map.of(), Map.of());

      assertThat(orphans).as("orphans of /Shop/orders").extracting(OrphanFiles.Orphan::location)
          .singleElement().asString().endsWith(stray.toString());
    }
  }
}
