package dev.transforms.singlenode.internal.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.transforms.singlenode.arrow.ArrowRecords;
import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.arrow.ArrowTableWriter;
import dev.transforms.singlenode.edits.Compaction;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.singlenode.edits.RowEditsTables;
import dev.transforms.singlenode.internal.duckdb.DuckDbLibrary;
import dev.transforms.singlenode.internal.duckdb.DuckDbParquetWriter;
import dev.transforms.singlenode.internal.duckdb.DuckDbWritePlan;
import dev.transforms.singlenode.internal.duckdb.RootSlices;
import dev.transforms.singlenode.internal.read.PageDecoderRead;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The differential test of the two planners: generated tables of every primitive type the engine reads
 * (nulls, NaN, -0.0, infinities, extremes, long and non-ASCII strings) and of nested columns, written by
 * the SDK's Java writer and by DuckDB's, go through deletes (a run of keys and scattered rows), an upsert,
 * an overwrite, schema evolution (rename, add, widen), a compaction and a merge-on-read delete, once with
 * each rewrite strategy forced. After every step each read strategy, forced in turn, must give the
 * engine's root; every rewrite strategy must leave the rows the engine's own rewrite leaves; and every
 * data file must read back through Iceberg's generic reader with its metrics and page indexes true to
 * its values ({@link WrittenFileCheck}).
 */
public class StrategiesAgreeTest {

