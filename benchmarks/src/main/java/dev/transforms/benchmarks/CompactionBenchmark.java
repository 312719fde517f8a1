package dev.transforms.benchmarks;

import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.maintenance.CompactionResult;
import dev.transforms.runtime.maintenance.MaintenanceEngine;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.singlenode.internal.maintenance.SingleNodeMaintenanceEngine;
import dev.transforms.spark.SparkSessions;
import dev.transforms.spark.maintenance.SparkMaintenanceEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.apache.spark.sql.SparkSession;

/**
 * Compaction of one table by the single-node engine ({@code transforms maintain --compact}) against
 * Spark's {@code rewrite_data_files} action in {@code local[*]}, in one JVM, alternating run by run:
 * a v2 table of 1M rows in 200 small files, 1% of the rows deleted by position deletes. After each
 * run the table is rolled back to that state, so every run compacts the same 200 files, applies the
 * same deletes and commits one replace. Each run is checked: one data file, no delete file left, and
 * the live row count unchanged.
 */
public final class CompactionBenchmark {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "customer", Types.StringType.get()),
      Types.NestedField.optional(3, "amount", Types.DoubleType.get()),
      Types.NestedField.optional(4, "status", Types.StringType.get()));

  private CompactionBenchmark() {}

  /**
   * Prints the table of medians.
   *
   * @param args rows (default 1,000,000), files (200), runs per engine (5), and {@code single-node} to
   *     time the single-node engine alone (for profiling)
   * @throws Exception if a run fails
   */
  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int files = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    boolean sparkToo = args.length <= 3 || !args[3].equals("single-node");
    Path dir = Files.createTempDirectory("transforms-compaction-bench");
    Harness.deleteOnExit(dir);
    TransformsConfig config = TransformsConfig.embedded(dir.resolve("warehouse"));
    SparkSession spark = SparkSessions.builder(config).master("local[*]").getOrCreate();
    try (Catalogs catalogs = new Catalogs(config);
        MaintenanceEngine singleNode = new SingleNodeMaintenanceEngine();
        MaintenanceEngine sparkEngine = new SparkMaintenanceEngine(spark)) {
      Table table = smallFilesWithDeletes(catalogs, rows, files);
      Snapshot start = table.currentSnapshot();
      long live = rows - rows / 100;
      Runnable bySingleNode = () -> compact(table, singleNode, start, files, live);
      Runnable bySpark = () -> compact(table, sparkEngine, start, files, live);
      Runnable spark2 = sparkToo ? bySpark : () -> { };
      for (int i = 0; i < 2; i++) {
        bySingleNode.run();
        spark2.run();
      }
      double[] sdk = new double[runs];
      double[] sparkRuns = new double[runs];
      for (int i = 0; i < runs; i++) {
        sdk[i] = Harness.time(bySingleNode);
        sparkRuns[i] = Harness.time(spark2);
      }
      Arrays.sort(sdk);
      Arrays.sort(sparkRuns);
      System.out.printf("table: %,d rows in %d files (%s), %,d deleted by position deletes in %s delete files; "
          + "cores %d%n", rows, files, start.summary().get("total-files-size"), rows / 100,
          start.summary().get("total-delete-files"), Runtime.getRuntime().availableProcessors());
      Harness.header();
      Harness.row("single node: transforms maintain --compact", sdk);
      Harness.row("Spark local[*]: rewrite_data_files (bin-pack)", sparkRuns);
      System.out.printf("ratio of medians (Spark / single node): %.2f%n",
          Harness.median(sparkRuns) / Harness.median(sdk));
    } finally {
      spark.stop();
    }
  }

  /** Compacts, checks the result, and rolls the table back to the small files. */
  private static void compact(Table table, MaintenanceEngine engine, Snapshot start, int files, long live) {
    table.refresh();
    CompactionResult result = engine.compact(table);
    table.refresh();
    Map<String, String> summary = table.currentSnapshot().summary();
    if (result.dataFilesRewritten() != files || !"0".equals(summary.get("total-delete-files"))
        || Long.parseLong(summary.get("total-records")) != live) {
      throw new IllegalStateException(engine.name() + " compaction left " + summary);
    }
    table.manageSnapshots().rollbackTo(start.snapshotId()).commit();
  }

  private static Table smallFilesWithDeletes(Catalogs catalogs, int rows, int files) throws IOException {
    Catalogs.createNamespaceIfMissing(catalogs.catalog("local"), Namespace.of("bench"));
    Table table = catalogs.catalog("local").createTable(TableIdentifier.of("bench", "compaction"), SCHEMA,
        PartitionSpec.unpartitioned(), Map.of(TableProperties.FORMAT_VERSION, "2",
            TableProperties.DELETE_MODE, "merge-on-read", RowEdits.DELETE_KIND_PROPERTY, "position"));
    GenericFileWriterFactory factory = new GenericFileWriterFactory.Builder(table).build();
    OutputFileFactory names = OutputFileFactory.builderFor(table, 1, 1).format(FileFormat.PARQUET).build();
    String[] statuses = {"paid", "open", "cancelled", "refunded"};
    AppendFiles append = table.newAppend();
    int perFile = rows / files;
    GenericRecord record = GenericRecord.create(SCHEMA);
    for (int f = 0; f < files; f++) {
      DataWriter<Record> writer = factory.newDataWriter(names.newOutputFile(), table.spec(), null);
      try (writer) {
        for (long id = (long) f * perFile; id < (long) (f + 1) * perFile; id++) {
          record.set(0, id);
          record.set(1, "customer-" + (id % 1000));
          record.set(2, (id % 100_000) / 100.0);
          record.set(3, statuses[(int) (id % statuses.length)]);
          writer.write(record);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      DataFile file = writer.toDataFile();
      append.appendFile(file);
    }
    append.commit();
    List<Long> deleted = new ArrayList<>();
    for (long id = 0; id < rows; id += 100) {
      deleted.add(id);
    }
    RowEdits.on(table).delete(Expressions.in("id", deleted.toArray()));
    table.refresh();
    return table;
  }
}
