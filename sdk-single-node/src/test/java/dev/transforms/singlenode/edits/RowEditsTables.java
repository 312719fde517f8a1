package dev.transforms.singlenode.edits;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.jdbc.JdbcCatalog;

/** Creates Hadoop tables in a temporary folder and reads them back, for the row edit tests. */
public final class RowEditsTables {
  private static final HadoopTables TABLES = new HadoopTables(configuration());

  private RowEditsTables() {}

  private static Configuration configuration() {
    Configuration conf = new Configuration();
    // avoid a chmod process per file written; see LocalWarehouseFileSystem
    conf.set("fs.file.impl", dev.transforms.runtime.internal.catalog.LocalWarehouseFileSystem.class.getName());
    conf.setBoolean("fs.file.impl.disable.cache", true);
    return conf;
  }

  public static Table create(
      Path dir,
      String name,
      Schema schema,
      PartitionSpec spec,
      int formatVersion,
      boolean mergeOnRead,
      Map<String, String> extraProperties) {
    Map<String, String> properties = new HashMap<>();
    properties.put(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion));
    String mode = mergeOnRead ? "merge-on-read" : "copy-on-write";
    properties.put(TableProperties.DELETE_MODE, mode);
    properties.put(TableProperties.UPDATE_MODE, mode);
    properties.put(TableProperties.MERGE_MODE, mode);
    properties.putAll(extraProperties);
    return TABLES.create(
        schema, spec, SortOrder.unsorted(), properties, dir.resolve(name).toUri().toString());
  }

  /** Loads another instance of a table, as a second writer would. */
  static Table load(Table table) {
    return TABLES.load(table.location());
  }

  /**
   * Creates a table in a JDBC catalog on SQLite in {@code dir}, the SDK's embedded catalog. Its
   * commits lock in the database rather than in the JVM, so concurrent writers do not wait out the
   * Hadoop catalog's in-memory lock interval.
   */
  static JdbcCatalog jdbcCatalog(Path dir) {
    JdbcCatalog catalog = new JdbcCatalog();
    catalog.setConf(configuration());
    catalog.initialize(
        "test",
        Map.of(
            CatalogProperties.URI,
            "jdbc:sqlite:" + dir.resolve("catalog.db"),
            CatalogProperties.WAREHOUSE_LOCATION,
            dir.resolve("warehouse").toUri().toString(),
            "jdbc.schema-version",
            "V1",
            "jdbc.busy_timeout",
            "10000",
            "jdbc.journal_mode",
            "WAL"));
    return catalog;
  }

  /** Reads every live row of the table's current snapshot, or of a snapshot id when given. */
  static List<Record> read(Table table, Long snapshotId) {
    table.refresh();
    IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table);
    if (snapshotId != null) {
      scan = scan.useSnapshot(snapshotId);
    } else if (table.currentSnapshot() == null) {
      return List.of();
    }
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = scan.build()) {
      records.forEach(record -> rows.add(record.copy()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  static List<Record> read(Table table) {
    return read(table, null);
  }

  /** Returns the file scan tasks of a snapshot, with their delete files. */
  public static List<FileScanTask> tasks(Table table, Snapshot snapshot) {
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned =
        table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }

  static Long currentSnapshotId(Table table) {
    table.refresh();
    Snapshot snapshot = table.currentSnapshot();
    return snapshot == null ? null : snapshot.snapshotId();
  }
}
