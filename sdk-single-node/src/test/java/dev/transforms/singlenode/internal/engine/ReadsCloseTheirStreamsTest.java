package dev.transforms.singlenode.internal.engine;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import dev.transforms.runtime.internal.catalog.LocalWarehouseFileSystem;
import dev.transforms.singlenode.Changelog;
import dev.transforms.singlenode.arrow.ArrowBatchReader;
import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.arrow.LeakCheckedAllocator;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.singlenode.internal.read.StreamCountingFileIO;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every single-node read closes the files it opens: Arrow scans (whole, filtered, stopped after one
 * batch), row edits in both write modes, appended-row reads and the changelog, over files with
 * position deletes, equality deletes and deletion vectors. The tables' file IO remembers each input
 * stream until it is closed ({@link StreamCountingFileIO}); a stream left open fails the test with
 * where it was opened.
 */
class ReadsCloseTheirStreamsTest {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              required(1, "id", Types.LongType.get()),
              optional(2, "name", Types.StringType.get()),
              optional(3, "qty", Types.IntegerType.get())),
          Set.of(1));

  @TempDir Path dir;
  @RegisterExtension final LeakCheckedAllocator memory = new LeakCheckedAllocator();

  private HadoopCatalog catalog;

  @BeforeEach
  void setUp() {
    Configuration conf = new Configuration();
    conf.set("fs.file.impl", LocalWarehouseFileSystem.class.getName());
    conf.setBoolean("fs.file.impl.disable.cache", true);
    catalog = new HadoopCatalog();
    catalog.setConf(conf);
    catalog.initialize(
        "counted",
        Map.of(
            CatalogProperties.WAREHOUSE_LOCATION, dir.toUri().toString(),
            CatalogProperties.FILE_IO_IMPL, StreamCountingFileIO.class.getName()));
    StreamCountingFileIO.forgetOpenStreams();
  }

  @ParameterizedTest(name = "v{0}, merge-on-read deletes: {1}")
  @CsvSource({"2, none", "2, position", "2, equality", "3, position"})
  void arrowScansCloseEveryFile(int formatVersion, String deletes) throws IOException {
    Table table = table("scans", formatVersion, !deletes.equals("none"), deletes);
    if (!deletes.equals("none")) {
      RowEdits.on(table).delete(Expressions.equal("id", 2L));
      assertAllClosed("a merge-on-read delete");
    }

    try (VectorSchemaRoot all = ArrowTableReader.of(table).readAll(memory.get())) {
      assertThat(all.getRowCount()).isEqualTo(deletes.equals("none") ? 6 : 5);
    }
    assertAllClosed("reading every row into Arrow");

    try (VectorSchemaRoot some =
        ArrowTableReader.of(table).filter(Expressions.greaterThan("qty", 3)).readAll(memory.get())) {
      assertThat(some.getRowCount()).isEqualTo(3);
    }
    assertAllClosed("a filtered Arrow read");

    try (ArrowBatchReader batches = ArrowTableReader.of(table).batchSize(1).openBatches(memory.get())) {
      assertThat(batches.loadNextBatch()).isTrue();
    }
    assertAllClosed("an Arrow batch reader closed after its first batch");
  }

  @ParameterizedTest(name = "v{0}, merge-on-read: {1}, delete kind {2}")
  @CsvSource({"2, false, position", "2, true, position", "2, true, equality", "3, true, position"})
  void rowEditsCloseEveryFile(int formatVersion, boolean mergeOnRead, String deleteKind) {
    Table table = table("edits", formatVersion, mergeOnRead, deleteKind);

    RowEdits.on(table).upsert(List.of(row(2, "B", 20), row(7, "g", 7)), List.of("id"));
    assertAllClosed("an upsert");
    RowEdits.on(table).delete(Expressions.lessThan("qty", 2));
    assertAllClosed("a delete");
    RowEdits.on(table).overwrite(List.of(row(9, "i", 9)), Expressions.equal("name", "c"));
    assertAllClosed("an overwrite");
    RowEdits.on(table).upsert(List.of(row(2, "BB", 22), row(4, "D", 40)), List.of("id"));
    assertAllClosed("an upsert of files with deletes");
  }

  @Test
  void appendedRowsAndTheChangelogCloseEveryFile() {
    Table table = table("changes", 2, false, "position");
    long first = table.currentSnapshot().snapshotId();
    RowEdits.on(table).append(List.of(row(7, "g", 7), row(8, "h", 8)));
    long second = table.currentSnapshot().snapshotId();

    List<Record> added = ArrowBridge.appendedRows(table, first, second, table.schema());
    assertThat(added).hasSize(2);
    assertAllClosed("reading appended rows");

    RowEdits.on(table).upsert(List.of(row(2, "B", 20)), List.of("id"));
    assertThat(Changelog.of(table).identifiedBy("id").changes()).hasSize(10);
    assertAllClosed("reading the changelog");
  }

  private Table table(String name, int formatVersion, boolean mergeOnRead, String deleteKind) {
    String mode = mergeOnRead ? "merge-on-read" : "copy-on-write";
    Table table =
        catalog.createTable(
            TableIdentifier.of("db", name),
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of(
                TableProperties.FORMAT_VERSION, String.valueOf(formatVersion),
                TableProperties.DELETE_MODE, mode,
                TableProperties.MERGE_MODE, mode,
                RowEdits.DELETE_KIND_PROPERTY, deleteKind.equals("equality") ? "equality" : "position"));
    // two data files, so that a scan moves from one file to the next
    RowEdits.on(table).append(List.of(row(1, "a", 1), row(2, "b", 2), row(3, "c", 3)));
    RowEdits.on(table).append(List.of(row(4, "d", 4), row(5, "e", 5), row(6, "f", 6)));
    assertAllClosed("appending");
    return table;
  }

  private static Record row(long id, String name, int qty) {
    GenericRecord record = GenericRecord.create(SCHEMA);
    record.set(0, id);
    record.set(1, name);
    record.set(2, qty);
    return record;
  }

  private static void assertAllClosed(String after) {
    List<Throwable> open = StreamCountingFileIO.openStreams();
    StreamCountingFileIO.forgetOpenStreams(); // one report per leak
    assertThat(open)
        .as(() -> "input streams left open after " + after + ":\n" + traces(open))
        .isEmpty();
  }

  private static String traces(List<Throwable> opened) {
    List<String> traces = new ArrayList<>();
    for (Throwable where : opened) {
      StringWriter text = new StringWriter();
      where.printStackTrace(new PrintWriter(text));
      traces.add(text.toString());
    }
    return traces.stream().collect(Collectors.joining("\n"));
  }
}
