package dev.transforms.singlenode.internal.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.edits.RowEdits;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The planners' native strategies on files that are not local: tables whose {@code FileIO} reads only
 * through streams, as object storage is read ({@link RemoteLikeFileIO}). The page decoder and the page
 * copy must take them, give the engine's rows, and read each file in a few requests.
 */
class RemoteFilesTest {

  @TempDir static Path dir;

  private static JdbcCatalog catalog;
  private static final BufferAllocator allocator = new RootAllocator();

  @BeforeAll
  static void open() {
    catalog = new JdbcCatalog();
    catalog.initialize("remote", Map.of(
        CatalogProperties.URI, "jdbc:sqlite:" + dir.resolve("catalog.db"),
        CatalogProperties.WAREHOUSE_LOCATION, RemoteLikeFileIO.location(dir.resolve("warehouse").toFile()),
        CatalogProperties.FILE_IO_IMPL, RemoteLikeFileIO.class.getName(),
        "jdbc.schema-version", "V1"));
    catalog.createNamespace(Namespace.of("db"));
  }

  @AfterAll
  static void close() throws Exception {
    catalog.close();
    allocator.close();
  }

  private static Table create(String name, Schema schema, Map<String, String> properties) {
    return catalog.buildTable(TableIdentifier.of("db", name), schema).withPartitionSpec(PartitionSpec.unpartitioned())
        .withProperties(properties).create();
  }

  @Test
  void everyStrategyRunsOnRemoteFilesAndGivesTheEnginesRows() throws Exception {
    StrategiesAgreeTest.everyStrategy("remote files", name -> {
      Table table = create(name, StrategiesAgreeTest.FLAT, StrategiesAgreeTest.PROPERTIES);
      assertThat(table.location()).startsWith(RemoteLikeFileIO.SCHEME);
      RowEdits.on(table).append(StrategiesAgreeTest.rows(StrategiesAgreeTest.FLAT, 0, StrategiesAgreeTest.ROWS, 0));
      return table;
    }, table -> { });
  }

  @Test
  void aReadOfManyRemoteFilesTakesAFewRequestsAFile() throws Exception {
    Table table = create("many", StrategiesAgreeTest.FLAT, Map.of(TableProperties.FORMAT_VERSION, "2"));
    int files = 6;
    for (int f = 0; f < files; f++) {
      RowEdits.on(table).append(StrategiesAgreeTest.rows(StrategiesAgreeTest.FLAT, f * 5_000L, (f + 1) * 5_000L, 0));
    }
    table.refresh();
    List<String> engine;
    try (VectorSchemaRoot root = ArrowTableReader.of(table).withNativeReads(false).readAll(allocator)) {
      engine = StrategiesAgreeTest.text(root);
    }
    long decoded = ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER);
    long reads = RemoteLikeFileIO.READS.get();
    List<String> decoder;
    try (VectorSchemaRoot root = ArrowTableReader.of(table).readAll(allocator)) {
      decoder = StrategiesAgreeTest.text(root);
    }
    long requests = RemoteLikeFileIO.READS.get() - reads;

