package dev.transforms.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.singlenode.edits.UpsertResult;
import dev.transforms.singlenode.internal.plan.ReadPlanner;
import dev.transforms.singlenode.internal.plan.ReadStrategy;
import dev.transforms.singlenode.internal.plan.RewritePlanner;
import dev.transforms.singlenode.internal.plan.RewriteStrategy;
import dev.transforms.singlenode.internal.plan.StrategiesAgreeTest;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The single-node planners' strategies on object storage (issue 45): tables of Iceberg's JDBC catalog on
 * SQLite whose files are on moto's S3 server ({@link ObjectStore}, started on 127.0.0.1 by
 * {@code .ci/interop-test}), read and written through {@code S3FileIO}; PyIceberg opens the same catalog and
 * reaches the files through pyarrow's S3 file system.
 *
 * <p>Two cases. The planners' differential test ({@link StrategiesAgreeTest#everyStrategy}) on a table the
 * SDK's Java writer wrote to S3: each rewrite strategy forced in turn through deletes, an upsert, an overwrite,
 * schema changes, a compaction and a merge-on-read delete; every read strategy gives the engine's rows, every
 * data file (copied from S3) holds its metrics and page indexes, and PyIceberg reads what the engine reads
 * after each step of the page copy. And a table of three files of 450,000 rows that PyIceberg writes to S3,
 * over the size from which the rewrite planner takes the page copy unforced
 * ({@link RewritePlanner#POSITIONS_FIRST_MIN_ROWS}): a copy-on-write upsert of 1% of the rows spread over every
 * file and a delete of a 1% key range, after which the SDK's reader, Iceberg's generic reader and PyIceberg read
 * what plain Java computed ({@link UserRows}) and every file the table references is on S3 with its recorded
 * size ({@link ReferencedFiles}). Both cases must have run the page decoder and the page copy on S3's files.
 */
class ObjectStoreStrategiesInteropTest {
  private static final Namespace NAMESPACE = Namespace.of("interop");
  /** Rows of each of the large table's files: over the page copy's threshold, as users' files are. */
  private static final int FILE_ROWS = 450_000;
  private static final int FILES = 3;

  @TempDir static Path dir;
  private static String warehouse;
  private static JdbcCatalog catalog;
  private static PyIceberg py;
  private static PyIceberg.Server pyIceberg;
  private static BufferAllocator allocator;
  /** Runs PyIceberg's read beside the JVM's own. */
  private static ExecutorService reader;

  @BeforeAll
  static void start() {
    ObjectStore store = ObjectStore.configured();
    String python = PyIceberg.configuredPython();
    Assumptions.assumeTrue(python != null, "interop test skipped: no Python with PyIceberg given (.ci/interop-test)");
    String bucket = "interop-" + System.currentTimeMillis(); // a moto kept between local runs holds the last ones
    store.createBucket(bucket);
    warehouse = "s3://" + bucket + "/warehouse";
    py = new PyIceberg(python, System.getProperty("interop.script"), dir, store.pyIcebergCatalog(warehouse));
    catalog = new JdbcCatalog();
    catalog.setConf(new Configuration());
    catalog.initialize(PyIceberg.CATALOG, store.javaCatalog(py.catalogUri(), warehouse));
    catalog.createNamespace(NAMESPACE);
    pyIceberg = py.serve();
    allocator = new RootAllocator();
    reader = Executors.newSingleThreadExecutor();
  }

  @AfterAll
  static void stop() throws Exception {
    if (catalog == null) {
      return;
    }
    reader.shutdownNow();
    pyIceberg.close();
    allocator.close();
    catalog.close();
  }

  @Test
  void everyStrategyGivesTheEnginesRowsOnS3() throws Exception {
    long decoded = ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER);
    // everyStrategy's rewrites count into its own planner, each strategy forced on a copy of it
    long copied = StrategiesAgreeTest.rewritePlanner().rewrites(RewriteStrategy.PAGE_COPY);
    List<Record> rows = StrategiesAgreeTest.rows(StrategiesAgreeTest.FLAT, 0, StrategiesAgreeTest.ROWS, 0);
    StrategiesAgreeTest.everyStrategy("s3, java writer", name -> {
      Table table = catalog.createTable(TableIdentifier.of(NAMESPACE, name), StrategiesAgreeTest.FLAT,
          PartitionSpec.unpartitioned(), StrategiesAgreeTest.PROPERTIES);
      assertThat(table.io()).isInstanceOf(S3FileIO.class);
      assertThat(table.location()).startsWith(warehouse + "/");
      RowEdits.on(table).append(rows);
      return table;
    }, table -> StrategiesAgreeInteropTest.pyIcebergReadsWhatTheEngineReads(table, py, pyIceberg::run,
        allocator));
    assertThat(ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER)).as("reads the page decoder gave on S3")
        .isGreaterThan(decoded);
    assertThat(StrategiesAgreeTest.rewritePlanner().rewrites(RewriteStrategy.PAGE_COPY))
        .as("files the page copy rewrote on S3").isGreaterThan(copied);
  }

  @Test
  void copyOnWriteEditsOfLargeFilesPyIcebergWroteAreCopiedByPagesOnS3() throws Exception {
    long started = System.nanoTime();
    String name = "large_pyiceberg_files";
    Table table = catalog.createTable(TableIdentifier.of(NAMESPACE, name), UserRows.SCHEMA,
        PartitionSpec.unpartitioned(), Map.of(TableProperties.FORMAT_VERSION, "2",
            TableProperties.DELETE_MODE, "copy-on-write", TableProperties.UPDATE_MODE, "copy-on-write",
            TableProperties.MERGE_MODE, "copy-on-write"));
    UserRows rows = new UserRows(1);
    for (int file = 0; file < FILES; file++) {
      appendByPyIceberg(table, rows, (long) file * FILE_ROWS, (file + 1L) * FILE_ROWS);
    }
    table.refresh();
    List<DataFile> written = ReferencedFiles.check(table, name + " after PyIceberg's writes").dataFiles();
    assertThat(written).as("PyIceberg's files").hasSize(FILES)
        .allMatch(file -> file.location().startsWith(warehouse + "/") && file.recordCount() == FILE_ROWS);
    String loaded = seconds(started);

    // 1% of the rows updated, spread over every file, and 100 new rows
    long copies = RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY);
    List<Record> changes = new ArrayList<>();
    List<Long> updated = new ArrayList<>();
    rows.liveIds().filter(id -> id % 97 == 5).forEach(id -> {
      changes.add(rows.record(table.schema(), id, 1));
      if (!Arrays.equals(rows.current(id), rows.values(id, 1))) {
        updated.add(id);
      }
    });
    long inserted = 100;
    long first = rows.idLimit();
    for (long id = first; id < first + inserted; id++) {
      changes.add(rows.record(table.schema(), id, 1));
    }
    UpsertResult upsert = RowEdits.on(table).upsert(changes, List.of("id"));
    assertThat(List.of(upsert.rowsUpdated(), upsert.rowsInserted())).as("rows updated and inserted")
        .isEqualTo(List.of((long) updated.size(), inserted));
    updated.forEach(id -> rows.put(id, 1));
    for (long id = first; id < first + inserted; id++) {
      rows.put(id, 1);
    }
    assertThat(RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY) - copies)
        .as("files of the upsert the page copy rewrote on S3, unforced").isEqualTo(FILES);
    checkEveryReader(table, rows, name + " after the upsert");
    String upserted = seconds(started);

    // a key range of 1% of the rows across the boundary of the first two files
    copies = RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY);
    long from = FILE_ROWS - FILES * FILE_ROWS / 200;
    long to = FILE_ROWS + FILES * FILE_ROWS / 200;
    long[] deleted = rows.liveIds().filter(id -> id >= from && id < to).toArray();
    assertThat(RowEdits.on(table).delete(Expressions.and(Expressions.greaterThanOrEqual("id", from),
        Expressions.lessThan("id", to)))).as("rows deleted").isEqualTo(deleted.length);
    Arrays.stream(deleted).forEach(rows::remove);
    // the upsert's new file, under the threshold, goes to the engine's one pass
    assertThat(RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY) - copies)
        .as("files of the delete the page copy rewrote on S3, unforced").isEqualTo(2);
    checkEveryReader(table, rows, name + " after the delete");
    System.out.printf(Locale.ROOT, "large files on S3: loaded in %s s, upserted and checked by %s s, done in %s s%n",
        loaded, upserted, seconds(started));
  }

  /** PyIceberg appends the rows of ids {@code [from, to)}, version 0, in one write (one file). */
  private static void appendByPyIceberg(Table table, UserRows rows, long from, long to) throws IOException {
    Path file = dir.resolve("rows-" + from + ".arrow");
    try (VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(table.schema()), allocator);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        ArrowFileWriter ipc = new ArrowFileWriter(root, null, channel)) {
      rows.fill(root, from, to, 0);
      ipc.start();
      ipc.writeBatch();
      ipc.end();
    }
    pyIceberg.run("append", table.name().substring(table.name().lastIndexOf('.') + 1), file.toString());
    Files.delete(file);
    for (long id = from; id < to; id++) {
      rows.put(id, 0);
    }
  }

  /**
   * The files the table references, then its rows against the oracle as the SDK's reader (which must take the
   * page decoder), Iceberg's generic reader and PyIceberg (on another thread) read them.
   */
  private static void checkEveryReader(Table table, UserRows rows, String what) throws Exception {
    ReferencedFiles.check(table, what);
    String name = table.name().substring(table.name().lastIndexOf('.') + 1);
    Path exported = dir.resolve(name + "-read.arrow");
    Future<?> pyIcebergRead = reader.submit(() -> pyIceberg.run("export", name, exported.toString()));
    long decoded = ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER);
    UserRows.Check sdk = rows.check(what + ", the SDK's reader");
    try (VectorSchemaRoot root = ArrowTableReader.of(table).readAll(allocator)) {
      sdk.rows(root);
    }
    sdk.finish();
    assertThat(ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER) - decoded)
        .as("%s: reads the page decoder gave", what)
        .isEqualTo(1);
    UserRows.Check generic = rows.check(what + ", Iceberg's generic reader");
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(generic::record);
    }
    generic.finish();
    try {
      pyIcebergRead.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Error error) {
        throw error; // PyIceberg's failure, as its assertion says it
      }
      throw e;
    }
    UserRows.Check pyRead = rows.check(what + ", PyIceberg");
    try (FileChannel channel = FileChannel.open(exported, StandardOpenOption.READ);
        ArrowFileReader file = new ArrowFileReader(channel, allocator)) {
      while (file.loadNextBatch()) {
        pyRead.rows(file.getVectorSchemaRoot());
      }
    }
    Files.delete(exported);
    pyRead.finish();
  }

  private static String seconds(long startedNanos) {
    return String.format(Locale.ROOT, "%.1f", (System.nanoTime() - startedNanos) / 1e9);
  }
}
