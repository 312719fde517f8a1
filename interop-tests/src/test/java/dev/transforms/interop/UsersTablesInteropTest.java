package dev.transforms.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.maintenance.MaintenanceEngine;
import dev.transforms.runtime.maintenance.MaintenanceOptions;
import dev.transforms.runtime.maintenance.TableMaintenance;
import dev.transforms.singlenode.arrow.ArrowSchemas;
import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.arrow.ArrowTableWriter;
import dev.transforms.singlenode.edits.Compaction;
import dev.transforms.singlenode.edits.OverwriteResult;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.singlenode.edits.UpsertOptions;
import dev.transforms.singlenode.edits.UpsertResult;
import dev.transforms.singlenode.internal.duckdb.DuckDbParquetWriter;
import dev.transforms.singlenode.internal.duckdb.DuckDbWritePlan;
import dev.transforms.singlenode.internal.duckdb.RootSlices;
import dev.transforms.singlenode.internal.plan.ReadPlanner;
import dev.transforms.singlenode.internal.plan.ReadStrategy;
import dev.transforms.singlenode.internal.plan.RewritePlanner;
import dev.transforms.singlenode.internal.plan.RewriteStrategy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongPredicate;
import java.util.function.Predicate;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowLevelOperationMode;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The row edits on tables shaped like users' tables, against an oracle: tables of several data files (the
 * largest of three files of 500,000 rows, so that every size threshold of the engine's planners is crossed at
 * its real value; smaller ones force the rewrite strategies to reach the same code on small files), partitioned
 * and not, with users' columns (a long key, two strings, a date, a decimal, an int, a double, nulls in each),
 * created by the SDK or by PyIceberg and written by the SDK's Java writer, DuckDB, PyIceberg or Spark. Each goes
 * through the same program ({@link Step}): upserts (with updates that move rows between partitions, unchanged
 * rows, inserts, and inserts only), Spark's delete in the table's write mode, then the SDK's deletes of a key
 * range across two files, of scattered keys and of whole
 * files, an overwrite, an upsert and a delete through equality deletes (after a change of partitioning in some
 * tables), in copy-on-write and merge-on-read (position deletes in format v2, deletion vectors in v3), with
 * appends by the table's writer, compaction (the
 * SDK's or Spark's {@code rewrite_data_files}) and {@link TableMaintenance} (compaction, manifest rewrite,
 * snapshot expiry, orphan removal) between edits. After every step the rows are what plain Java computed
 * ({@link UserRows}) as read by the SDK's reader (each read strategy forced on the small tables), Iceberg's
 * generic reader, Spark and PyIceberg (except while equality deletes, which PyIceberg cannot read, are live),
 * and every file the table references exists with its recorded size, named once ({@link ReferencedFiles}).
 *
 * <p>3-5 minutes on two cores (idle or busy), most of it the large table. {@code -Dinterop.users-tables=NAME,...} runs
 * only the cases named.
 */
class UsersTablesInteropTest {
  private static final Namespace NAMESPACE = Namespace.of("interop");

  @TempDir static Path warehouse;
  private static JdbcCatalog catalog;
  private static PyIceberg py;
  private static PyIceberg.Server pyIceberg;
  private static SparkSession spark;
  private static BufferAllocator allocator;
  private static MaintenanceEngine engine;
  private static TableMaintenance maintenance;
  /** Runs Spark's and PyIceberg's reads beside the JVM's own. */
  private static ExecutorService readers;

  @BeforeAll
  static void start() throws IOException {
    String python = PyIceberg.configuredPython();
    Assumptions.assumeTrue(python != null, "interop test skipped: no Python with PyIceberg given (.ci/interop-test)");
    py = new PyIceberg(python, System.getProperty("interop.script"), warehouse);
    catalog = py.openCatalog();
    catalog.createNamespace(NAMESPACE);
    pyIceberg = py.serve();
    allocator = new RootAllocator();
    readers = Executors.newFixedThreadPool(2);
    spark = py.sparkSession();
    // transforms maintain's engine and rules, on the same catalog
    Path config = warehouse.resolve("transforms.properties");
    Files.writeString(config, String.join("\n",
        "warehouse=" + warehouse,
        "catalog.interop.type=jdbc",
        "catalog.interop.uri=" + py.catalogUri(),
        "catalog.interop.warehouse=" + warehouse.toUri(),
        "catalog.interop.jdbc.schema-version=V1",
        "catalog.interop.jdbc.busy_timeout=10000",
        "mount./=interop", ""));
    TransformsConfig transformsConfig = TransformsConfig.load(Optional.of(config), Optional.empty(), Map.of(), warehouse);
    engine = TableMaintenance.findEngine(UsersTablesInteropTest.class.getClassLoader(),
        Optional.of(MaintenanceEngine.SINGLE_NODE));
    engine.start(transformsConfig);
    maintenance = TableMaintenance.open(transformsConfig, engine);
  }

