package dev.transforms.runtime.internal.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.TransformsConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.jdbc.UncheckedSQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CatalogsTest {

  @TempDir Path dir;

  @Test
  void anExistingCatalogIsOnlyLookedUpNeverCreated() {
    Path warehouse = dir.resolve("warehouse");
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(warehouse))) {
      assertThat(catalogs.sqliteDatabase("local")).contains(warehouse.resolve("catalog.db"));
      assertThat(catalogs.existingCatalog("local")).isEmpty();
      assertThat(warehouse).doesNotExist();
      catalogs.catalog("local");
      assertThat(catalogs.existingCatalog("local")).isPresent();
    }
  }

  @Test
  void aWarehouseThatIsAFileIsAConfigurationErrorNamingIt() throws Exception {
    Path file = Files.writeString(dir.resolve("not-a-folder"), "x");
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(file.resolve("below")))) {
      assertThatThrownBy(() -> catalogs.catalog("local"))
          .isInstanceOf(ConfigurationException.class)
          .hasMessage("Catalog 'local' keeps its database in " + file.resolve("below") + ", but " + file
              + " is a file, not a folder; name another warehouse folder (--warehouse DIR)");
      assertThatThrownBy(() -> catalogs.existingCatalog("local")).isInstanceOf(ConfigurationException.class);
    }
    assertThat(Files.readString(file)).isEqualTo("x");
  }

  @Test
  void aDatabaseThatCannotBeWrittenIsRefusedBeforeABuildWrites() throws Exception {
    Path warehouse = dir.resolve("warehouse");
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(warehouse))) {
      ((SupportsNamespaces) catalogs.catalog("local")).createNamespace(Namespace.of("ns"));
      catalogs.checkWritable("local");
    }
    long size = Files.size(warehouse.resolve("catalog.db"));
    // The driver opens the database read-only (SQLITE_OPEN_READONLY), as it does a file without write
    // permission; the permission alone would not do as root, who may write anyway.
    Path file = Files.writeString(dir.resolve("read-only.properties"), String.join("\n",
        "catalog.local.type=jdbc",
        "catalog.local.uri=jdbc:sqlite:" + warehouse.resolve("catalog.db"),
        "catalog.local.warehouse=" + warehouse.toUri(),
        "catalog.local.jdbc.schema-version=V1",
        "catalog.local.jdbc.open_mode=1"));
    TransformsConfig readOnly = TransformsConfig.load(Optional.of(file), Optional.empty(), Map.of(), dir);
    try (Catalogs catalogs = new Catalogs(readOnly)) {
      assertThat(((SupportsNamespaces) catalogs.catalog("local")).namespaceExists(Namespace.of("ns"))).isTrue();
      assertThatThrownBy(() -> catalogs.checkWritable("local"))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageStartingWith("Catalog 'local' keeps its tables in " + warehouse.resolve("catalog.db")
              + ", but it is read-only");
    }
    assertThat(Files.size(warehouse.resolve("catalog.db"))).isEqualTo(size);
  }

  @Test
  void onlyALockedDatabaseOrASchemaCreatedMeanwhileCountsAsALostStartRace() {
    assertThat(Catalogs.lostStartRace(new UncheckedSQLException(
        new SQLException("[SQLITE_ERROR] SQL error or missing database (duplicate column name: iceberg_type)"),
        "Cannot check and eventually update SQL schema"))).isTrue();
    assertThat(Catalogs.lostStartRace(new UncheckedSQLException(
        new SQLException("[SQLITE_BUSY] The database file is locked (database is locked)"), "Cannot initialize"))).isTrue();
    assertThat(Catalogs.lostStartRace(new UncheckedSQLException(
        new SQLException("[SQLITE_READONLY] Attempt to write a readonly database"), "Unknown failure"))).isFalse();
    assertThat(Catalogs.lostStartRace(new IllegalArgumentException("duplicate column"))).isFalse();
  }
}
