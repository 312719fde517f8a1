package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.maintenance.CompactionResult;
import dev.transforms.runtime.maintenance.MaintenanceOptions;
import dev.transforms.runtime.maintenance.MaintenanceReport;
import dev.transforms.runtime.maintenance.TableMaintenance;
import dev.transforms.spark.maintenance.SparkMaintenanceEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.spark.sql.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Maintenance of Spark tables with Iceberg's Spark actions: rows unchanged, files and snapshots as expected. */
class SparkMaintenanceTest extends SparkTestBase {
  private static final DatasetPath PATH = DatasetPath.of("/Shop/orders");
  private static final String TABLE = "`local`.`Shop`.`orders`";

  private Table create(String deletes) {
    int version = deletes.equals("v3-deletion-vectors") ? 3 : 2;
    spark.sql("CREATE NAMESPACE IF NOT EXISTS `local`.`Shop`");
    spark.sql("CREATE TABLE " + TABLE + " (id bigint, name string) USING iceberg TBLPROPERTIES ('format-version'='"
        + version + "', 'write.delete.mode'='merge-on-read')");
    for (int f = 0; f < 3; f++) {
      StringBuilder values = new StringBuilder();
      for (int id = f * 20; id < f * 20 + 20; id++) {
        values.append(values.length() == 0 ? "" : ", ").append("(").append(id).append(", 'name-").append(id)
            .append("')");
      }
      spark.sql("INSERT INTO " + TABLE + " VALUES " + values);
    }
    Table table = table("/Shop/orders");
    if (deletes.equals("v2-equality")) {
      equalityDelete(table, 7, 14, 21, 28, 35, 42, 49, 56);
    } else {
      spark.sql("DELETE FROM " + TABLE + " WHERE id % 7 = 0");
    }
    table.refresh();
    return table;
  }

