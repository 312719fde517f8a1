package dev.transforms.interop;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.singlenode.arrow.ArrowRecords;
import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.singlenode.edits.UpsertOptions;
import dev.transforms.singlenode.edits.UpsertResult;
import dev.transforms.singlenode.filter.RowFilter;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SDK and the real PyIceberg (the version {@code .ci/interop-test} pins) on one embedded SQLite
 * catalog: each reads what the other wrote with the same rows, and the same edits give the same rows
 * and counts. Needs {@code -Dinterop.python=PATH} (the virtual environment's Python); without it every
 * test is skipped with a message saying so.
 */
class PyIcebergInteropTest {
  private static final String CATALOG = PyIceberg.CATALOG;
  private static final Namespace NAMESPACE = Namespace.of("interop");

  @TempDir static Path warehouse;
  private static JdbcCatalog catalog;
  private static PyIceberg py;
  private static BufferAllocator allocator;

  @BeforeAll
  static void openCatalog() {
    String python = PyIceberg.configuredPython();
    String skipped =
        "interop test skipped: no Python with PyIceberg given; run .ci/interop-test, which installs the"
            + " pinned PyIceberg into target/interop-venv and passes -Dinterop.python";
    if (python == null) {
      System.out.println(skipped);
    }
    Assumptions.assumeTrue(python != null, skipped);
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

  // ---------------------------------------------------------------- reads of what the SDK writes

  private static final Schema ALL_TYPES =
      new Schema(
          List.of(
              required(1, "id", Types.LongType.get()),
              optional(2, "flag", Types.BooleanType.get()),
              optional(3, "small", Types.IntegerType.get()),
              optional(4, "ratio", Types.FloatType.get()),
              optional(5, "score", Types.DoubleType.get()),
              optional(6, "price", Types.DecimalType.of(9, 2)),
              optional(7, "big", Types.DecimalType.of(38, 10)),
              optional(8, "name", Types.StringType.get()),
              optional(9, "day", Types.DateType.get()),
              optional(10, "at", Types.TimeType.get()),
              optional(11, "local_ts", Types.TimestampType.withoutZone()),
              optional(12, "utc_ts", Types.TimestampType.withZone()),
              optional(13, "uid", Types.UUIDType.get()),
              optional(14, "code", Types.FixedType.ofLength(3)),
              optional(15, "payload", Types.BinaryType.get()),
              optional(
                  16,
                  "address",
                  Types.StructType.of(
                      optional(17, "city", Types.StringType.get()),
                      optional(18, "zip", Types.IntegerType.get()))),
              optional(19, "tags", Types.ListType.ofOptional(20, Types.StringType.get())),
              optional(
                  21,
                  "counts",
                  Types.MapType.ofOptional(22, 23, Types.StringType.get(), Types.IntegerType.get()))),
          Set.of(1));

  /** A table layout the SDK writes: format version, write mode and partition transforms. */
  enum Layout {
    COPY_ON_WRITE_V2(2, false) {
      @Override
      PartitionSpec spec() {
        return PartitionSpec.builderFor(ALL_TYPES).day("local_ts").bucket("id", 4).truncate("name", 2).build();
      }
    },
    POSITION_DELETES_V2(2, true) {
      @Override
      PartitionSpec spec() {
        return PartitionSpec.builderFor(ALL_TYPES).identity("flag").month("day").hour("utc_ts").build();
      }
    },
    DELETION_VECTORS_V3(3, true) {
      @Override
      PartitionSpec spec() {
        return PartitionSpec.builderFor(ALL_TYPES).year("utc_ts").build();
      }
    };

    final int formatVersion;
    final boolean mergeOnRead;

    Layout(int formatVersion, boolean mergeOnRead) {
      this.formatVersion = formatVersion;
      this.mergeOnRead = mergeOnRead;
    }

    abstract PartitionSpec spec();
  }

  @ParameterizedTest
  @ValueSource(strings = {"COPY_ON_WRITE_V2", "POSITION_DELETES_V2", "DELETION_VECTORS_V3"})
  void pyIcebergReadsEveryTypeTheSdkWritesAndEdits(String layoutName) {
    Layout layout = Layout.valueOf(layoutName);
    String mode = layout.mergeOnRead ? "merge-on-read" : "copy-on-write";
    Table table =
        catalog.createTable(
            TableIdentifier.of(NAMESPACE, "types_" + layoutName.toLowerCase()),
            ALL_TYPES,
            layout.spec(),
            Map.of(
                TableProperties.FORMAT_VERSION, String.valueOf(layout.formatVersion),
                TableProperties.DELETE_MODE, mode,
                TableProperties.MERGE_MODE, mode,
                TableProperties.UPDATE_MODE, mode));
    Random random = new Random(7 + layout.ordinal());
    RowEdits edits = RowEdits.on(table);
    List<Record> rows = new ArrayList<>();
    for (long id = 0; id < 60; id += 1) {
      rows.add(allTypesRow(id, random));
    }
    edits.append(rows.subList(0, 30));
    edits.append(rows.subList(30, 60));
    assertPyIcebergReadsTheSdkRows(table);

    long deleted = edits.delete("small < 0 AND small IS NOT NULL");
    List<Record> changed = new ArrayList<>();
    for (long id = 55; id < 65; id += 1) {
      changed.add(allTypesRow(id, random));
    }
    UpsertResult upserted = edits.upsert(changed);
    assertThat(deleted).as("rows deleted").isPositive();
    assertThat(upserted.rowsInserted()).as("rows inserted").isPositive();
    table.refresh();
    if (layout.mergeOnRead) {
      assertThat(Long.parseLong(table.currentSnapshot().summary().get("total-delete-files")))
          .as("delete files were written")
          .isPositive();
    }
    assertPyIcebergReadsTheSdkRows(table);
  }

  private static Record allTypesRow(long id, Random random) {
    GenericRecord row = GenericRecord.create(ALL_TYPES);
    row.setField("id", id);
    row.setField("flag", maybe(random, random.nextBoolean()));
    row.setField("small", maybe(random, random.nextInt(200) - 100));
    row.setField("ratio", maybe(random, random.nextInt(1000) / 8f));
    row.setField("score", maybe(random, random.nextGaussian() * 1e6));
    row.setField("price", maybe(random, BigDecimal.valueOf(random.nextInt(1_000_000) - 500_000, 2)));
    row.setField("big", maybe(random, new BigDecimal(random.nextLong() + "12345.0123456789")));
    row.setField("name", maybe(random, List.of("Ab", "O'Brien", "Zoë", "snake_case", "", "x\"y").get(random.nextInt(6))));
    row.setField("day", maybe(random, LocalDate.of(2024, 1, 1).plusDays(random.nextInt(800))));
    row.setField("at", maybe(random, LocalTime.ofNanoOfDay(random.nextInt(86_400_000) * 1_000_000L + 123_000L)));
    row.setField("local_ts", LocalDateTime.of(2025, 3, 1, 0, 0).plusSeconds(random.nextInt(10_000_000)).plusNanos(456_000));
    row.setField(
        "utc_ts",
        maybe(random, OffsetDateTime.of(2020, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC).plusSeconds(random.nextInt(200_000_000))));
    row.setField("uid", maybe(random, new UUID(random.nextLong(), random.nextLong())));
    byte[] code = new byte[3];
    random.nextBytes(code);
    row.setField("code", maybe(random, code));
    byte[] payload = new byte[random.nextInt(6)];
    random.nextBytes(payload);
    row.setField("payload", maybe(random, ByteBuffer.wrap(payload)));
    GenericRecord address = GenericRecord.create(ALL_TYPES.findField("address").type().asStructType());
    address.setField("city", maybe(random, "Oslo"));
    address.setField("zip", maybe(random, random.nextInt(9999)));
    row.setField("address", maybe(random, address));
    row.setField("tags", maybe(random, random.nextBoolean() ? List.of("a", "b") : new ArrayList<>(java.util.Arrays.asList("c", null))));
    Map<String, Integer> counts = new LinkedHashMap<>();
    counts.put("k" + random.nextInt(3), random.nextInt(10));
    counts.put("z", null);
    row.setField("counts", maybe(random, counts));
    return row;
  }

  private static <T> T maybe(Random random, T value) {
    return random.nextInt(6) == 0 ? null : value;
  }

  /** The rows the SDK reads, in canonical JSON. */
  private static String sdkRows(Table table) {
    table.refresh();
    List<Object> rows = new ArrayList<>();
    if (table.currentSnapshot() != null) {
      try (VectorSchemaRoot root = ArrowTableReader.of(table).readAll(allocator)) {
        for (Record record : ArrowRecords.toRecords(root, table.schema())) {
          rows.add(Canonical.row(table.schema().asStruct(), record));
        }
      }
    }
    return Canonical.json(rows);
  }

  private static void assertPyIcebergReadsTheSdkRows(Table table) {
    String name = table.name().substring(table.name().lastIndexOf('.') + 1);
    Path rows = py.file(name + "-sdk.json", sdkRows(table));
    List<String> said = py.run("compare", name, rows.toString());
    assertThat(said).anyMatch(line -> line.startsWith("same "));
  }

  // ---------------------------------------------------------------- the simple table of edits

  private static final Schema SIMPLE =
      new Schema(
          List.of(
              required(1, "id", Types.LongType.get()),
              optional(2, "name", Types.StringType.get()),
              optional(3, "qty", Types.IntegerType.get()),
              optional(4, "amt", Types.DoubleType.get()),
              optional(5, "day", Types.DateType.get())),
          Set.of(1));

  /** The simple schema's columns as the Python side declares them: name, type, required. */
  private static final String SIMPLE_COLUMNS =
      "[[\"id\",\"long\",true],[\"name\",\"string\",false],[\"qty\",\"int\",false],"
          + "[\"amt\",\"double\",false],[\"day\",\"date\",false]]";

  private static final List<String> NAMES = List.of("a", "ab", "abc", "b", "it's");
  private static final List<Double> AMOUNTS = List.of(0.5, 1.25, 2.0, 3.75);

  /** A row of the simple schema in canonical form, with a null in each optional column now and then. */
  private static Map<String, Object> simpleRow(long id, Random random) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("id", Long.toString(id));
    row.put("name", maybe(random, NAMES.get(random.nextInt(NAMES.size()))));
    row.put("qty", maybe(random, Integer.toString(random.nextInt(6))));
    row.put("amt", maybe(random, Canonical.number(AMOUNTS.get(random.nextInt(AMOUNTS.size())))));
    row.put("day", maybe(random, LocalDate.of(2026, 3, 1).plusDays(random.nextInt(8)).toString()));
    return row;
  }

  /** A canonical row of the simple schema as a record. */
  private static Record simpleRecord(Map<String, Object> row) {
    GenericRecord record = GenericRecord.create(SIMPLE);
    record.setField("id", Long.parseLong((String) row.get("id")));
    record.setField("name", row.get("name"));
    record.setField("qty", row.get("qty") == null ? null : Integer.parseInt((String) row.get("qty")));
    record.setField("amt", row.get("amt") == null ? null : Double.parseDouble((String) row.get("amt")));
    record.setField("day", row.get("day") == null ? null : LocalDate.parse((String) row.get("day")));
    return record;
  }

  private static List<Record> simpleRecords(List<Map<String, Object>> rows) {
    return rows.stream().map(PyIcebergInteropTest::simpleRecord).toList();
  }

  private static Table createSimple(String name, String mode) {
    return catalog.createTable(
        TableIdentifier.of(NAMESPACE, name),
        SIMPLE,
        PartitionSpec.unpartitioned(),
        Map.of(
            TableProperties.FORMAT_VERSION, "2",
            TableProperties.DELETE_MODE, mode,
            TableProperties.MERGE_MODE, mode,
            TableProperties.UPDATE_MODE, mode));
  }

  private static String createSpec(String partition, List<List<Map<String, Object>>> appends) {
    return "{\"columns\":" + SIMPLE_COLUMNS + ",\"identifier\":[\"id\"],\"partition\":" + partition
        + ",\"appends\":" + Canonical.json(appends) + "}";
  }

  @Test
  void theSdkReadsAndEditsWhatPyIcebergWritesAndPyIcebergReadsTheResult() {
    Random random = new Random(11);
    List<Map<String, Object>> first = new ArrayList<>();
    List<Map<String, Object>> second = new ArrayList<>();
    for (long id = 0; id < 40; id += 1) {
      (id < 25 ? first : second).add(simpleRow(id, random));
    }
    String partition =
        "[[\"day\",\"month\",null],[\"id\",\"bucket\",4],[\"name\",\"truncate\",2],[\"qty\",\"identity\",null]]";
    py.run("create", "py_written", py.file("py_written.json", createSpec(partition, List.of(first, second))).toString());

    Table table = catalog.loadTable(TableIdentifier.of(NAMESPACE, "py_written"));
    assertThat(table.spec().fields()).hasSize(4);
    assertPyIcebergReadsTheSdkRows(table);
    try (VectorSchemaRoot all = ArrowTableReader.of(table).readAll(allocator)) {
      assertThat(all.getRowCount()).isEqualTo(40);
    }

    // merge-on-read: position deletes that PyIceberg reads
    table.updateProperties()
        .set(TableProperties.DELETE_MODE, "merge-on-read")
        .set(TableProperties.MERGE_MODE, "merge-on-read")
        .commit();
    RowEdits edits = RowEdits.on(table);
    List<Map<String, Object>> source = new ArrayList<>();
    for (long id = 30; id < 50; id += 1) {
      source.add(simpleRow(id, random));
    }
    UpsertResult upserted = edits.upsert(simpleRecords(source));
    long deleted = edits.delete("qty >= 4 AND qty IS NOT NULL");
    assertThat(upserted.rowsInserted()).isEqualTo(10);
    assertThat(deleted).isPositive();
    table.refresh();
    assertThat(Long.parseLong(table.currentSnapshot().summary().get("total-position-deletes"))).isPositive();
    assertPyIcebergReadsTheSdkRows(table);

    // copy-on-write
    table.updateProperties().set(TableProperties.DELETE_MODE, "copy-on-write").commit();
    edits.overwrite(
        simpleRecords(List.of(simpleRow(100, random), simpleRow(101, random))),
        RowFilter.parse("name LIKE 'ab%' AND name IS NOT NULL", table.schema()));
    assertPyIcebergReadsTheSdkRows(table);
  }

  // ---------------------------------------------------------------- the same edits on both sides

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void theSameRandomEditsGiveTheSameRowsAndUpsertCounts(int seed) {
    String mode = seed % 2 == 0 ? "copy-on-write" : "merge-on-read";
    Table table = createSimple("edits_sdk_" + seed, mode);
    String pyTable = "edits_py_" + seed;

    Random random = new Random(seed);
    List<Map<String, Object>> ops = new ArrayList<>();
    long nextId = 0;
    List<Map<String, Object>> initial = new ArrayList<>();
    for (int i = 0; i < 30; i += 1) {
      initial.add(simpleRow(nextId++, random));
    }
    ops.add(op("append", initial, null));
    for (int step = 0; step < 10; step += 1) {
      int choice = random.nextInt(100);
      if (choice < 45) {
        List<Map<String, Object>> rows = new ArrayList<>();
        Set<Long> used = new java.util.HashSet<>();
        int count = 1 + random.nextInt(10);
        for (int i = 0; i < count; i += 1) {
          long id = random.nextInt(3) == 0 ? nextId++ : random.nextInt((int) nextId);
          if (used.add(id)) {
            rows.add(simpleRow(id, random));
          }
        }
        ops.add(op("upsert", rows, null));
      } else if (choice < 70) {
        ops.add(op("delete", null, guardedFilter(random)));
      } else if (choice < 90) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i -= 1) {
          rows.add(simpleRow(nextId++, random));
        }
        ops.add(op("overwrite", rows, guardedFilter(random)));
      } else {
        ops.add(op("append", List.of(simpleRow(nextId++, random)), null));
      }
    }

    RowEdits edits = RowEdits.on(table);
    List<String> sdkCounts = new ArrayList<>();
    for (Map<String, Object> op : ops) {
      @SuppressWarnings("unchecked")
      List<Map<String, Object>> rows = (List<Map<String, Object>>) op.get("rows");
      switch ((String) op.get("op")) {
        case "append" -> edits.append(simpleRecords(rows));
        case "upsert" -> {
          UpsertResult result = edits.upsert(simpleRecords(rows));
          sdkCounts.add("upsert " + result.rowsUpdated() + " " + result.rowsInserted());
        }
        case "delete" -> edits.delete((String) op.get("filter"));
        default -> edits.overwrite(simpleRecords(rows), RowFilter.parse((String) op.get("filter"), SIMPLE));
      }
    }
    List<String> pyCounts =
        py.run(
                "apply",
                pyTable,
                py.file(pyTable + "-ops.json", Canonical.json(ops)).toString(),
                py.file(pyTable + ".json", createSpec("[]", List.of())).toString())
            .stream()
            .filter(line -> line.startsWith("upsert "))
            .toList();

    assertThat(pyCounts).as("upsert counts, PyIceberg against the SDK; edits %s", Canonical.json(ops)).isEqualTo(sdkCounts);
    // PyIceberg's table holds the rows the SDK's holds, and PyIceberg reads the SDK's table alike
    String rows = py.file(pyTable + "-sdk.json", sdkRows(table)).toString();
    String sdkTable = "edits_sdk_" + seed;
    List<String> said = py.run("compare", pyTable, rows, sdkTable, rows);
    assertThat(said).as("rows of both tables against the SDK's").filteredOn(line -> line.startsWith("same ")).hasSize(2);
  }

  private static Map<String, Object> op(String kind, List<Map<String, Object>> rows, String filter) {
    Map<String, Object> op = new LinkedHashMap<>();
    op.put("op", kind);
    if (rows != null) {
      op.put("rows", rows);
    }
    if (filter != null) {
      op.put("filter", filter);
    }
    return op;
  }

  /** One or two predicates joined by AND or OR, then every column they read tested for null. */
  private static String guardedFilter(Random random) {
    String[][] predicates = {
      {"qty", "qty > " + random.nextInt(5)},
      {"qty", "qty BETWEEN 1 AND 3"},
      {"qty", "qty IN (0, 2, 4)"},
      {"qty", "NOT qty = 3"},
      {"name", "name = '" + NAMES.get(random.nextInt(3)) + "'"},
      {"name", "name LIKE 'ab%'"},
      {"name", "name != 'b'"},
      {"amt", "amt <= 1.25"},
      {"day", "day < '2026-03-0" + (2 + random.nextInt(6)) + "'"}
    };
    String[] first = predicates[random.nextInt(predicates.length)];
    String[] second = predicates[random.nextInt(predicates.length)];
    boolean two = random.nextBoolean();
    String filter = two ? "(" + first[1] + (random.nextBoolean() ? " OR " : " AND ") + second[1] + ")" : first[1];
    Set<String> columns = new java.util.TreeSet<>(List.of(first[0]));
    if (two) {
      columns.add(second[0]);
    }
    StringBuilder guarded = new StringBuilder(filter);
    for (String column : columns) {
      guarded.append(" AND ").append(column).append(" IS NOT NULL");
    }
    return guarded.toString();
  }

  // ---------------------------------------------------------------- filter strings and upserts

  /** Rows of the filter table: id, name, qty, amt, day; nulls and a NaN among them. */
  private static final String[][] FILTER_ROWS = {
    {"1", "a", "1", "0.5", "2026-03-01"},
    {"2", "ab", "2", "1.25", "2026-03-02"},
    {"3", "abc", "3", "NaN", "2026-03-03"},
    {"4", null, "4", "2", null},
    {"5", "b", null, null, "2026-03-05"},
    {"6", "it's", "0", "3.75", "2026-03-06"},
    {"7", "a%c", "5", "-1", "2026-03-07"},
    {"8", "ABC", "3", "2", "2026-03-08"}
  };

  /** Filters whose rows both sides must agree on, or which both must refuse. */
  private static final List<String> FILTERS =
      List.of(
          "qty = 3", "3 = qty", "qty == 3", "qty != 3", "qty <> 3", "qty < 3", "qty <= 3", "qty > 3",
          "qty >= 3", "2 < qty", "qty BETWEEN 2 AND 4", "qty between 4 and 2", "NOT qty BETWEEN 2 AND 4",
          "qty IN (1, 4, 9)", "qty NOT IN (1, 4) AND qty IS NOT NULL", "name IS NULL", "name IS NOT NULL", "amt IS NAN",
          "amt IS NOT NAN", "name LIKE 'ab%'", "name NOT LIKE 'ab%'", "name LIKE 'abc'",
          "name NOT LIKE 'abc'", "name LIKE 'a\\%c'", "name LIKE 'a\\%%'", "name = 'it''s'",
          "name = 'abc'", "day < '2026-03-03'", "day >= '2026-03-03' AND qty > 1",
          "qty > 2 OR name = 'a'", "NOT (qty > 2 OR name = 'a')", "(qty = 1 OR qty = 2) AND name IS NOT NULL",
          "qty > 1 and name is not null", "true", "false",
          "name IN ('a', 'b')", "amt <= 1.25 AND amt IS NOT NULL",
          // refused by both
          "qty =", "qty BETWEEN 1", "name LIKE '%b'", "qty = 'x'", "nope = 1", "(qty = 1");

  @Test
  void filterStringsSelectWhatPyIcebergSelects() {
    Table table = createSimple("filters", "copy-on-write");
    List<Record> rows = new ArrayList<>();
    for (String[] values : FILTER_ROWS) {
      Map<String, Object> row = new LinkedHashMap<>();
      String[] columns = {"id", "name", "qty", "amt", "day"};
      for (int i = 0; i < columns.length; i += 1) {
        row.put(columns[i], values[i]);
      }
      rows.add(simpleRecord(row));
    }
    RowEdits edits = RowEdits.on(table);
    edits.append(rows);

    List<String> sdk = new ArrayList<>();
    for (String filter : FILTERS) {
      sdk.add(sdkScan(edits, filter));
    }
    List<String> pyIceberg =
        py.run("scan", "filters", py.file("filters.json", Canonical.json(FILTERS)).toString()).stream()
            .filter(line -> line.startsWith("ids ") || line.startsWith("error "))
            .map(line -> line.startsWith("error ") ? "error" : line)
            .toList();

    assertThat(pyIceberg).hasSameSizeAs(FILTERS);
    List<String> differences = new ArrayList<>();
    for (int i = 0; i < FILTERS.size(); i += 1) {
      if (!pyIceberg.get(i).equals(sdk.get(i))) {
        differences.add(FILTERS.get(i) + ": PyIceberg " + pyIceberg.get(i) + ", SDK " + sdk.get(i));
      }
    }
    assertThat(differences).as("filters where the two differ").isEmpty();

    // The documented differences (docs/filters.md): PyIceberg 0.12's NOT IN keeps a null, SQL's does not;
    // NaN compares differently; the SDK also takes true and false inside larger filters and
    // x NOT BETWEEN a AND b.
    Map<String, String> different = new LinkedHashMap<>();
    different.put("qty NOT IN (1, 4)", "ids 2,3,5,6,7,8|ids 2,3,6,7,8");
    different.put("NOT true", "error|ids ");
    different.put("qty = 1 OR true", "error|ids 1,2,3,4,5,6,7,8");
    different.put("qty NOT BETWEEN 2 AND 4", "error|ids 1,6,7");
    // NaN: Arrow compares it as IEEE 754 does (never greater); Iceberg's Java evaluator and Spark order it
    // above every number
    different.put("amt > 1", "ids 2,4,6,8|ids 2,3,4,6,8");
    List<String> filters = new ArrayList<>(different.keySet());
    List<String> pyAnswers =
        py.run("scan", "filters", py.file("filters-different.json", Canonical.json(filters)).toString()).stream()
            .filter(line -> line.startsWith("ids ") || line.startsWith("error "))
            .map(line -> line.startsWith("error ") ? "error" : line)
            .toList();
    for (int i = 0; i < filters.size(); i += 1) {
      assertThat(pyAnswers.get(i) + "|" + sdkScan(edits, filters.get(i)))
          .as("PyIceberg|SDK for %s", filters.get(i))
          .isEqualTo(different.get(filters.get(i)));
    }
    assertThat(sdk).as("every filter selects or is refused").contains("error").contains("ids 1,2,3,4,5,6,7,8");
  }

  private static String sdkScan(RowEdits edits, String filter) {
    List<Long> ids = new ArrayList<>();
    try (VectorSchemaRoot root = edits.scan(filter, allocator)) {
      org.apache.arrow.vector.BigIntVector vector = (org.apache.arrow.vector.BigIntVector) root.getVector("id");
      for (int i = 0; i < root.getRowCount(); i += 1) {
        ids.add(vector.get(i));
      }
    } catch (RuntimeException refused) {
      return "error";
    }
    ids.sort(null);
    StringBuilder line = new StringBuilder("ids ");
    for (int i = 0; i < ids.size(); i += 1) {
      line.append(i == 0 ? "" : ",").append(ids.get(i));
    }
    return line.toString();
  }

  /** An upsert case: the table's identifier, its rows (one append per batch), the source, the options. */
  private record UpsertCase(
      List<String> identifier,
      List<List<String[]>> table,
      List<String[]> source,
      List<String> join,
      boolean update,
      boolean insert) {

    Map<String, Object> json() {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("columns", "COLUMNS");
      json.put("identifier", identifier);
      List<Object> batches = new ArrayList<>();
      table.forEach(batch -> batches.add(rows(batch)));
      json.put("table", batches);
      json.put("source", rows(source));
      if (join != null) {
        json.put("join", join);
      }
      json.put("update", update);
      json.put("insert", insert);
      return json;
    }
  }

  private static List<Map<String, Object>> rows(List<String[]> values) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (String[] v : values) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("id", v[0]);
      row.put("name", v[1]);
      row.put("qty", v[2]);
      row.put("amt", v[3]);
      row.put("day", v[4]);
      rows.add(row);
    }
    return rows;
  }

  private static List<String[]> batch(String[]... rows) {
    return java.util.Arrays.asList(rows);
  }

  private static String[] r(String id, String name, String qty) {
    return new String[] {id, name, qty, "1.25", "2026-03-01"};
  }

  private static List<UpsertCase> upsertCases() {
    List<String> byId = List.of("id");
    List<List<String[]>> three = List.of(batch(r("1", "a", "1"), r("2", "b", "2"), r("3", "c", "3")));
    return List.of(
        // one row changes, one is new, one is the same
        new UpsertCase(byId, three, batch(r("1", "a", "1"), r("2", "B", "2"), r("4", "d", "4")), byId, true, true),
        // nothing differs
        new UpsertCase(byId, three, batch(r("1", "a", "1"), r("3", "c", "3")), byId, true, true),
        // inserts only
        new UpsertCase(byId, three, batch(r("2", "x", "9"), r("5", "e", "5")), byId, false, true),
        // updates only
        new UpsertCase(byId, three, batch(r("2", "x", "9"), r("5", "e", "5")), byId, true, false),
        // two join columns: a new name makes a new row
        new UpsertCase(byId, three, batch(r("1", "a", "7"), r("1", "z", "7")), List.of("id", "name"), true, true),
        // no join columns: the identifier fields
        new UpsertCase(byId, three, batch(r("3", "c", "30"), r("6", "f", "6")), null, true, true),
        // no join columns and no identifier fields
        new UpsertCase(List.of(), three, batch(r("3", "c", "30")), null, true, true),
        // a key twice in the source
        new UpsertCase(byId, three, batch(r("2", "x", "1"), r("2", "y", "2")), byId, true, true),
        // a matched key twice in the table
        new UpsertCase(byId, List.of(batch(r("1", "a", "1"), r("1", "a", "2"), r("2", "b", "2"))),
            batch(r("1", "q", "1")), byId, true, true),
        // a null becomes a value and a value becomes null
        new UpsertCase(byId, List.of(batch(r("1", null, "1"), r("2", "b", "2"))),
            batch(r("1", "a", "1"), r("2", "b", null)), byId, true, true),
        // null stays null: nothing to update
        new UpsertCase(byId, List.of(batch(r("1", null, null))), batch(r("1", null, null)), byId, true, true),
        // into an empty table
        new UpsertCase(byId, List.of(), batch(r("1", "a", "1"), r("2", "b", "2")), byId, true, true),
        // a change in a double and a date column only
        new UpsertCase(byId, three,
            batch(new String[] {"1", "a", "1", "2", "2026-03-01"}, new String[] {"2", "b", "2", "1.25", "2026-04-01"}),
            byId, true, true),
        // rows spread over several appends
        new UpsertCase(byId, List.of(batch(r("1", "a", "1")), batch(r("2", "b", "2")), batch(r("3", "c", "3"))),
            batch(r("1", "A", "1"), r("3", "C", "3"), r("9", "i", "9")), byId, true, true));
  }

  @Test
  void upsertCasesGivePyIcebergsAnswers() {
    List<UpsertCase> cases = upsertCases();
    List<Object> json = new ArrayList<>();
    cases.forEach(c -> json.add(c.json()));
    String text = Canonical.json(json).replace("\"COLUMNS\"", SIMPLE_COLUMNS);
    List<String> pyIceberg =
        py.run("upserts", py.file("upserts.json", text).toString()).stream()
            .filter(line -> line.startsWith("ok ") || line.startsWith("error "))
            .map(line -> line.startsWith("error ") ? "error" : line)
            .toList();

    List<String> sdk = new ArrayList<>();
    for (int i = 0; i < cases.size(); i += 1) {
      sdk.add(sdkUpsert(i, cases.get(i)));
    }
    assertThat(sdk).as("SDK answers, case by case, against PyIceberg's").isEqualTo(pyIceberg);
    assertThat(sdk).contains("error").anyMatch(line -> line.startsWith("ok 1 1 "));
  }

  private static String sdkUpsert(int number, UpsertCase c) {
    Set<Integer> identifier = new java.util.HashSet<>();
    c.identifier().forEach(name -> identifier.add(SIMPLE.findField(name).fieldId()));
    Table table =
        catalog.createTable(
            TableIdentifier.of(NAMESPACE, "upsert_case_sdk_" + number),
            new Schema(SIMPLE.columns(), identifier),
            PartitionSpec.unpartitioned(),
            Map.of(TableProperties.FORMAT_VERSION, "2"));
    RowEdits edits = RowEdits.on(table);
    try {
      for (List<String[]> batch : c.table()) {
        edits.append(simpleRecords(rows(batch)));
      }
      UpsertOptions options =
          UpsertOptions.builder().whenMatchedUpdateAll(c.update()).whenNotMatchedInsertAll(c.insert()).build();
      UpsertResult result =
          edits.upsert(simpleRecords(rows(c.source())), c.join() == null ? List.of() : c.join(), options);
      table.refresh();
      List<String> rows = new ArrayList<>();
      if (table.currentSnapshot() != null) {
        try (VectorSchemaRoot root = ArrowTableReader.of(table).readAll(allocator)) {
          for (Record record : ArrowRecords.toRecords(root, table.schema())) {
            Map<String, Object> row = Canonical.row(table.schema().asStruct(), record);
            List<String> values = new ArrayList<>();
            row.values().forEach(v -> values.add(v == null ? "null" : (String) v));
            rows.add(String.join("|", values));
          }
        }
      }
      rows.sort(null);
      return "ok " + result.rowsUpdated() + " " + result.rowsInserted() + " " + String.join(";", rows);
    } catch (RuntimeException refused) {
      return "error";
    }
  }

  @Test
  void pyIcebergRefusesTheEqualityDeletesTheSdkWarnsAbout() {
    Table table = createSimple("equality_deletes", "merge-on-read");
    table.updateProperties().set(RowEdits.DELETE_KIND_PROPERTY, "equality").commit();
    RowEdits edits = RowEdits.on(table);
    Random random = new Random(5);
    edits.append(simpleRecords(List.of(simpleRow(1, random), simpleRow(2, random))));
    edits.delete("id = 1");
    table.refresh();
    assertThat(table.currentSnapshot().summary().get("total-equality-deletes")).isEqualTo("1");

    List<String> said = py.run("scan", "equality_deletes", py.file("all.json", "[\"true\"]").toString());
    assertThat(said).anyMatch(line -> line.startsWith("error ") && line.contains("equality deletes"));
  }

  // ---------------------------------------------------------------- tables Spark writes

  @Test
  void pyIcebergReadsWhatSparkWritesAsTheSdkReadsIt() {
    org.apache.spark.sql.SparkSession spark = py.sparkSession();
    try {
      for (int version : new int[] {2, 3}) {
        String name = "spark_v" + version;
        spark.sql(
            "CREATE TABLE " + CATALOG + ".interop." + name + " (id BIGINT NOT NULL, name STRING, price DECIMAL(9,2),"
                + " score DOUBLE, day DATE, at TIMESTAMP, local_at TIMESTAMP_NTZ,"
                + " address STRUCT<city: STRING, zip: INT>, tags ARRAY<STRING>, counts MAP<STRING, INT>)"
                + " USING iceberg PARTITIONED BY (days(at), bucket(4, id)) TBLPROPERTIES ('format-version'='"
                + version + "', 'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read',"
                + " 'write.merge.mode'='merge-on-read')");
        spark.sql(
            "INSERT INTO " + CATALOG + ".interop." + name + " SELECT id, CASE WHEN id % 5 = 0 THEN NULL ELSE"
                + " concat('n', id) END, CAST(id * 1.25 AS DECIMAL(9,2)), id / 8.0, date_add(DATE'2026-03-01', CAST(id % 9 AS INT)),"
                + " TIMESTAMP'2026-03-01 10:00:00' + make_interval(0, 0, 0, CAST(id % 3 AS INT), 0, 0, id * 1.5),"
                + " TIMESTAMP_NTZ'2026-03-01 10:00:00.123456', named_struct('city', 'Oslo', 'zip', CAST(id AS INT)),"
                + " array('a', concat('t', id)), map('k', CAST(id AS INT)) FROM range(40)");
        // one MERGE that deletes, updates and inserts: delete files (v2) or deletion vectors (v3)
        spark.sql(
            "MERGE INTO " + CATALOG + ".interop." + name + " t USING (SELECT id, 'merged' AS name FROM range(0, 45, 3)) s"
                + " ON t.id = s.id WHEN MATCHED AND t.id % 2 = 0 THEN DELETE WHEN MATCHED THEN UPDATE SET t.name = s.name"
                + " WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, s.name)");
        Table table = catalog.loadTable(TableIdentifier.of(NAMESPACE, name));
        assertThat(Long.parseLong(table.currentSnapshot().summary().get("total-delete-files")))
            .as("Spark wrote delete files to %s", name)
            .isPositive();
        assertPyIcebergReadsTheSdkRows(table);
      }
    } finally {
      spark.stop();
    }
  }
}