  /** Every primitive type the page decoder and page copy take, with the columns the steps use. */
  public static final Schema FLAT = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "flag", Types.BooleanType.get()),
      Types.NestedField.optional(3, "small", Types.IntegerType.get()),
      Types.NestedField.optional(4, "big", Types.LongType.get()),
      Types.NestedField.optional(5, "ratio", Types.FloatType.get()),
      Types.NestedField.optional(6, "measure", Types.DoubleType.get()),
      Types.NestedField.optional(7, "price", Types.DecimalType.of(9, 2)),
      Types.NestedField.optional(8, "amount", Types.DecimalType.of(18, 4)),
      Types.NestedField.optional(9, "wide", Types.DecimalType.of(38, 6)),
      Types.NestedField.optional(10, "day", Types.DateType.get()),
      Types.NestedField.optional(12, "local_ts", Types.TimestampType.withoutZone()),
      Types.NestedField.optional(13, "instant", Types.TimestampType.withZone()),
      Types.NestedField.optional(14, "text", Types.StringType.get()),
      Types.NestedField.optional(15, "blob", Types.BinaryType.get()),
      Types.NestedField.optional(17, "narrow", Types.IntegerType.get()),
      Types.NestedField.optional(18, "single", Types.FloatType.get()));

  /**
   * The primitive types Arrow C++ and DuckDB hand over otherwise than the engine (so only DuckDB's
   * rewrite and the engine's strategies take them), with the columns the steps use.
   */
  static final Schema TIME_AND_UUID = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "flag", Types.BooleanType.get()),
      Types.NestedField.optional(11, "clock", Types.TimeType.get()),
      Types.NestedField.optional(16, "uid", Types.UUIDType.get()),
      Types.NestedField.optional(14, "text", Types.StringType.get()),
      Types.NestedField.optional(17, "narrow", Types.IntegerType.get()),
      Types.NestedField.optional(18, "single", Types.FloatType.get()));

  static final Schema NESTED = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "point", Types.StructType.of(
          Types.NestedField.optional(3, "x", Types.IntegerType.get()),
          Types.NestedField.optional(4, "label", Types.StringType.get()))),
      Types.NestedField.optional(5, "tags", Types.ListType.ofOptional(6, Types.LongType.get())),
      Types.NestedField.optional(7, "code", Types.FixedType.ofLength(4)));

  /** The rows of a table's first files: ids 0 to {@value} (not included), which the steps expect. */
  public static final int ROWS = 12_000;

  /** The properties of every table here: format 2, small pages (so that edits touch a few of many). */
  public static final Map<String, String> PROPERTIES = Map.of(TableProperties.FORMAT_VERSION, "2",
      TableProperties.PARQUET_PAGE_ROW_LIMIT, "500");

  /**
   * Who writes the table's first files: the SDK's Java writer, DuckDB, and the Java writer's files
   * stripped of their page index (as pyarrow, so PyIceberg, writes files; interop-tests has PyIceberg and
   * Spark write them).
   */
  enum Writer { JAVA, DUCKDB, NO_PAGE_INDEX }

  @TempDir static Path dir;

  /** The Arrow memory of every read here; created with the class, so that other modules' tests may run the steps. */
  private static final BufferAllocator allocator = new RootAllocator();

  /** The planner of every rewrite here, whose counters are this class's alone. */
  private static final RewritePlanner REWRITES = new RewritePlanner();
  private static final Map<ReadStrategy, Long> READS_BEFORE = new EnumMap<>(ReadStrategy.class);

  /**
   * The planner {@link #everyStrategy} rewrites through (a copy forcing each strategy in turn counts here), for
   * other modules' tests that check which strategies ran.
   */
  public static RewritePlanner rewritePlanner() {
    return REWRITES;
  }

  @BeforeAll
  static void start() {
    for (ReadStrategy strategy : ReadStrategy.values()) {
      READS_BEFORE.put(strategy, ReadPlanner.standard().reads(strategy));
    }
  }

  @AfterAll
  static void stop() {
    allocator.close();
  }

  static List<Arguments> writersAndSchemas() {
    return List.of(Arguments.of(Writer.JAVA, "common"), Arguments.of(Writer.DUCKDB, "common"),
        Arguments.of(Writer.NO_PAGE_INDEX, "common"), Arguments.of(Writer.JAVA, "time and uuid"),
        Arguments.of(Writer.DUCKDB, "time and uuid"));
  }

  @ParameterizedTest(name = "first files written by the {0} writer, {1} types")
  @MethodSource("writersAndSchemas")
  void everyStrategyGivesTheEnginesRows(Writer writer, String types) throws Exception {
    Schema schema = types.equals("common") ? FLAT : TIME_AND_UUID;
    assumeTrue(writer == Writer.JAVA || DuckDbLibrary.present(), "DuckDB is on the class path");
    everyStrategy(writer + " writer, " + types, name -> {
      Table table = RowEditsTables.create(dir, name, schema, PartitionSpec.unpartitioned(), 2, false, PROPERTIES);
      write(table, writer, rows(schema, 0, ROWS, 0));
      return table;
    }, table -> { });
    assertThat(rewrites(RewriteStrategy.ENGINE)).as("the engine rewrote files").isPositive();
    assertThat(rewrites(RewriteStrategy.ENGINE_TWO_LANES)).as("the engine's two lanes rewrote files").isPositive();
    assertThat(reads(ReadStrategy.ENGINE)).as("the engine read").isPositive();
    // the DuckDB writer's files carry no page index: page copy walks their page headers
    assertThat(rewrites(RewriteStrategy.PAGE_COPY)).as("page copy rewrote files").isPositive();
    assertThat(reads(ReadStrategy.PAGE_DECODER)).as("the page decoder read").isPositive();
  }

  /**
   * The differential test: on a fresh table per rewrite strategy forced, every {@link Step}; after each
   * step every read strategy forced in turn must give the engine's rows and every data file must hold its
   * metrics and, where the SDK wrote it, a page index ({@link #checkedState}); each strategy must leave
   * the rows the engine's own rewrite leaves.
   *
   * @param what the writer and the types, for failure messages
   * @param table creates a table of the given name and fills it with {@link #rows} 0 to {@link #ROWS}
   * @param afterEachStep a check of the table after each step, such as another reader's
   * @throws Exception if a step or a check fails
   */
  public static void everyStrategy(String what, Function<String, Table> table, Consumer<Table> afterEachStep)
      throws Exception {
    List<List<String>> reference = null;
    for (RewriteStrategy strategy : List.of(RewriteStrategy.ENGINE, RewriteStrategy.ENGINE_TWO_LANES,
        RewriteStrategy.PAGE_COPY)) {
      Table written = table.apply(what.replaceAll("[^A-Za-z0-9]+", "_").toLowerCase(java.util.Locale.ROOT) + "_"
          + strategy.name().toLowerCase(java.util.Locale.ROOT));
      Set<String> foreign = WrittenFileCheck.dataFiles(written);
      List<List<String>> states = new ArrayList<>();
      long rewrites = REWRITES.rewrites(strategy);
      long decoded = ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER);
      RewritePlanner forced = REWRITES.forced(strategy);
      for (Step step : Step.values()) {
        step.apply(written, forced);
        written.refresh();
        states.add(checkedState(written, what + ", " + strategy + ", after " + step, foreign));
        afterEachStep.accept(written);
      }
      // a strategy that declines hands the file on: each must have run on these files
      assertThat(REWRITES.rewrites(strategy)).as("%s: files %s rewrote", what, strategy).isGreaterThan(rewrites);
      assertThat(ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER)).as("%s: reads the page decoder gave", what)
          .isGreaterThan(decoded);
      if (reference == null) {
        reference = states;
      } else {
        for (int i = 0; i < states.size(); i++) {
          assertSameRows(states.get(i), reference.get(i),
              "rows after " + Step.values()[i] + " with " + strategy + " forced, against the engine's rewrite");
        }
      }
    }
  }

  @Test
  void nestedColumnsStayWithTheEngine() throws Exception {
    Table table = RowEditsTables.create(dir, "nested", NESTED, PartitionSpec.unpartitioned(), 2, false, Map.of());
    List<Record> rows = rows(NESTED, 0, 3_000, 0);
    RowEdits.on(table).append(rows);
    for (ReadStrategy strategy : ReadStrategy.values()) {
      ReadPlan plan = ReadPlanner.standard().forced(strategy).plan(table.newScan(), table.schema(), true,
          PageDecoderRead.INSTANCE);
      assertThat(plan.strategy()).as("the plan of a read with %s forced", strategy).isEqualTo(ReadStrategy.ENGINE);
      assertThat(plan.reason()).contains(strategy == ReadStrategy.ENGINE ? "forced" : "point");
    }
    List<String> before = checkedState(table, "nested");
    assertThat(before).hasSize(3_000);
    for (RewriteStrategy strategy : RewriteStrategy.values()) {
      long dropped = RowEdits.on(table).withPlanner(REWRITES.forced(strategy))
          .delete("id >= " + (100 * strategy.ordinal()) + " and id < " + (100 * strategy.ordinal() + 10));
      assertThat(dropped).as("rows %s deleted", strategy).isEqualTo(10);
      table.refresh();
      checkedState(table, "nested, after a delete with " + strategy + " forced");
    }
    assertThat(checkedState(table, "nested")).hasSize(3_000 - 10 * RewriteStrategy.values().length);
  }

  @Test
  void aRenamedColumnIsReadByItsFieldIdByThePageDecoder() throws Exception {
    Table table = RowEditsTables.create(dir, "renamed", FLAT, PartitionSpec.unpartitioned(), 2, false, Map.of());
    write(table, Writer.JAVA, rows(FLAT, 0, 1_000, 0));
    table.updateSchema().renameColumn("text", "label").renameColumn("measure", "text").commit();
    List<String> engine;
    try (VectorSchemaRoot root = ArrowTableReader.of(table).withNativeReads(false).readAll(allocator)) {
      engine = text(root);
    }
    assertThat(engine.get(0)).contains("\"label\"");
    ReadPlan plan = ReadPlanner.standard().plan(table.newScan(), table.schema(), true, PageDecoderRead.INSTANCE);
    assertThat(plan.strategy()).as(plan.reason()).isEqualTo(ReadStrategy.PAGE_DECODER);
    long before = ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER);
    try (VectorSchemaRoot root = ArrowTableReader.of(table).readAll(allocator)) {
      assertSameRows(text(root), engine, "the rows the page decoder read after two renames");
    }
    assertThat(ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER)).as("the page decoder read them")
        .isEqualTo(before + 1);
  }

  @Test
  void aMergeOnReadSnapshotIsReadNativelyWithItsDeletesAppliedAfterDecoding() throws Exception {
    Table table = RowEditsTables.create(dir, "merge_on_read", FLAT, PartitionSpec.unpartitioned(), 2, false,
        Map.of(TableProperties.DELETE_MODE, "merge-on-read", TableProperties.UPDATE_MODE, "merge-on-read",
            TableProperties.MERGE_MODE, "merge-on-read"));
    write(table, Writer.JAVA, rows(FLAT, 0, 2_000, 0));
    write(table, Writer.JAVA, rows(FLAT, 2_000, 4_000, 0));
    assertThat(RowEdits.on(table).delete("id >= 1990 and id < 2010")).isEqualTo(20);
    assertThat(RowEdits.on(table).delete("id < 1000 and flag = true")).isPositive();
    RowEdits.on(table).upsert(rows(FLAT, 3_000, 3_010, 1), List.of("id"));
    table.refresh();
    ReadPlan plan = ReadPlanner.standard().plan(table.newScan(), table.schema(), true, PageDecoderRead.INSTANCE);
    assertThat(plan.strategy()).as(plan.reason()).isEqualTo(ReadStrategy.PAGE_DECODER);
    assertThat(plan.reason()).contains("deletes applied after decoding (");
    checkedState(table, "merge-on-read deletes and upsert");
  }

  /** The steps every table goes through, each forced rewrite strategy in turn. */
  public enum Step {
    DELETE_A_RUN {
      @Override
      void apply(Table table, RewritePlanner planner) {
        assertThat(RowEdits.on(table).withPlanner(planner).delete("id >= 600 and id < 800")).isEqualTo(200);
      }
    },
    DELETE_SCATTERED {
      @Override
      void apply(Table table, RewritePlanner planner) {
        assertThat(RowEdits.on(table).withPlanner(planner).delete("id >= 2000 and id < 3000 and flag = true"))
            .isPositive();
      }
    },
    UPSERT {
      @Override
      void apply(Table table, RewritePlanner planner) {
        List<Record> changes = rows(table.schema(), 4_000, 4_200, 1);
        changes.addAll(rows(table.schema(), ROWS, ROWS + 100, 1));
        assertThat(RowEdits.on(table).withPlanner(planner).upsert(changes, List.of("id")).rowsInserted())
            .isEqualTo(100);
      }
    },
    OVERWRITE {
      @Override
      void apply(Table table, RewritePlanner planner) {
        RowEdits.on(table).withPlanner(planner).overwrite(rows(table.schema(), 5_000, 5_050, 2),
            Expressions.and(Expressions.greaterThanOrEqual("id", 5_000L), Expressions.lessThan("id", 5_100L)));
      }
    },
    EVOLVE_THEN_DELETE {
      @Override
      void apply(Table table, RewritePlanner planner) {
        table.updateSchema().renameColumn("text", "label").addColumn("note", Types.StringType.get())
            .updateColumn("narrow", Types.LongType.get()).updateColumn("single", Types.DoubleType.get()).commit();
        assertThat(RowEdits.on(table).withPlanner(planner).delete("id >= 7000 and id < 7100")).isEqualTo(100);
      }
    },
    COMPACT {
      @Override
      void apply(Table table, RewritePlanner planner) {
        Compaction.plan(table).run();
      }
    },
    MERGE_ON_READ_DELETE {
      @Override
      void apply(Table table, RewritePlanner planner) {
        table.updateProperties().set(TableProperties.DELETE_MODE, "merge-on-read").commit();
        assertThat(RowEdits.on(table).withPlanner(planner).delete("id >= 9000 and id < 9100")).isEqualTo(100);
      }
    };

    abstract void apply(Table table, RewritePlanner planner);
  }

  /**
   * Reads the table with every read strategy forced in turn, checks each root is the engine's, checks
   * every data file against its metrics and page indexes, and returns the rows as text, sorted by id.
   */
  private static List<String> checkedState(Table table, String what) throws Exception {
    return checkedState(table, what, Set.of());
  }

  private static List<String> checkedState(Table table, String what, Set<String> foreign) throws Exception {
    List<String> engine;
    try (VectorSchemaRoot root = ArrowTableReader.of(table).withNativeReads(false).readAll(allocator)) {
      engine = text(root);
    }
    // every column, and every other one (a projection)
    List<String> common = new ArrayList<>();
    for (int c = 0; c < table.schema().columns().size(); c += 2) {
      common.add(table.schema().columns().get(c).name());
    }
    List<String> engineCommon;
    try (VectorSchemaRoot root = ArrowTableReader.of(table).select(common).withNativeReads(false).readAll(allocator)) {
      engineCommon = text(root);
    }
    for (ReadStrategy strategy : ReadStrategy.values()) {
      ReadPlanner forced = ReadPlanner.standard().forced(strategy);
      try (VectorSchemaRoot all = ArrowTableReader.of(table).withPlanner(forced).readAll(allocator);
          VectorSchemaRoot some = ArrowTableReader.of(table).select(common).withPlanner(forced).readAll(allocator)) {
        assertSameRows(text(all), engine, what + ": the rows " + strategy + " read");
        assertSameRows(text(some), engineCommon, what + ": the rows " + strategy + " read of " + common);
      }
    }
    WrittenFileCheck.everyDataFile(table, what, foreign);
    List<String> sorted = new ArrayList<>(engine.subList(1, engine.size()));
    sorted.sort(Comparator.comparingLong(line -> Long.parseLong(line.substring(0, line.indexOf('\t')))));
    return sorted;
  }

  /** Fails naming the first row that differs, with both versions of it, rather than printing every row. */
  static void assertSameRows(List<String> actual, List<String> expected, String what) {
    for (int i = 0; i < Math.min(actual.size(), expected.size()); i++) {
      assertThat(actual.get(i)).as("%s: line %d (the first is the schema)", what, i).isEqualTo(expected.get(i));
    }
    assertThat(actual.size()).as("%s: lines", what).isEqualTo(expected.size());
  }

  /** A header line of the fields (names, types, field ids), then one line per row, every value as text. */
  static List<String> text(VectorSchemaRoot root) {
    List<String> lines = new ArrayList<>();
    lines.add(root.getSchema().toJson());
    for (int row = 0; row < root.getRowCount(); row++) {
      StringBuilder line = new StringBuilder();
      for (FieldVector vector : root.getFieldVectors()) {
        Object value = vector.getObject(row);
        line.append(value instanceof byte[] bytes ? java.util.Arrays.toString(bytes) : String.valueOf(value))
            .append('\t');
      }
      lines.add(line.toString());
    }
    return lines;
  }

  private static void write(Table table, Writer writer, List<Record> records) {
    try (VectorSchemaRoot root = ArrowRecords.toRoot(records, table.schema(), allocator)) {
      List<DataFile> files = new ArrayList<>();
      if (writer != Writer.DUCKDB) {
        try (ArrowTableWriter java = ArrowTableWriter.builder(table).duckDbParquet(false).build()) {
          java.write(root);
          files.addAll(java.complete());
        }
        if (writer == Writer.NO_PAGE_INDEX) {
          files.replaceAll(file -> DataFiles.builder(table.spec()).copy(file).withFileSizeInBytes(
              WrittenFileCheck.stripPageIndex(DirectScan.localPath(file.location()).orElseThrow())).build());
        }
      } else {
        DuckDbWritePlan plan = DuckDbWritePlan.of(table, FileFormat.PARQUET).orElseThrow();
        try (RootSlices batches = RootSlices.oneBatch(allocator, root)) {
          DuckDbParquetWriter.write(plan, batches, allocator,
              () -> table.locationProvider().newDataLocation(UUID.randomUUID() + ".parquet"), Long.MAX_VALUE,
              files::add);
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
      AppendFiles append = table.newAppend();
      files.forEach(append::appendFile);
      append.commit();
    }
  }

  /**
   * Rows {@code [from, to)} of a schema; {@code version} changes every value but the id. Values cycle
   * through nulls, NaN, -0.0, infinities, the extremes of each type, long and non-ASCII strings.
   */
  public static List<Record> rows(Schema schema, long from, long to, int version) {
    List<Record> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      GenericRecord row = GenericRecord.create(schema);
      for (Types.NestedField column : schema.columns()) {
        boolean isNull = column.isOptional() && (id + column.fieldId() + version) % 11 == 0;
        Object value = column.fieldId() == 1 ? (Object) id : isNull ? null : value(column.type(), id, version);
        row.setField(column.name(), value);
      }
      rows.add(row);
    }
    return rows;
  }

  private static Object value(Type type, long id, int version) {
    long v = id * 7919 + version * 104_729L;
    int pick = (int) Math.floorMod(v, 97);
    return switch (type.typeId()) {
      case LONG -> pick == 0 ? Long.MIN_VALUE : pick == 1 ? Long.MAX_VALUE : v - 500_000;
      case BOOLEAN -> (id + version) % 2 == 0;
      case INTEGER -> pick == 0 ? Integer.MIN_VALUE : pick == 1 ? Integer.MAX_VALUE : (int) (v % 100_000) - 50_000;
      case FLOAT -> pick == 0 ? Float.NaN : pick == 1 ? -0.0f : pick == 2 ? Float.POSITIVE_INFINITY
          : pick == 3 ? Float.NEGATIVE_INFINITY : pick == 4 ? 0.0f : (float) (v % 10_000) / 7;
      case DOUBLE -> pick == 0 ? Double.NaN : pick == 1 ? -0.0 : pick == 2 ? Double.MAX_VALUE
          : pick == 3 ? -Double.MAX_VALUE : pick == 4 ? 0.0 : v / 3.0 - 1e6;
      case DECIMAL -> {
        Types.DecimalType decimal = (Types.DecimalType) type;
        BigDecimal max = BigDecimal.TEN.pow(decimal.precision()).subtract(BigDecimal.ONE).movePointLeft(decimal.scale());
        yield pick == 0 ? max : pick == 1 ? max.negate() : BigDecimal.valueOf(v - 400_000, decimal.scale());
      }
      case DATE -> pick == 0 ? LocalDate.of(1, 1, 1) : pick == 1 ? LocalDate.of(9999, 12, 31)
          : LocalDate.of(1970, 1, 1).plusDays(v % 40_000 - 20_000);
      case TIME -> pick == 0 ? LocalTime.MIN : pick == 1 ? LocalTime.of(23, 59, 59, 999_999_000)
          : LocalTime.ofSecondOfDay(Math.floorMod(v, 86_400));
      case TIMESTAMP -> {
        LocalDateTime at = LocalDateTime.of(2026, 1, 1, 0, 0).plusSeconds(v % 100_000_000 - 50_000_000)
            .plusNanos(pick * 1000L);
        yield ((Types.TimestampType) type).shouldAdjustToUTC() ? at.atOffset(ZoneOffset.UTC) : at;
      }
      case STRING -> pick == 0 ? "" : pick == 1 ? "ü€😀 näme 日本 ".repeat(40) + id
          : pick == 2 ? "x".repeat(300) + id : "näme " + v;
      case BINARY -> ByteBuffer.wrap(pick == 0 ? new byte[0] : ("b" + v).repeat(pick % 5 + 1)
          .getBytes(StandardCharsets.UTF_8));
      case UUID -> new UUID(v, ~v);
      case FIXED -> new byte[] {(byte) v, (byte) (v >> 8), (byte) pick, (byte) version};
      case STRUCT -> {
        GenericRecord struct = GenericRecord.create(type.asStructType());
        struct.setField("x", pick == 0 ? null : (int) (v % 1000));
        struct.setField("label", "p" + v);
        yield struct;
      }
      case LIST -> pick == 0 ? List.of() : List.of(v, -v, id);
      default -> throw new IllegalArgumentException("No values for " + type);
    };
  }

  private static long rewrites(RewriteStrategy strategy) {
    return REWRITES.rewrites(strategy);
  }

  private static long reads(ReadStrategy strategy) {
    return ReadPlanner.standard().reads(strategy) - READS_BEFORE.get(strategy);
  }
}