  @AfterAll
  static void stop() throws Exception {
    if (catalog == null) {
      return;
    }
    readers.shutdownNow();
    maintenance.close();
    engine.close();
    spark.stop();
    pyIceberg.close();
    allocator.close();
    catalog.close();
  }

  /** Who creates a table: the SDK's catalog (Java), or PyIceberg (no Parquet codec property). */
  enum Creator { JAVA, PYICEBERG }

  /** Who writes a table's files: one of the first files each, in turn, and the later append (the first). */
  enum Writer { JAVA, DUCKDB, PYICEBERG, SPARK }

  /** How a table is partitioned. */
  enum Partitioning { NONE, REGION, SIGNUP_YEAR }

  /**
   * One table shape.
   *
   * @param writers who writes each of the first files, in turn; the first also writes the later append
   * @param files the data files of the first writes (one write each)
   * @param rowsPerFile the rows of each
   * @param declinedFile the file written while the table writes snappy data pages of format version 2 (the page
   *     copy takes snappy, but declines pages of version 2), or -1
   * @param regionBlock consecutive ids of one region (before updates move some rows)
   * @param upgradeToV3 whether the table is upgraded from format v2 to v3 after its first files
   * @param mergeOnRead the write mode of its edits (one step uses the other)
   * @param forced the rewrite strategy forced on every edit (small files), or null for the planner's choice
   * @param sparkCompaction whether the mid-program compaction is Spark's {@code rewrite_data_files} (else the SDK's)
   * @param targetFileSize the table's {@code write.target-file-size-bytes}, or 0 for Iceberg's default
   * @param evolvePartitioning whether the partitioning changes after the first edits (region added to an
   *     unpartitioned table, a bucket of the id to a partitioned one), so that later edits meet files of two specs
   * @param expectedRewrites the strategies that must have rewritten files of this table
   */
  record Case(String name, Creator creator, List<Writer> writers, Partitioning partitioning, int formatVersion,
      boolean upgradeToV3, boolean mergeOnRead, int files, int rowsPerFile, int declinedFile, long regionBlock,
      RewriteStrategy forced, boolean sparkCompaction, long targetFileSize, boolean evolvePartitioning,
      List<RewriteStrategy> expectedRewrites) {
    boolean large() {
      return rowsPerFile >= RewritePlanner.POSITIONS_FIRST_MIN_ROWS;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private static final int LARGE = 500_000;
  private static final int SMALL = 12_000;

  /**
   * The cases, or those named (comma-separated) by the system property {@code interop.users-tables}, to run
   * one alone.
   */
  static List<Case> cases() {
    String only = System.getProperty("interop.users-tables", "");
    return allCases().stream().filter(c -> only.isBlank() || List.of(only.split(",")).contains(c.name())).toList();
  }

  private static List<Case> allCases() {
    return List.of(
        // every threshold at its real value: three files of 500k rows by three writers, the third of snappy pages
        // of format version 2, so that copy-on-write page-copies two and gives the third to the two lanes
        new Case("large_three_writers", Creator.JAVA, List.of(Writer.DUCKDB, Writer.PYICEBERG, Writer.SPARK),
            Partitioning.NONE, 2, false, false, 3, LARGE, 2, 1, null, false, 0, false,
            List.of(RewriteStrategy.PAGE_COPY, RewriteStrategy.ENGINE_TWO_LANES)),
        // small files, a rewrite strategy forced: partitioned by year, then also by a bucket of the id; deletion
        // vectors (rows carry lineage, so copy-on-write goes to the two lanes)
        new Case("java_writer_year_v3", Creator.JAVA, List.of(Writer.JAVA), Partitioning.SIGNUP_YEAR, 3, false,
            true, 3, SMALL, -1, 1, RewriteStrategy.PAGE_COPY, false, 0, true,
            List.of(RewriteStrategy.ENGINE_TWO_LANES)),
        // PyIceberg's own table and files, partitioned by region, position deletes; Java writes zstd there too (the
        // table has no codec property). Its
        // one copy-on-write meets equality deletes, which only the engine's one pass applies
        new Case("pyiceberg_region_v2", Creator.PYICEBERG, List.of(Writer.PYICEBERG), Partitioning.REGION, 2, false,
            true, 3, SMALL, -1, 1, RewriteStrategy.PAGE_COPY, true, 0, false,
            List.of(RewriteStrategy.ENGINE)),
        // PyIceberg's table, Spark's files (gzip: Iceberg's old default without a codec property), upgraded to v3
        new Case("pyiceberg_table_spark_files_v3", Creator.PYICEBERG, List.of(Writer.SPARK), Partitioning.NONE, 2,
            true, false, 3, SMALL, -1, 1, RewriteStrategy.ENGINE_TWO_LANES, false, 0, false,
            List.of(RewriteStrategy.ENGINE_TWO_LANES)),
        // Spark's and DuckDB's files in one table, page copy forced; a target file size of 128 KB, so that
        // rewrites and compactions roll over to several files; partitioned by region after the first edits
        new Case("spark_and_duckdb_files", Creator.JAVA, List.of(Writer.SPARK, Writer.DUCKDB), Partitioning.NONE, 2,
            false, false, 4, SMALL, -1, 1, RewriteStrategy.PAGE_COPY, true, 128 * 1024, true,
            List.of(RewriteStrategy.PAGE_COPY)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void editsGiveTheOraclesRowsToEveryReader(Case c) throws Exception {
    long started = System.nanoTime();
    long[] rewritesBefore = rewriteCounts();
    Run run = new Run(c);
    run.load();
    for (Step step : Step.values()) {
      long stepStarted = System.nanoTime();
      step.apply(run);
      run.table.refresh();
      run.checkEveryReader("after " + step);
      run.timings.put(step.name().toLowerCase(Locale.ROOT), seconds(stepStarted));
    }
    long[] rewritesAfter = rewriteCounts();
    Map<RewriteStrategy, Long> rewrites = new EnumMap<>(RewriteStrategy.class);
    for (RewriteStrategy strategy : RewriteStrategy.values()) {
      rewrites.put(strategy, rewritesAfter[strategy.ordinal()] - rewritesBefore[strategy.ordinal()]);
    }
    System.out.printf("users' table %s: %s s (%s), files rewritten by %s%n", c, seconds(started), run.timings,
        rewrites);
    for (RewriteStrategy strategy : c.expectedRewrites()) {
      assertThat(rewritesAfter[strategy.ordinal()]).as("%s: files %s rewrote", c, strategy)
          .isGreaterThan(rewritesBefore[strategy.ordinal()]);
    }
  }

  /** The program every table goes through; each step changes the oracle as it changes the table. */
  enum Step {
    /** Updates of 1% of the rows spread over every file (some moving partitions), unchanged rows, inserts. */
    UPSERT {
      @Override
      void apply(Run run) {
        run.upsert(run.mode(), 1, id -> id % 97 == 5, id -> id % 97 == 50, run.rows.liveCount() / 200,
            UpsertOptions.defaults());
      }
    },
    /**
     * Spark deletes scattered rows of the first file in the table's write mode (rewriting the file, or writing
     * position deletes or a deletion vector), so that the SDK's next edits meet Spark's deletes.
     */
    SPARK_DELETE {
      @Override
      void apply(Run run) {
        run.sparkDelete();
      }
    },
    /** A key range of 1% of the rows across the boundary of the first two files. */
    DELETE_RANGE {
      @Override
      void apply(Run run) {
        long boundary = run.c.rowsPerFile();
        long half = run.c.files() * (long) run.c.rowsPerFile() / 200;
        run.deleteRange(run.mode(), boundary - half, boundary + half);
      }
    },
    /**
     * An upsert and a delete by equality deletes (merge-on-read, delete kind equality: the join column, the
     * identifier field), which PyIceberg cannot read; where the case says so, after a change of partitioning.
     */
    EQUALITY_DELETES {
      @Override
      void apply(Run run) {
        if (run.c.evolvePartitioning()) {
          // users' partitioning changes: from here on edits meet files of two specs
          if (run.table.spec().isUnpartitioned()) {
            run.table.updateSpec().addField("region").commit();
          } else {
            run.table.updateSpec().addField(Expressions.bucket("id", 4)).commit();
          }
        }
        run.table.updateProperties().set(RowEdits.DELETE_KIND_PROPERTY, "equality").commit();
        run.upsert(RowLevelOperationMode.MERGE_ON_READ, 2, id -> id % 89 == 7, id -> false, 100,
            UpsertOptions.defaults());
        long from = run.rows.idLimit() * 2 / 3; // away from the range deleted before
        run.deleteRange(RowLevelOperationMode.MERGE_ON_READ, from, from + run.rows.liveCount() / 500);
        run.table.updateProperties().remove(RowEdits.DELETE_KIND_PROPERTY).commit();
      }
    },
    /** Scattered keys (visits = 13, about 1%), in the other write mode than the table's: over every kind of delete. */
    DELETE_SCATTERED_OTHER_MODE {
      @Override
      void apply(Run run) {
        run.delete(run.otherMode(), Expressions.equal("visits", 13), row -> Integer.valueOf(13).equals(row[5]));
      }
    },
    /** Rows of a region and half-year replaced by new versions of half of them, and new rows. */
    OVERWRITE {
      @Override
      void apply(Run run) {
        run.overwrite();
      }
    },
    /**
     * Two more writes of new rows by the table's first writer, then a delete of every row of the second, whose
     * files are removed whole, unread.
     */
    APPEND_THEN_DELETE_FILES {
      @Override
      void apply(Run run) throws IOException {
        long rows = Math.max(1_000, run.c.rowsPerFile() / 10);
        long from = run.rows.idLimit();
        run.append(run.c.writers().get(0), from, from + rows, 0);
        run.append(run.c.writers().get(0), from + rows, from + 2 * rows, 0);
        run.deleteRange(run.mode(), from + rows, from + 2 * rows);
        Map<String, String> summary = run.table.currentSnapshot().summary();
        assertThat(summary).as("%s: the delete removed the second write's files whole", run.c)
            .containsKey("deleted-data-files").doesNotContainKeys("added-data-files", "added-delete-files");
      }
    },
    /** The SDK's compaction or Spark's rewrite_data_files: applies every delete, equality deletes included. */
    COMPACT {
      @Override
      void apply(Run run) {
        run.compact();
      }
    },
    /** An upsert that only inserts: matched keys, changed or not, are left alone. */
    INSERT_ONLY_UPSERT {
      @Override
      void apply(Run run) {
        run.upsert(run.mode(), 3, id -> id % 83 == 11, id -> false, 500, UpsertOptions.skipUpdate());
      }
    },
    /** transforms maintain: compaction, manifest rewrite, expiry of every snapshot but the last, orphans deleted. */
    MAINTAIN {
      @Override
      void apply(Run run) {
        run.maintain();
      }
    },
    /** After maintenance: a range deleted and rows updated (many, then a few) in the files compaction wrote. */
    EDIT_MAINTAINED {
      @Override
      void apply(Run run) {
        long middle = run.rows.idLimit() / 2;
        long width = Math.max(100, run.rows.liveCount() / 100);
        run.deleteRange(run.mode(), middle, middle + width);
        run.upsert(run.mode(), 4, id -> id % 101 == 9, id -> false, 50, UpsertOptions.defaults());
        // a few keys, which the upsert looks for as a list rather than a range
        run.upsert(run.mode(), 6, id -> id % 3_001 == 17, id -> false, 3, UpsertOptions.defaults());
      }
    };

    abstract void apply(Run run) throws Exception;
  }

  /** One table of a case with its oracle, and the steps' edits on both. */
  private static final class Run {
    private final Case c;
    private final String name;
    private final UserRows rows;
    private final Map<String, String> timings = new LinkedHashMap<>();
    private Table table;

    Run(Case c) {
      this.c = c;
      this.name = "users_" + c.name();
      this.rows = new UserRows(c.regionBlock());
    }

    RowLevelOperationMode mode() {
      return c.mergeOnRead() ? RowLevelOperationMode.MERGE_ON_READ : RowLevelOperationMode.COPY_ON_WRITE;
    }

    RowLevelOperationMode otherMode() {
      return c.mergeOnRead() ? RowLevelOperationMode.COPY_ON_WRITE : RowLevelOperationMode.MERGE_ON_READ;
    }

    /** Creates the table and writes its first files, one write per file. */
    void load() throws Exception {
      long started = System.nanoTime();
      Map<String, String> properties = new LinkedHashMap<>();
      if (!c.large()) {
        properties.put(TableProperties.PARQUET_PAGE_ROW_LIMIT, "1000"); // many pages, so edits touch a few
      }
      if (c.targetFileSize() > 0) {
        properties.put(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, Long.toString(c.targetFileSize()));
      }
      if (c.creator() == Creator.JAVA) {
        properties.put(TableProperties.FORMAT_VERSION, Integer.toString(c.formatVersion()));
        table = catalog.createTable(TableIdentifier.of(NAMESPACE, name), UserRows.SCHEMA, spec(), properties);
      } else {
        String partition = switch (c.partitioning()) {
          case NONE -> "[]";
          case REGION -> "[[\"region\", \"identity\", null]]";
          case SIGNUP_YEAR -> "[[\"signup\", \"year\", null]]";
        };
        StringBuilder props = new StringBuilder();
        properties.forEach((k, v) -> props.append(props.length() == 0 ? "" : ", ").append('"').append(k)
            .append("\": \"").append(v).append('"'));
        Path spec = py.file(name + "-spec.json", "{\"columns\": [[\"id\", \"long\", true], [\"name\", \"string\", false],"
            + " [\"region\", \"string\", false], [\"signup\", \"date\", false], [\"balance\", \"decimal(12,2)\", false],"
            + " [\"visits\", \"int\", false], [\"score\", \"double\", false]], \"identifier\": [\"id\"],"
            + " \"partition\": " + partition + ", \"properties\": {" + props + "}}");
        pyIceberg.run("create", name, spec.toString());
        table = catalog.loadTable(TableIdentifier.of(NAMESPACE, name));
        assertThat(table.properties()).as("a table PyIceberg creates").doesNotContainKey(TableProperties.PARQUET_COMPRESSION);
      }
      for (int file = 0; file < c.files(); file++) {
        if (file == c.declinedFile()) {
          table.updateProperties().set(TableProperties.PARQUET_COMPRESSION, "snappy")
              .set(TableProperties.PARQUET_PAGE_VERSION, "v2").commit();
        }
        append(c.writers().get(file % c.writers().size()), (long) file * c.rowsPerFile(), (file + 1L) * c.rowsPerFile(),
            0);
        if (file == c.declinedFile()) {
          table.updateProperties().set(TableProperties.PARQUET_COMPRESSION, "zstd")
              .set(TableProperties.PARQUET_PAGE_VERSION, "v1").commit();
        }
      }
      if (c.upgradeToV3()) {
        table.updateProperties().set(TableProperties.FORMAT_VERSION, "3").commit();
      }
      String mode = mode().modeName();
      table.updateProperties().set(TableProperties.DELETE_MODE, mode).set(TableProperties.UPDATE_MODE, mode)
          .set(TableProperties.MERGE_MODE, mode).commit();
      ReferencedFiles.Current files = ReferencedFiles.check(table, c + " after its first writes");
      if (c.partitioning() == Partitioning.NONE) {
        assertThat(files.dataFiles()).as("%s: one data file per write", c).hasSize(c.files());
      } else {
        assertThat(files.dataFiles().size()).as("%s: data files", c).isGreaterThanOrEqualTo(c.files());
      }
      if (c.large()) {
        assertThat(files.dataFiles()).as("%s: files of %,d rows", c, c.rowsPerFile())
            .allMatch(file -> file.recordCount() >= c.rowsPerFile());
      }
      checkEveryReader("after its first writes");
      timings.put("load", seconds(started));
    }

    private PartitionSpec spec() {
      return switch (c.partitioning()) {
        case NONE -> PartitionSpec.unpartitioned();
        case REGION -> PartitionSpec.builderFor(UserRows.SCHEMA).identity("region").build();
        case SIGNUP_YEAR -> PartitionSpec.builderFor(UserRows.SCHEMA).year("signup").build();
      };
    }

    /** Appends the rows of ids {@code [from, to)} at a version, written by the case's writer, in one commit. */
    void append(Writer writer, long from, long to, int version) throws IOException {
      table.refresh();
      switch (writer) {
        case JAVA -> {
          List<DataFile> files;
          try (ArrowTableWriter java = ArrowTableWriter.builder(table).duckDbParquet(false).build()) {
            // roots under the two-lane size, so that one write is one file per partition, as users' writers give
            for (long start = from; start < to; start += 200_000) {
              try (VectorSchemaRoot root = root(start, Math.min(to, start + 200_000), version)) {
                java.write(root);
              }
            }
            files = java.complete();
          }
          commitAppend(files);
        }
        case DUCKDB -> {
          DuckDbWritePlan plan = DuckDbWritePlan.of(table, FileFormat.PARQUET).orElseThrow();
          List<DataFile> files = new ArrayList<>();
          try (VectorSchemaRoot root = root(from, to, version); RootSlices batches = RootSlices.oneBatch(allocator, root)) {
            DuckDbParquetWriter.write(plan, batches, allocator,
                () -> table.locationProvider().newDataLocation(UUID.randomUUID() + ".parquet"), Long.MAX_VALUE,
                files::add);
          }
          commitAppend(files);
        }
        case PYICEBERG -> {
          Path file = warehouse.resolve(name + "-" + from + ".arrow");
          try (VectorSchemaRoot root = root(from, to, version);
              FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
              ArrowFileWriter ipc = new ArrowFileWriter(root, null, channel)) {
            ipc.start();
            ipc.writeBatch();
            ipc.end();
          }
          pyIceberg.run("append", name, file.toString());
          Files.delete(file);
        }
        case SPARK -> {
          TableIdentifier source = TableIdentifier.of(NAMESPACE, name + "_source");
          Table staged = catalog.createTable(source, table.schema(), PartitionSpec.unpartitioned());
          try (VectorSchemaRoot root = root(from, to, version, staged)) {
            commitAppend(staged, ArrowTableWriter.builder(staged).duckDbParquet(false).build(), root);
          }
          spark.sql("INSERT INTO " + sparkName() + " SELECT " + String.join(", ", UserRows.COLUMNS) + " FROM "
              + PyIceberg.CATALOG + ".interop." + name + "_source ORDER BY id");
          catalog.dropTable(source, true);
        }
        default -> throw new IllegalStateException(writer.name());
      }
      table.refresh();
      for (long id = from; id < to; id++) {
        rows.put(id, version);
      }
    }

    private VectorSchemaRoot root(long from, long to, int version) {
      return root(from, to, version, table);
    }

    private VectorSchemaRoot root(long from, long to, int version, Table of) {
      VectorSchemaRoot root = VectorSchemaRoot.create(ArrowSchemas.toArrow(of.schema()), allocator);
      rows.fill(root, from, to, version);
      return root;
    }

    private void commitAppend(List<DataFile> files) {
      AppendFiles append = table.newAppend();
      files.forEach(append::appendFile);
      append.commit();
    }

    private static void commitAppend(Table to, ArrowTableWriter writer, VectorSchemaRoot root) {
      try (writer) {
        writer.write(root);
        AppendFiles append = to.newAppend();
        writer.complete().forEach(append::appendFile);
        append.commit();
      }
    }

    private String sparkName() {
      return PyIceberg.CATALOG + ".interop." + name;
    }

    private RowEdits edits(RowLevelOperationMode mode) {
      String value = mode.modeName();
      if (!value.equals(table.properties().get(TableProperties.DELETE_MODE))
          || !value.equals(table.properties().get(TableProperties.MERGE_MODE))) {
        table.updateProperties().set(TableProperties.DELETE_MODE, value).set(TableProperties.UPDATE_MODE, value)
            .set(TableProperties.MERGE_MODE, value).commit();
      }
      // the case's strategy, forced for every edit (null: the planner's own choice)
      return RowEdits.on(table).withPlanner(RewritePlanner.standard().forced(c.forced()));
    }

    /**
     * Upserts rows at a version: the live ids {@code updated} selects, the live ids {@code unchanged} selects at
     * the version they have (neither rewritten nor counted), and {@code inserted} new ids.
     */
    void upsert(RowLevelOperationMode mode, int version, LongPredicate updated,
        LongPredicate unchanged, long inserted, UpsertOptions options) {
      List<Record> source = new ArrayList<>();
      long[] counts = new long[2];
      List<long[]> changes = new ArrayList<>();
      rows.liveIds().forEach(id -> {
        if (updated.test(id)) {
          source.add(rows.record(table.schema(), id, version));
          if (options.whenMatchedUpdateAll() && !Arrays.equals(rows.current(id), rows.values(id, version))) {
            counts[0] += 1;
            changes.add(new long[] {id, version});
          }
        } else if (unchanged.test(id)) {
          source.add(rows.record(table.schema(), id, rows.version(id)));
        }
      });
      long first = rows.idLimit();
      for (long id = first; id < first + inserted; id++) {
        source.add(rows.record(table.schema(), id, version));
        if (options.whenNotMatchedInsertAll()) {
          counts[1] += 1;
          changes.add(new long[] {id, version});
        }
      }
      UpsertResult result = edits(mode).upsert(source, List.of("id"), options);
      assertThat(List.of(result.rowsUpdated(), result.rowsInserted())).as("%s: rows updated and inserted", c)
          .isEqualTo(List.of(counts[0], counts[1]));
      changes.forEach(change -> rows.put(change[0], (int) change[1]));
    }

    void deleteRange(RowLevelOperationMode mode, long from, long to) {
      delete(mode, Expressions.and(Expressions.greaterThanOrEqual("id", from), Expressions.lessThan("id", to)),
          row -> (Long) row[0] >= from && (Long) row[0] < to);
    }

    /** Spark's {@code DELETE} of the rows of the first file whose visits are 77. */
    void sparkDelete() {
      long[] expected = rows.matching(row -> Integer.valueOf(77).equals(row[5]) && (Long) row[0] < c.rowsPerFile())
          .toArray();
      assertThat(expected).as("%s: rows Spark's delete matches", c).isNotEmpty();
      spark.sql("DELETE FROM " + sparkName() + " WHERE visits = 77 AND id < " + c.rowsPerFile());
      for (long id : expected) {
        rows.remove(id);
      }
    }

    /** Deletes by a filter; {@code matches} is the same filter on a row's values, under SQL's nulls. */
    void delete(RowLevelOperationMode mode, Expression filter, Predicate<Object[]> matches) {
      long[] expected = rows.matching(matches).toArray();
      assertThat(expected).as("%s: rows the delete matches", c).isNotEmpty();
      long deleted = edits(mode).delete(filter);
      assertThat(deleted).as("%s: rows deleted by %s", c, filter).isEqualTo(expected.length);
      for (long id : expected) {
        rows.remove(id);
      }
    }

    /** Rows of region eu who signed up in the first half of 2019: half of them replaced, and new rows. */
    /**
     * Rows of region eu who signed up in the first half of 2019, from the middle of the first file on (so that
     * the first of them comes after the rows a one-pass rewrite holds before its first drop): half of them
     * replaced, and new rows.
     */
    void overwrite() {
      LocalDate from = LocalDate.of(2019, 1, 1);
      LocalDate to = LocalDate.of(2019, 7, 1);
      long firstId = c.rowsPerFile() / 2;
      Predicate<Object[]> matches = row -> "eu".equals(row[2]) && row[3] != null
          && !((LocalDate) row[3]).isBefore(from) && ((LocalDate) row[3]).isBefore(to) && (Long) row[0] >= firstId;
      long[] replaced = rows.matching(matches).toArray();
      assertThat(replaced).as("%s: rows the overwrite matches", c).isNotEmpty();
      int version = 5;
      long first = rows.idLimit();
      LongStream newIds = LongStream.concat(Arrays.stream(replaced).filter(id -> id % 2 == 0),
          LongStream.range(first, first + 100));
      long[] added = newIds.toArray();
      OverwriteResult result = edits(mode()).overwrite(rows.records(table.schema(), Arrays.stream(added), version),
          Expressions.and(Expressions.and(Expressions.equal("region", "eu"), Expressions.greaterThanOrEqual("id", firstId)),
              Expressions.and(Expressions.greaterThanOrEqual("signup", from.toString()),
                  Expressions.lessThan("signup", to.toString()))));
      assertThat(List.of(result.rowsDeleted(), result.rowsAppended())).as("%s: rows deleted and appended", c)
          .isEqualTo(List.of((long) replaced.length, (long) added.length));
      for (long id : replaced) {
        rows.remove(id);
      }
      for (long id : added) {
        rows.put(id, version);
      }
    }

    void compact() {
      if (c.sparkCompaction()) {
        spark.sql("CALL " + PyIceberg.CATALOG + ".system.rewrite_data_files(table => 'interop.interop." + name
            + "', options => map('rewrite-all', 'true', 'remove-dangling-deletes', 'true'))");
      } else {
        assertThat(Compaction.plan(table).run().dataFilesRewritten()).as("%s: files compacted", c).isPositive();
      }
      table.refresh();
      // nothing left to compact: no deletes, and at most one small file per partition (the SDK's compaction
      // leaves the files of earlier partition specs as they are)
      long small = (long) (0.75 * Long.parseLong(table.properties().getOrDefault(
          TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, Long.toString(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT))));
      Map<String, Integer> smallFiles = new LinkedHashMap<>();
      try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
        for (FileScanTask task : tasks) {
          if (!c.sparkCompaction() && task.spec().specId() != table.spec().specId()) {
            continue;
          }
          assertThat(task.deletes()).as("%s: deletes of %s after compaction", c, task.file().location()).isEmpty();
          if (task.file().fileSizeInBytes() < small) {
            smallFiles.merge(task.spec().partitionToPath(task.file().partition()), 1, Integer::sum);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      // Spark's bin-packing cuts files by their estimated size: at a 128 KB target the last two files of a
      // partition can both come out under three quarters of it
      int allowed = c.sparkCompaction() ? 2 : 1;
      assertThat(smallFiles.values()).as("%s: small files per partition after compaction (%s)", c, smallFiles)
          .allMatch(count -> count <= allowed);
    }

    void maintain() {
      MaintenanceOptions options = MaintenanceOptions.none().withCompact(true).withRewriteManifests(true)
          .withExpiry(Duration.ZERO, 1).withOrphans(Duration.ZERO, true, true);
      maintenance.maintain(DatasetPath.of("/interop/" + name), options, line -> { });
      table.refresh();
      assertThat(table.snapshots()).as("%s: snapshots after expiry", c).hasSize(1);
    }

    /**
     * Every reader against the oracle, and the files the table references. Spark and PyIceberg read on other
     * threads while this one reads with the SDK and Iceberg's generic reader.
     */
    void checkEveryReader(String when) throws Exception {
      String what = c + " " + when;
      ReferencedFiles.Current files = ReferencedFiles.check(table, what);
      boolean pyIcebergReads = files.deleteFiles().stream().noneMatch(f -> f.content() == FileContent.EQUALITY_DELETES);
      Path exported = warehouse.resolve(name + "-read.arrow");
      Future<?> sparkRead = readers.submit(() -> checkSpark(what + ", Spark"));
      Future<?> pyIcebergRead = pyIcebergReads ? readers.submit(() -> pyIceberg.run("export", name, exported.toString()))
          : null;
      for (ReadStrategy strategy : c.large() ? Arrays.asList((ReadStrategy) null) : Arrays.asList(ReadStrategy.values())) {
        try (VectorSchemaRoot root = ArrowTableReader.of(table).withPlanner(ReadPlanner.standard().forced(strategy))
            .readAll(allocator)) {
          UserRows.Check check = rows.check(what + ", the SDK's reader" + (strategy == null ? "" : " (" + strategy + ")"));
          check.rows(root);
          check.finish();
        }
      }
      UserRows.Check generic = rows.check(what + ", Iceberg's generic reader");
      try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
        records.forEach(generic::record);
      }
      generic.finish();
      await(sparkRead);
      if (pyIcebergRead != null) {
        await(pyIcebergRead);
        checkPyIceberg(what + ", PyIceberg", exported);
      }
    }

    /** Spark's rows, by a digest: their count and the sum of Spark's xxhash64 of each row, against the oracle's. */
    private void checkSpark(String what) {
      List<String> columns = UserRows.COLUMNS;
      Row digest = spark.sql("SELECT count(*), sum(cast(xxhash64(" + String.join(", ", columns)
          + ") AS decimal(38, 0))) FROM " + sparkName()).first();
      long count = digest.getLong(0);
      BigInteger sum = digest.isNullAt(1) ? BigInteger.ZERO : digest.getDecimal(1).toBigIntegerExact();
      BigInteger expected = rows.sparkDigest();
      if (count == rows.liveCount() && sum.equals(expected)) {
        return;
      }
      // the digests differ: compare every row, for a message naming them
      UserRows.Check check = rows.check(what);
      Iterator<Row> read = spark.sql("SELECT " + String.join(", ", columns) + " FROM " + sparkName()).toLocalIterator();
      while (read.hasNext()) {
        Row row = read.next();
        Object[] values = new Object[columns.size()];
        for (int i = 0; i < values.length; i++) {
          values[i] = UserRows.normalize(columns.get(i), row.get(i));
        }
        check.row(values);
      }
      check.finish();
      throw new AssertionError(what + ": Spark's digest (" + count + " rows, " + sum + ") differs from the oracle's ("
          + rows.liveCount() + " rows, " + expected + "), but every row compares equal");
    }

    /** PyIceberg's rows, as it exported them to an Arrow file. */
    private void checkPyIceberg(String what, Path file) throws IOException {
      UserRows.Check check = rows.check(what);
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
          ArrowFileReader reader = new ArrowFileReader(channel, allocator)) {
        while (reader.loadNextBatch()) {
          check.rows(reader.getVectorSchemaRoot());
        }
      }
      Files.delete(file);
      check.finish();
    }
  }

  /** Waits for a reader on another thread; its failure is this one's. */
  private static void await(Future<?> read) throws Exception {
    try {
      read.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw (Exception) e.getCause();
    }
  }

  private static long[] rewriteCounts() {
    long[] counts = new long[RewriteStrategy.values().length];
    for (RewriteStrategy strategy : RewriteStrategy.values()) {
      counts[strategy.ordinal()] = RewritePlanner.standard().rewrites(strategy);
    }
    return counts;
  }

  private static String seconds(long startedNanos) {
    return String.format(Locale.ROOT, "%.1f", (System.nanoTime() - startedNanos) / 1e9);
  }
}