  private static void equalityDelete(Table table, long... ids) {
    Schema keys = table.schema().select("id");
    GenericFileWriterFactory factory = new GenericFileWriterFactory.Builder(table)
        .equalityFieldIds(new int[] {keys.findField("id").fieldId()}).equalityDeleteRowSchema(keys).build();
    EncryptedOutputFile file = OutputFileFactory.builderFor(table, 1, 1).format(FileFormat.PARQUET).build()
        .newOutputFile();
    EqualityDeleteWriter<Record> writer = factory.newEqualityDeleteWriter(file, table.spec(), null);
    try (writer) {
      for (long id : ids) {
        GenericRecord key = GenericRecord.create(keys);
        key.set(0, id);
        writer.write(key);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    table.newRowDelta().addDeletes(writer.toDeleteFile()).commit();
  }

  private Set<String> rowsByCore(Table table) {
    table.refresh();
    Set<String> rows = new TreeSet<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(r -> rows.add(r.getField("id") + ":" + r.getField("name")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private Set<String> rowsBySpark() {
    Set<String> rows = new TreeSet<>();
    for (Row row : spark.sql("SELECT id, name FROM " + TABLE).collectAsList()) {
      rows.add(row.getLong(0) + ":" + row.getString(1));
    }
    return rows;
  }

  private static List<FileScanTask> tasks(Table table) {
    table.refresh();
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = table.newScan().planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }

  private static int deleteFiles(Table table) {
    Set<String> deletes = new HashSet<>();
    for (FileScanTask task : tasks(table)) {
      for (DeleteFile delete : task.deletes()) {
        deletes.add(delete.location());
      }
    }
    return deletes.size();
  }

  private MaintenanceReport maintain(MaintenanceOptions options, List<String> log) {
    try (SparkMaintenanceEngine engine = new SparkMaintenanceEngine(spark);
        TableMaintenance maintenance = TableMaintenance.open(config, engine)) {
      return maintenance.maintain(PATH, options, log::add);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"v2-position", "v2-equality", "v3-deletion-vectors"})
  void compactionRewritesTheFilesWithDeletesAndKeepsTheRows(String deletes) {
    Table table = create(deletes);
    Set<String> before = rowsByCore(table);
    assertThat(before).doesNotContain("7:name-7", "35:name-35").contains("8:name-8");
    assertThat(rowsBySpark()).isEqualTo(before);
    assertThat(tasks(table).size()).isGreaterThanOrEqualTo(3);
    assertThat(deleteFiles(table)).isPositive();
    List<String> log = new ArrayList<>();

    MaintenanceReport report = maintain(MaintenanceOptions.none().withCompact(true), log);

    assertThat(rowsByCore(table)).isEqualTo(before);
    assertThat(rowsBySpark()).isEqualTo(before);
    assertThat(tasks(table)).hasSize(1);
    assertThat(tasks(table).get(0).deletes()).isEmpty();
    assertThat(report.compaction().rowsWritten()).isEqualTo(before.size());
    assertThat(log).anyMatch(l -> l.startsWith("compact: ") && l.endsWith("(spark)"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"v2-position"})
  void manifestsAreRewrittenThenSnapshotsExpireAndTheRowsStay(String deletes) {
    Table table = create(deletes);
    Set<String> before = rowsByCore(table);
    int snapshots = 0;
    for (var ignored : table.snapshots()) {
      snapshots++;
    }
    List<String> log = new ArrayList<>();
    MaintenanceReport report = maintain(
        MaintenanceOptions.none().withRewriteManifests(true).withExpiry(Duration.ZERO, 1), log);
    table.refresh();
    assertThat(report.manifestsRewritten()).isGreaterThanOrEqualTo(3);
    assertThat(table.currentSnapshot().dataManifests(table.io())).hasSize(1);
    // the manifest rewrite added a snapshot; all before it expired
    assertThat(report.expiredSnapshots()).hasSize(snapshots);
    assertThat(table.snapshots()).hasSize(1);
    assertThat(rowsBySpark()).isEqualTo(before);
  }

  @org.junit.jupiter.api.Test
  void theCommandLineCompactsWithTheSparkEngineWhenAsked() {
    Table table = create("v3-deletion-vectors");
    Set<String> before = rowsByCore(table);
    java.io.StringWriter out = new java.io.StringWriter();
    java.io.StringWriter err = new java.io.StringWriter();
    int code = dev.transforms.cli.TransformsCli.execute(new dev.transforms.cli.TransformsCli(java.util.Map.of(), dir),
        new java.io.PrintWriter(out, true), new java.io.PrintWriter(err, true),
        "maintain", "/Shop/orders", "--compact", "--engine", "spark");
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("/Shop/orders (`local`.`Shop`.`orders`), spark engine:", "compact: ",
        " data files rewritten into 1 (" + before.size() + " rows)", "delete files removed", "(spark)");
    assertThat(rowsBySpark()).isEqualTo(before);
    assertThat(tasks(table)).hasSize(1);
  }
  /**
   * The table's operations, except that the first commit through them is preceded by another
   * writer's append: the compaction's commit then meets a table that moved since it was planned.
   */
  private static final class AppendBeforeFirstCommit implements TableOperations {
    private final TableOperations ops;
    private final Runnable append;
    private boolean appended = false;

    private AppendBeforeFirstCommit(TableOperations ops, Runnable append) {
      this.ops = ops;
      this.append = append;
    }

    @Override
    public TableMetadata current() {
      return ops.current();
    }

    @Override
    public TableMetadata refresh() {
      return ops.refresh();
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
      if (!appended) {
        appended = true;
        append.run();
      }
      ops.commit(base, metadata);
    }

    @Override
    public FileIO io() {
      return ops.io();
    }

    @Override
    public EncryptionManager encryption() {
      return ops.encryption();
    }

    @Override
    public String metadataFileLocation(String fileName) {
      return ops.metadataFileLocation(fileName);
    }

    @Override
    public LocationProvider locationProvider() {
      return ops.locationProvider();
    }

    @Override
    public long newSnapshotId() {
      return ops.newSnapshotId();
    }
  }

  @org.junit.jupiter.api.Test
  void anAppendDuringCompactionLandsAndNoRowIsLost() {
    Table table = create("v2-position");
    Set<String> expected = new TreeSet<>(rowsByCore(table));
    long planned = table.currentSnapshot().snapshotId();
    Runnable append = () -> spark.sql("INSERT INTO " + TABLE + " VALUES (1000, 'name-1000'), (1001, 'name-1001')");
    Table racing = new BaseTable(
        new AppendBeforeFirstCommit(((HasTableOperations) table).operations(), append), table.name());

    CompactionResult result;
    try (SparkMaintenanceEngine engine = new SparkMaintenanceEngine(spark)) {
      result = engine.compact(racing);
    }

    expected.add("1000:name-1000");
    expected.add("1001:name-1001");
    assertThat(rowsByCore(table)).isEqualTo(expected);
    spark.sql("REFRESH TABLE " + TABLE);
    assertThat(rowsBySpark()).isEqualTo(expected);
    // the append committed first, then the compaction on top of it (and the removal of dangling
    // deletes, a second replace): the appended file stays beside the compacted one
    table.refresh();
    List<Snapshot> since = new ArrayList<>();
    for (Snapshot s = table.currentSnapshot(); s.snapshotId() != planned; s = table.snapshot(s.parentId())) {
      since.add(0, s);
    }
    List<String> operations = since.stream().map(Snapshot::operation).toList();
    assertThat(operations).startsWith("append", "replace");
    assertThat(operations.subList(1, operations.size())).containsOnly("replace");
    int appendedFiles = Integer.parseInt(since.get(0).summary().get("added-data-files"));
    assertThat(tasks(table)).hasSize(1 + appendedFiles);
    assertThat(deleteFiles(table)).isZero();
    assertThat(result.rowsWritten()).isEqualTo(expected.size() - 2);
  }
}