    assertThat(ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER)).as("the page decoder read")
        .isEqualTo(decoded + 1);
    StrategiesAgreeTest.assertSameRows(decoder, engine, "the page decoder's rows of remote files");
    assertThat(decoder).hasSize(files * 5_000 + 1); // and the schema
    // a file: the footer's end, then its column chunks in one range (small files); and the scan's manifest
    // list and its manifest of each append, read through the same file IO
    assertThat(requests).as("requests of the read").isLessThanOrEqualTo(2L * files + (files + 1) + 1);
  }

  @Test
  void anUpsertSpreadOverARemoteFileFetchesItOnceForTheProbeAndThePageCopy() throws Exception {
    Table table = create("spread", StrategiesAgreeTest.FLAT, Map.of(TableProperties.FORMAT_VERSION, "2",
        TableProperties.UPDATE_MODE, "copy-on-write", TableProperties.MERGE_MODE, "copy-on-write",
        TableProperties.PARQUET_PAGE_ROW_LIMIT, "500"));
    RowEdits.on(table).append(StrategiesAgreeTest.rows(StrategiesAgreeTest.FLAT, 0, 12_000, 0));
    List<Record> changes = new ArrayList<>();
    for (Record row : StrategiesAgreeTest.rows(StrategiesAgreeTest.FLAT, 0, 12_000, 1)) {
      if ((Long) row.getField("id") % 97 == 3) { // in every page
        changes.add(row);
      }
    }
    long copies = RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY);
    long reads = RemoteLikeFileIO.READS.get();
    assertThat(RowEdits.on(table).withPlanner(RewritePlanner.standard().forced(RewriteStrategy.PAGE_COPY))
        .upsert(changes, List.of("id")).rowsUpdated()).isEqualTo(changes.size());
    long requests = RemoteLikeFileIO.READS.get() - reads;

    assertThat(RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY) - copies).isEqualTo(1);
    // the data file: its footer's end and its chunks, each once (not a request for each page a reader
    // moves to); the table's metadata, manifest list and manifest, read to plan and to commit
    assertThat(requests).as("requests of the upsert").isLessThanOrEqualTo(12);
    table.refresh();
    try (VectorSchemaRoot root = ArrowTableReader.of(table).withNativeReads(false).readAll(allocator)) {
      assertThat(root.getRowCount()).isEqualTo(12_000);
    }
  }

  @Test
  void aCopyOnWriteDeleteOfRemoteFilesCopiesTheirPages() throws Exception {
    Table table = create("cow", StrategiesAgreeTest.FLAT, Map.of(TableProperties.FORMAT_VERSION, "2",
        TableProperties.DELETE_MODE, "copy-on-write", TableProperties.PARQUET_PAGE_ROW_LIMIT, "500"));
    List<Record> rows = new ArrayList<>();
    for (int f = 0; f < 3; f++) {
      List<Record> file = StrategiesAgreeTest.rows(StrategiesAgreeTest.FLAT, f * 4_000L, (f + 1) * 4_000L, 0);
      RowEdits.on(table).append(file);
      rows.addAll(file);
    }
    long copies = RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY);
    assertThat(RowEdits.on(table).withPlanner(RewritePlanner.standard().forced(RewriteStrategy.PAGE_COPY))
        .delete("id >= 3990 and id < 4010")).isEqualTo(20);
    assertThat(RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY) - copies).as("files page-copied")
        .isEqualTo(2);
    table.refresh();
    try (VectorSchemaRoot root = ArrowTableReader.of(table).withNativeReads(false).readAll(allocator)) {
      assertThat(root.getRowCount()).isEqualTo(rows.size() - 20);
    }
    assertThat(WrittenFileCheck.dataFiles(table)).hasSize(3);
  }

  /**
   * A file the page copy writes into an unpartitioned table lies in the table's data folder, named as
   * Iceberg's writers name files: no empty segment between the folder and the name. Local file systems
   * read {@code data//name} as {@code data/name}; on object storage it is another key, which pyarrow's S3
   * file system (so PyIceberg) refuses ("Empty path component") and other readers that normalize paths do
   * not find.
   */
  @Test
  void aPageCopiedFileOfAnUnpartitionedTableIsInItsDataFolder() throws Exception {
    Table table = create("named", StrategiesAgreeTest.FLAT, Map.of(TableProperties.FORMAT_VERSION, "2",
        TableProperties.DELETE_MODE, "copy-on-write"));
    RowEdits.on(table).append(StrategiesAgreeTest.rows(StrategiesAgreeTest.FLAT, 0, 4_000, 0));
    String folder = WrittenFileCheck.dataFiles(table).iterator().next().replaceFirst("/[^/]*$", "/");
    long copies = RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY);
    assertThat(RowEdits.on(table).withPlanner(RewritePlanner.standard().forced(RewriteStrategy.PAGE_COPY))
        .delete("id >= 100 and id < 120")).isEqualTo(20);
    assertThat(RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY) - copies).as("files page-copied")
        .isEqualTo(1);
    table.refresh();
    String written = WrittenFileCheck.dataFiles(table).iterator().next();
    assertThat(written).as("the page copy's file").endsWith("-data-rewrite.parquet");
    assertThat(written.substring(0, written.lastIndexOf('/') + 1)).as("the folder of %s", written).isEqualTo(folder);
  }
}
