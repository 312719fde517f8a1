package dev.transforms.runtime.internal.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.PublishConflictException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.testengine.IdTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Promote on the embedded catalog (Iceberg's {@code JdbcCatalog} on SQLite): 20 outputs built on a branch
 * are promoted in one database commit, counted by a driver that wraps SQLite's ({@link CountingSqlite}); a
 * conflict on the 20th table after the check promotes none of them and leaves no metadata file behind; and
 * what {@link JdbcMultiTableCommit} writes is what Iceberg's own catalog reads and commits on. On a REST
 * catalog, the 20 outputs go in one {@code commitTransaction} call ({@link CountingRest}: no REST server
 * runs in this module's tests, see there).
 */
class PromoteInOneCommitTest {

  private static final int OUTPUTS = 20;
  private static final BuildBranch DEV = new BuildBranch("dev", List.of());

  @TempDir Path dir;
  private Map<String, String> properties;
  private Catalogs settings;
  private JdbcCatalog catalog;

  @BeforeEach
  void openCatalog() throws IOException {
    Path warehouse = dir.resolve("warehouse");
    Files.createDirectories(warehouse);
    TransformsConfig config = TransformsConfig.embedded(warehouse);
    properties = new HashMap<>(config.catalogs().get(TransformsConfig.DEFAULT_CATALOG));
    properties.put("uri", CountingSqlite.uri(warehouse.resolve("catalog.db")));
    settings = new Catalogs(config);
    catalog = (JdbcCatalog) CatalogUtil.buildIcebergCatalog("local", properties, settings.hadoopConf());
    catalog.createNamespace(Namespace.of("ns"));
    for (int i = 1; i <= OUTPUTS; i++) {
      Table table = catalog.createTable(id(i), IdTables.SCHEMA);
      IdTables.append(table, null, Map.of(), i);
      table.manageSnapshots().createBranch("dev").commit();
      IdTables.append(table, "dev", Map.of(), 100 + i);
      table.updateProperties().set(DEV.stateKey("transforms.state.x"), "on-dev").commit();
    }
  }

  @AfterEach
  void closeCatalog() throws IOException {
    CountingSqlite.BEFORE_TRANSACTION.set(null);
    catalog.close();
    settings.close();
  }

  private static TableIdentifier id(int i) {
    return TableIdentifier.of("ns", "t" + i);
  }

  private List<OutputPublisher.Output> outputs() {
    List<OutputPublisher.Output> outputs = new ArrayList<>();
    for (int i = 1; i <= OUTPUTS; i++) {
      DatasetPath path = DatasetPath.of("/ns/t" + i);
      outputs.add(new OutputPublisher.Output(path, new ResolvedTable(path, "local", List.of("ns"), "t" + i), catalog,
          catalog.loadTable(id(i))));
    }
    return outputs;
  }

  private List<DatasetPath> promote() {
    return BranchPromotion.promote(DEV, outputs(), name -> properties);
  }

  private Map<Integer, Long> mains() {
    Map<Integer, Long> mains = new HashMap<>();
    for (int i = 1; i <= OUTPUTS; i++) {
      mains.put(i, catalog.loadTable(id(i)).currentSnapshot().snapshotId());
    }
    return mains;
  }

  /** Every metadata file in the warehouse. */
  private Set<String> metadataFiles() throws IOException {
    try (Stream<Path> files = Files.walk(dir.resolve("warehouse"))) {
      return files.map(Path::toString).filter(f -> f.endsWith(".metadata.json")).collect(Collectors.toCollection(TreeSet::new));
    }
  }

  @Test
  void twentyOutputsArePromotedInOneDatabaseCommit() {
    Map<Integer, Long> heads = new HashMap<>();
    Map<Integer, String> before = new HashMap<>();
    for (int i = 1; i <= OUTPUTS; i++) {
      Table table = catalog.loadTable(id(i));
      heads.put(i, table.refs().get("dev").snapshotId());
      before.put(i, ((HasTableOperations) table).operations().current().metadataFileLocation());
    }
    CountingSqlite.reset();

    List<DatasetPath> promoted = promote();

    assertThat(CountingSqlite.COMMITS.get()).as("catalog commits of a promote of 20 outputs").isEqualTo(1);
    assertThat(promoted).hasSize(OUTPUTS);
    for (int i = 1; i <= OUTPUTS; i++) {
      Table table = catalog.loadTable(id(i));
      assertThat(table.currentSnapshot().snapshotId()).as("main of t" + i).isEqualTo(heads.get(i));
      assertThat(table.refs()).as("refs of t" + i).containsOnlyKeys(SnapshotRef.MAIN_BRANCH);
      assertThat(table.properties()).containsEntry("transforms.state.x", "on-dev")
          .doesNotContainKey(DEV.stateKey("transforms.state.x"));
      TableMetadata now = ((HasTableOperations) table).operations().current();
      assertThat(JdbcMultiTableCommit.version(now.metadataFileLocation()))
          .isEqualTo(JdbcMultiTableCommit.version(before.get(i)) + 1);
      assertThat(now.previousFiles()).last().extracting(TableMetadata.MetadataLogEntry::file).isEqualTo(before.get(i));
    }
    // Iceberg's own catalog goes on committing the tables: a fresh JdbcCatalog reads the rows written here.
    try (JdbcCatalog fresh = (JdbcCatalog) CatalogUtil.buildIcebergCatalog("local", properties, settings.hadoopConf())) {
      Table table = fresh.loadTable(id(OUTPUTS));
      IdTables.append(table, null, Map.of(), 7);
      assertThat(IdTables.ids(fresh.loadTable(id(OUTPUTS)), null)).containsExactlyInAnyOrder(20L, 120L, 7L);
      assertThat(fresh.listTables(Namespace.of("ns"))).hasSize(OUTPUTS);
    }
  }

  @Test
  void aConflictOnTheTwentiethTableAfterTheCheckPromotesNoneAndLeavesNoMetadataFile() throws IOException {
    Map<Integer, Long> before = mains();
    Set<String> filesBefore = metadataFiles();
    Set<String> otherWriters = new TreeSet<>();
    // Another writer commits on t20's main after promote checked every table, before its transaction.
    CountingSqlite.BEFORE_TRANSACTION.set(() -> {
      Table last = catalog.loadTable(id(OUTPUTS));
      IdTables.append(last, null, Map.of(), 999);
      otherWriters.add(((HasTableOperations) catalog.loadTable(id(OUTPUTS))).operations().current()
          .metadataFileLocation().replaceFirst("^file:", ""));
    });
    CountingSqlite.reset();

    assertThatThrownBy(this::promote).isInstanceOf(PublishConflictException.class)
        .hasMessageContaining("/ns/t20").hasMessageContaining("Nothing was promoted");

    assertThat(CountingSqlite.COMMITS.get()).as("catalog commits: the other writer's only").isEqualTo(1);
    Map<Integer, Long> after = mains();
    for (int i = 1; i < OUTPUTS; i++) {
      assertThat(after.get(i)).as("main of t" + i).isEqualTo(before.get(i));
      assertThat(catalog.loadTable(id(i)).refs()).as("refs of t" + i).containsKey("dev");
    }
    assertThat(IdTables.ids(catalog.loadTable(id(OUTPUTS)), null)).containsExactlyInAnyOrder(20L, 999L);
    Set<String> added = new TreeSet<>(metadataFiles());
    added.removeAll(filesBefore);
    assertThat(added).as("metadata files left: the other writer's alone").containsExactlyElementsOf(otherWriters);
  }

  @Test
  void aStaleRowRollsBackTheWholeTransaction() throws IOException {
    List<JdbcMultiTableCommit.Change> changes = new ArrayList<>();
    for (int i = 1; i <= OUTPUTS; i++) {
      TableOperations operations = ((HasTableOperations) catalog.loadTable(id(i))).operations();
      TableMetadata base = operations.refresh();
      changes.add(new JdbcMultiTableCommit.Change(id(i), operations, base, TableMetadata.buildFrom(base)
          .setBranchSnapshot(base.ref("dev").snapshotId(), SnapshotRef.MAIN_BRANCH).removeRef("dev").build()));
    }
    IdTables.append(catalog.loadTable(id(OUTPUTS)), null, Map.of(), 999);
    Map<Integer, Long> before = mains();
    Set<String> filesBefore = metadataFiles();

    assertThatThrownBy(() -> new JdbcMultiTableCommit("local", properties).commit(changes))
        .isInstanceOf(CommitFailedException.class).hasMessageContaining("ns.t20").hasMessageContaining("nothing");

    assertThat(mains()).isEqualTo(before);
    assertThat(metadataFiles()).isEqualTo(filesBefore);
    try (Connection connection = DriverManager.getConnection(properties.get("uri"));
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT metadata_location FROM iceberg_tables")) {
      int count = 0;
      while (rows.next()) {
        count++;
        assertThat(Path.of(rows.getString(1).replaceFirst("^file:", ""))).as("the file a catalog row names").exists();
      }
      assertThat(count).isEqualTo(OUTPUTS);
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void metadataFileVersionsAreReadAsIcebergNamesThem() {
    assertThat(JdbcMultiTableCommit.version("file:/w/ns/t/metadata/00041-0f1e.metadata.json")).isEqualTo(41);
    assertThat(JdbcMultiTableCommit.version("file:/w/ns/t/metadata/v3.metadata.json")).isEqualTo(-1);
  }

  @Test
  void twentyOutputsOfOneRestCatalogArePromotedInOneMultiTableCommit() {
    CountingRest rest = new CountingRest(catalog);
    List<OutputPublisher.Output> outputs = outputs().stream()
        .map(o -> new OutputPublisher.Output(o.path(), o.resolved(), rest, o.existing())).toList();
    Map<Integer, Long> heads = new HashMap<>();
    for (int i = 1; i <= OUTPUTS; i++) {
      heads.put(i, catalog.loadTable(id(i)).refs().get("dev").snapshotId());
    }

    assertThat(BranchPromotion.promote(DEV, outputs, name -> Map.of())).hasSize(OUTPUTS);

    assertThat(rest.calls).as("commitTransaction calls, each with its tables").containsExactly(OUTPUTS);
    for (int i = 1; i <= OUTPUTS; i++) {
      Table table = catalog.loadTable(id(i));
      assertThat(table.currentSnapshot().snapshotId()).as("main of t" + i).isEqualTo(heads.get(i));
      assertThat(table.refs()).containsOnlyKeys(SnapshotRef.MAIN_BRANCH);
    }
  }
}
