package dev.transforms.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.singlenode.arrow.ArrowRecords;
import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.singlenode.internal.plan.StrategiesAgreeTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The single-node planners' differential test ({@link StrategiesAgreeTest#everyStrategy}) on tables whose
 * first files PyIceberg writes (pyarrow: no page index, exact statistics in the page headers) and Spark
 * writes: through deletes, an upsert, an overwrite, a rename, an added column and two widenings, a
 * compaction and a merge-on-read delete, with each rewrite strategy forced, every read strategy gives the
 * engine's rows and every data file its metrics; and after every step of the page copy PyIceberg reads the
 * rows the SDK's engine reads, every file the copy wrote included.
 */
class StrategiesAgreeInteropTest {
  private static final String CATALOG = PyIceberg.CATALOG;
  private static final Namespace NAMESPACE = Namespace.of("interop");

  @TempDir static Path warehouse;
  private static JdbcCatalog catalog;
  private static PyIceberg py;
  private static BufferAllocator allocator;

  @BeforeAll
  static void openCatalog() {
    String python = PyIceberg.configuredPython();
    Assumptions.assumeTrue(python != null, "interop test skipped: no Python with PyIceberg given (.ci/interop-test)");
    py = new PyIceberg(python, System.getProperty("interop.script"), warehouse);
    catalog = py.openCatalog();
    catalog.createNamespace(NAMESPACE);
    allocator = new RootAllocator();
  }

  @AfterAll
  static void close() throws Exception {
    if (catalog != null) {
      catalog.close();
      allocator.close();
    }
  }

  private static Table create(String name) {
    return catalog.createTable(TableIdentifier.of(NAMESPACE, name), StrategiesAgreeTest.FLAT,
        PartitionSpec.unpartitioned(), StrategiesAgreeTest.PROPERTIES);
  }

  @Test
  void everyStrategyGivesTheEnginesRowsOnFilesPyIcebergWrote() throws Exception {
    List<Record> rows = StrategiesAgreeTest.rows(StrategiesAgreeTest.FLAT, 0, StrategiesAgreeTest.ROWS, 0);
    StrategiesAgreeTest.everyStrategy("pyiceberg writer", name -> {
      Table table = create(name);
      py.run("append", name, arrowFile(rows, table).toString());
      table.refresh();
      return table;
    }, StrategiesAgreeInteropTest::pyIcebergReadsWhatTheEngineReads);
  }

  @Test
  void everyStrategyGivesTheEnginesRowsOnFilesSparkWrote() throws Exception {
    Table source = create("spark_source");
    RowEdits.on(source).append(StrategiesAgreeTest.rows(StrategiesAgreeTest.FLAT, 0, StrategiesAgreeTest.ROWS, 0));
    SparkSession spark = py.sparkSession();
    try {
      StrategiesAgreeTest.everyStrategy("spark writer", name -> {
        Table table = create(name);
        spark.sql("INSERT INTO " + CATALOG + ".interop." + name + " SELECT * FROM " + CATALOG
            + ".interop.spark_source ORDER BY id");
        table.refresh();
        return table;
      }, StrategiesAgreeInteropTest::pyIcebergReadsWhatTheEngineReads);
    } finally {
      spark.stop();
    }
  }

  private static void pyIcebergReadsWhatTheEngineReads(Table table) {
    pyIcebergReadsWhatTheEngineReads(table, py, py::run, allocator);
  }

  /**
   * After a step of the page copy: PyIceberg reads the rows the SDK's engine reads.
   *
   * @param table a table of {@link StrategiesAgreeTest#everyStrategy}, after a step
   * @param py the script, whose folder takes the rows
   * @param commands what runs its {@code compare}
   * @param allocator the memory of the engine's read
   */
  static void pyIcebergReadsWhatTheEngineReads(Table table, PyIceberg py, PyIceberg.Commands commands,
      BufferAllocator allocator) {
    String name = table.name().substring(table.name().lastIndexOf('.') + 1);
    if (!name.endsWith("page_copy")) {
      return; // the engine's strategies write with Iceberg's own writer, which the other interop tests cover
    }
    List<Object> rows = new ArrayList<>();
    try (VectorSchemaRoot root = ArrowTableReader.of(table).withNativeReads(false).readAll(allocator)) {
      for (Record record : ArrowRecords.toRecords(root, table.schema())) {
        rows.add(Canonical.row(table.schema().asStruct(), record));
      }
    }
    Path expected = py.file(name + "-" + table.currentSnapshot().snapshotId() + ".json", Canonical.json(rows));
    assertThat(commands.run("compare", name, expected.toString())).anyMatch(line -> line.startsWith("same "));
  }

  /**
   * The rows as an Arrow IPC file in the warehouse folder, for PyIceberg to append: tagged with the table's
   * field ids (the catalog assigned its own), by which PyIceberg matches the columns.
   */
  private static Path arrowFile(List<Record> rows, Table table) {
    Path file = warehouse.resolve(table.name().substring(table.name().lastIndexOf('.') + 1) + ".arrow");
    try (VectorSchemaRoot root = ArrowRecords.toRoot(rows, table.schema(), allocator);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        ArrowFileWriter writer = new ArrowFileWriter(root, null, channel)) {
      writer.start();
      writer.writeBatch();
      writer.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }
}
