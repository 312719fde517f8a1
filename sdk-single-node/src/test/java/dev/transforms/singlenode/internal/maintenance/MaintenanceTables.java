package dev.transforms.singlenode.internal.maintenance;

import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.singlenode.edits.RowEdits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/** Tables with small files and deletes in the embedded catalog, for the maintenance tests. */
final class MaintenanceTables {
  static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()));

  /** How a table's rows get deleted. */
  enum Deletes {
    V2_POSITION(2, "position"), V2_EQUALITY(2, "equality"), V3_DELETION_VECTOR(3, "position");

    final int formatVersion;
    final String kind;

    Deletes(int formatVersion, String kind) {
      this.formatVersion = formatVersion;
      this.kind = kind;
    }
  }

  private MaintenanceTables() {}

  static Catalogs catalogs(Path dir) {
    return new Catalogs(TransformsConfig.embedded(dir.resolve("warehouse")));
  }

  /** Creates {@code /Shop/NAME}: {@code files} appends of {@code rows} rows each, then deletes ids divisible by 7. */
  static Table smallFilesWithDeletes(Catalogs catalogs, String name, Deletes deletes, int files, int rows) {
    Table table = create(catalogs, name, deletes);
    for (int f = 0; f < files; f++) {
      append(table, (long) f * rows, rows);
    }
    RowEdits.on(table).delete("id in (" + sevens(files * rows) + ")");
    table.refresh();
    return table;
  }

  static Table create(Catalogs catalogs, String name, Deletes deletes) {
    return create(catalogs, "Shop", name, deletes);
  }

  static Table create(Catalogs catalogs, String namespace, String name, Deletes deletes) {
    Map<String, String> properties = new HashMap<>();
    properties.put(TableProperties.FORMAT_VERSION, Integer.toString(deletes.formatVersion));
    properties.put(TableProperties.DELETE_MODE, "merge-on-read");
    properties.put(RowEdits.DELETE_KIND_PROPERTY, deletes.kind);
    Catalogs.createNamespaceIfMissing(catalogs.catalog("local"), Namespace.of(namespace));
    return catalogs.catalog("local").createTable(TableIdentifier.of(namespace, name), SCHEMA,
        PartitionSpec.unpartitioned(), properties);
  }

  static void append(Table table, long firstId, int rows) {
    List<Record> records = new ArrayList<>();
    for (long id = firstId; id < firstId + rows; id++) {
      GenericRecord record = GenericRecord.create(SCHEMA);
      record.set(0, id);
      record.set(1, "name-" + id);
      records.add(record);
    }
    RowEdits.on(table).append(records);
    table.refresh();
  }

  private static String sevens(int rows) {
    StringBuilder ids = new StringBuilder("-1");
    for (int id = 0; id < rows; id += 7) {
      ids.append(", ").append(id);
    }
    return ids.toString();
  }

  /** The table's live rows as {@code id:name}, sorted. */
  static Set<String> rows(Table table) {
    table.refresh();
    Set<String> rows = new TreeSet<>();
    if (table.currentSnapshot() == null) {
      return rows;
    }
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(r -> rows.add(r.get(0) + ":" + r.get(1)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  static int dataFiles(Table table) {
    return tasks(table).size();
  }

  static int deleteFiles(Table table) {
    Set<String> deletes = new TreeSet<>();
    for (FileScanTask task : tasks(table)) {
      for (DeleteFile delete : task.deletes()) {
        deletes.add(delete.location());
      }
    }
    return deletes.size();
  }

  static List<FileScanTask> tasks(Table table) {
    table.refresh();
    List<FileScanTask> tasks = new ArrayList<>();
    if (table.currentSnapshot() == null) {
      return tasks;
    }
    try (CloseableIterable<FileScanTask> planned = table.newScan().planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }

  static int snapshots(Table table) {
    table.refresh();
    int count = 0;
    for (var ignored : table.snapshots()) {
      count++;
    }
    return count;
  }
}
