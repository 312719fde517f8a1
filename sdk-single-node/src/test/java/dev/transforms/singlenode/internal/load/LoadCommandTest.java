package dev.transforms.singlenode.internal.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.cli.TransformsCli;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.publish.BuildLease;
import dev.transforms.runtime.internal.publish.StagingMarks;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code transforms load} end to end on the embedded catalog: CSV, JSON lines and Parquet, the three
 * modes, partitioning, the seeds folder, and the promise that bad input changes no table.
 */
class LoadCommandTest {

  private static final String ORDERS_SCHEMA =
      "order_id long not null, amount decimal(10,2), status string, created_at timestamp";

  @TempDir Path dir;

  private record Run(int exitCode, String out, String err) {}

  private Run load(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "load";
    System.arraycopy(args, 0, all, 1, args.length);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = TransformsCli.execute(new TransformsCli(Map.of(), dir), new PrintWriter(out, true),
        new PrintWriter(err, true), all);
    return new Run(code, out.toString(), err.toString());
  }

  private Path write(String name, String text) throws IOException {
    Path file = dir.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
    return file;
  }

  private Path orders() throws IOException {
    return write("orders.csv", """
        order_id,amount,status,created_at
        1,250.00,paid,2026-04-01 10:00:00
        2,30.5,paid,2026-04-01T11:30:00
        3,500.00,"cancelled, late",2026-04-02 09:15:00.25
        4,,,
        """);
  }

  private Catalogs catalogs() {
    return new Catalogs(TransformsConfig.embedded(dir.resolve("warehouse")));
  }

  private Table table(String namespace, String name) {
    try (Catalogs catalogs = catalogs()) {
      return catalogs.catalog("local").loadTable(TableIdentifier.of(Namespace.of(namespace.split("\\.")), name));
    }
  }

  private boolean exists(String namespace, String name) {
    try (Catalogs catalogs = catalogs()) {
      return catalogs.catalog("local").tableExists(TableIdentifier.of(Namespace.of(namespace.split("\\.")), name));
    }
  }

  private static List<List<Object>> rows(Table table) {
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        List<Object> row = new ArrayList<>();
        for (int i = 0; i < record.size(); i++) {
          row.add(record.get(i));
        }
        rows.add(row);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    rows.sort((a, b) -> String.valueOf(a.get(0)).compareTo(String.valueOf(b.get(0))));
    return rows;
  }

  private static List<Object> row(Object... values) {
    return java.util.Arrays.asList(values);
  }

  @Test
  void aCsvFileWithDeclaredColumnsBecomesATableInOneCommit() throws Exception {
    orders();
    Run run = load("/Shop/raw/orders", "orders.csv", "--schema", ORDERS_SCHEMA, "--partition-by", "days(created_at)");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("Loaded /Shop/raw/orders (`local`.`Shop`.`raw`.`orders`): created with 4 rows "
        + "from orders.csv; snapshot ");
    Table table = table("Shop.raw", "orders");
    assertThat(table.schema().asStruct()).isEqualTo(new Schema(
        Types.NestedField.required(1, "order_id", Types.LongType.get()),
        Types.NestedField.optional(2, "amount", Types.DecimalType.of(10, 2)),
        Types.NestedField.optional(3, "status", Types.StringType.get()),
        Types.NestedField.optional(4, "created_at", Types.TimestampType.withoutZone())).asStruct());
    assertThat(table.spec().fields()).extracting(f -> f.name()).containsExactly("created_at_day");
    assertThat(rows(table)).containsExactly(
        row(1L, new BigDecimal("250.00"), "paid", LocalDateTime.of(2026, 4, 1, 10, 0)),
        row(2L, new BigDecimal("30.50"), "paid", LocalDateTime.of(2026, 4, 1, 11, 30)),
        row(3L, new BigDecimal("500.00"), "cancelled, late", LocalDateTime.of(2026, 4, 2, 9, 15, 0, 250_000_000)),
        row(4L, null, null, null));
    // Published like a build: the table appeared with its rows, one snapshot, no branch or lease left.
    assertThat(table.snapshots()).hasSize(1);
    assertThat(table.refs()).containsOnlyKeys("main");
    assertThat(table.properties())
        .noneSatisfy((k, v) -> assertThat(k).startsWith(StagingMarks.LEASE_PREFIX))
        .containsEntry("transforms.state.transform", "load");
    assertThat(table.currentSnapshot().summary()).containsEntry("transforms.transform", "load")
        .containsEntry("added-records", "4");
  }

  @Test
  void appendAddsRowsReplaceReplacesThemAndCreateRefusesAnExistingTable() throws Exception {
    orders();
    assertThat(load("/Shop/raw/orders", "orders.csv", "--schema", ORDERS_SCHEMA).exitCode()).isZero();
    long created = table("Shop.raw", "orders").currentSnapshot().snapshotId();

    Run again = load("/Shop/raw/orders", "orders.csv", "--schema", ORDERS_SCHEMA);
    assertThat(again.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(again.err()).contains("error: InvalidLoadException: Table /Shop/raw/orders (`local`.`Shop`.`raw`."
        + "`orders`) exists; --mode create only creates tables. Use --mode append");
    assertThat(table("Shop.raw", "orders").currentSnapshot().snapshotId()).isEqualTo(created);

    write("more.csv", "order_id,amount\n5,1.00\n6,2.00\n");
    // Without --schema, the table's own columns are the declaration.
    Run append = load("/Shop/raw/orders", "more.csv", "--mode", "append");
    assertThat(append.exitCode()).as(append.err()).isZero();
    assertThat(append.out()).contains("appended 2 rows from more.csv");
    assertThat(rows(table("Shop.raw", "orders"))).hasSize(6);

    Run replace = load("/Shop/raw/orders", "more.csv", "--mode", "replace");
    assertThat(replace.exitCode()).as(replace.err()).isZero();
    assertThat(replace.out()).contains("replaced 6 rows with 2 rows from more.csv");
    assertThat(rows(table("Shop.raw", "orders"))).containsExactly(
        row(5L, new BigDecimal("1.00"), null, null), row(6L, new BigDecimal("2.00"), null, null));
  }

  @Test
  void aLoadThatLosesARaceIsToldToLoadAgainAndLoadsNothing() throws Exception {
    orders();
    assertThat(load("/Shop/raw/orders", "orders.csv", "--schema", ORDERS_SCHEMA).exitCode()).isZero();
    Path more = write("more.csv", "order_id,amount\n5,1.00\n");
    TransformsConfig config = TransformsConfig.embedded(dir.resolve("warehouse"));
    try (Catalogs catalogs = new Catalogs(config)) {
      dev.transforms.runtime.internal.load.TableLoad load = new dev.transforms.runtime.internal.load.TableLoad(
          catalogs, new dev.transforms.runtime.TableResolver(config),
          dev.transforms.runtime.internal.load.TableLoad.findEngine(getClass().getClassLoader()));
      dev.transforms.runtime.internal.load.LoadRequest request = new dev.transforms.runtime.internal.load.LoadRequest(
          dev.transforms.runtime.DatasetPath.of("/Shop/raw/orders"),
          List.of(dev.transforms.runtime.spi.SourceFile.of(more, java.util.Optional.empty())),
          java.util.Optional.empty(), java.util.Optional.empty(), dev.transforms.runtime.internal.load.LoadMode.APPEND,
          false, dev.transforms.runtime.spi.TextOptions.DEFAULT, java.util.Optional.empty());
      // Another writer replaces the table's rows while the load reads its file.
      boolean[] raced = {false};
      assertThatThrownBy(() -> load.run(List.of(request), (file, read, total, rows) -> {
        if (!raced[0]) {
          raced[0] = true;
          Table table = catalogs.catalog("local").loadTable(TableIdentifier.of(Namespace.of("Shop", "raw"), "orders"));
          table.newDelete().deleteFromRowFilter(org.apache.iceberg.expressions.Expressions.alwaysTrue()).commit();
        }
      })).isInstanceOf(dev.transforms.api.PublishConflictException.class)
          .hasMessageStartingWith("Cannot publish the load: output /Shop/raw/orders")
          .hasMessageContaining("while the load ran; nothing was published. Load again to load into the table as it "
              + "is now.");
    }
    assertThat(rows(table("Shop.raw", "orders"))).isEmpty();
    assertThat(table("Shop.raw", "orders").refs()).containsOnlyKeys("main");
  }

  @Test
  void badRowsAreListedWithFileLineAndFieldAndChangeNoTable() throws Exception {
    orders();
    assertThat(load("/Shop/raw/orders", "orders.csv", "--schema", ORDERS_SCHEMA).exitCode()).isZero();
    Table before = table("Shop.raw", "orders");
    write("bad.csv", """
        order_id,amount,status,created_at
        5,12.345,paid,2026-04-01 10:00:00
        ,30.00,paid,2026-04-01 11:30:00
        7,1.00,"can"celled,2026-04-02 09:15:00
        8,120.50,paid
        9,1.00,paid,2026-13-03 16:45:00
        10,2.00,paid,2026-04-03T16:45:00Z
        11,3.00,fine,2026-04-03 16:45:00
        """);

    Run append = load("/Shop/raw/orders", "bad.csv", "--mode", "append");
    assertThat(append.exitCode()).isEqualTo(TransformsCli.TRANSFORM_FAILED);
    assertThat(append.err()).contains(
        "error: BadRowsException: 6 bad rows; nothing was written",
        "- bad.csv:2:2: column amount (decimal(10, 2)): '12.345' has 3 digits after the point; the column holds 2",
        "- bad.csv:3:1: column order_id (long, not null): empty, but the column is not null",
        "- bad.csv:4: field 3 has text after its closing quote",
        "- bad.csv:5: 3 fields, but the header has 4",
        "- bad.csv:6:4: column created_at (timestamp): '2026-13-03 16:45:00' is not a valid timestamp",
        "- bad.csv:7:4: column created_at (timestamp): '2026-04-03T16:45:00Z' has an offset");
    Table after = table("Shop.raw", "orders");
    assertThat(after.currentSnapshot().snapshotId()).isEqualTo(before.currentSnapshot().snapshotId());
    assertThat(after.refs()).containsOnlyKeys("main");
    assertThat(after.properties()).isEqualTo(before.properties());
    assertThat(rows(after)).hasSize(4);

    // A new table is not created either, nor the namespace it would have lived in.
    Run create = load("/Other/raw/orders", "bad.csv", "--schema", ORDERS_SCHEMA);
    assertThat(create.exitCode()).isEqualTo(TransformsCli.TRANSFORM_FAILED);
    assertThat(exists("Other.raw", "orders")).isFalse();
    try (Catalogs catalogs = catalogs()) {
      assertThat(((SupportsNamespaces) catalogs.catalog("local")).namespaceExists(Namespace.of("Other"))).isFalse();
    }
  }

  @Test
  void undeclaredColumnsAreRefusedUnlessGuessingIsAskedFor() throws Exception {
    orders();
    Run undeclared = load("/Shop/raw/orders", "orders.csv");
    assertThat(undeclared.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(undeclared.err()).contains("The columns of " + dir.resolve("orders.csv") + " are not declared: give "
        + "them with --schema");
    assertThat(exists("Shop.raw", "orders")).isFalse();

    Run guessed = load("/Shop/raw/orders", "orders.csv", "--infer-schema");
    assertThat(guessed.exitCode()).as(guessed.err()).isZero();
    assertThat(guessed.err()).contains("warning: the columns of /Shop/raw/orders are guessed from its values");
    assertThat(table("Shop.raw", "orders").schema().columns()).extracting(c -> c.name() + " " + c.type())
        .containsExactly("order_id long", "amount double", "status string", "created_at timestamp");
  }

  @Test
  void aFileNamedTwiceOrAnEmptyColumnIsRefusedAndNothingIsCreated() throws Exception {
    orders();
    Run twice = load("/Shop/raw/orders", "orders.csv", "./orders.csv", "--schema", ORDERS_SCHEMA);
    assertThat(twice.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(twice.err()).contains("orders.csv is named twice: its rows would be loaded twice");
    Run empty = load("/Shop/raw/orders", "orders.csv", "--schema",
        "order_id long not null,, amount decimal(10,2), status string, created_at timestamp");
    assertThat(empty.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(empty.err()).contains("two commas with no column between them: an empty column");
    Run leading = load("/Shop/raw/orders", "orders.csv", "--schema", ", order_id long");
    assertThat(leading.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(leading.err()).contains("a comma before the first column");
    assertThat(exists("Shop.raw", "orders")).isFalse();
  }

  @Test
  void headerMismatchesNameTheFileAndTheColumns() throws Exception {
    write("typo.csv", "order_id,amout\n1,2.00\n");
    Run run = load("/Shop/raw/orders", "typo.csv", "--schema", "order_id long not null, amount decimal(10,2)");
    assertThat(run.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(run.err()).contains("The header of " + dir.resolve("typo.csv") + " (line 1) does not match the "
        + "declared columns [order_id, amount]", "- field 2 is named 'amout', which is not a declared column");
    assertThat(exists("Shop.raw", "orders")).isFalse();
  }

  @Test
  void aDeclaredSchemaThatDiffersFromTheTableIsRefusedBeforeAnythingIsWritten() throws Exception {
    orders();
    assertThat(load("/Shop/raw/orders", "orders.csv", "--schema", ORDERS_SCHEMA).exitCode()).isZero();
    Run run = load("/Shop/raw/orders", "orders.csv", "--mode", "append", "--schema",
        "order_id string, amount decimal(10,2), status string, created_at timestamp, extra int");
    assertThat(run.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(run.err()).contains("The columns of --schema do not fit table /Shop/raw/orders",
        "- order_id: the table has long, the files string", "- extra: not a column of the table");
    Run partitioned = load("/Shop/raw/orders", "orders.csv", "--mode", "append", "--partition-by", "status");
    assertThat(partitioned.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(partitioned.err()).contains("is partitioned by nothing, not by status");
    assertThat(rows(table("Shop.raw", "orders"))).hasSize(4);
  }

  @Test
  void jsonLinesWithTypedValues() throws Exception {
    write("events.jsonl", """
        {"id": 1, "kind": "click", "at": "2026-04-01T10:00:00Z", "price": "9.99", "day": "2026-04-01", "ok": true}
        {"id": 2, "kind": null, "at": "2026-04-01T12:00:00+02:00", "price": 1.5}

        {"id": 3, "kind": "view", "at": "2026-04-02T00:00:00Z", "ok": false}
        """);
    String schema = "id long not null, kind string, at timestamptz, price decimal(6,2), day date, ok boolean";
    Run run = load("/Web/events", "events.jsonl", "--schema", schema);
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(rows(table("Web", "events"))).containsExactly(
        row(1L, "click", OffsetDateTime.of(2026, 4, 1, 10, 0, 0, 0, ZoneOffset.UTC), new BigDecimal("9.99"),
            LocalDate.of(2026, 4, 1), true),
        row(2L, null, OffsetDateTime.of(2026, 4, 1, 10, 0, 0, 0, ZoneOffset.UTC), new BigDecimal("1.50"), null, null),
        row(3L, "view", OffsetDateTime.of(2026, 4, 2, 0, 0, 0, 0, ZoneOffset.UTC), null, null, false));

    write("bad.jsonl", """
        {"id": "4"}
        {"id": 5, "color": "red"}
        {"id": 6, "kind": {"nested": 1}}
        {"id": 7,
        [1, 2]
        {"kind": "no id"}
        """);
    Run bad = load("/Web/events", "bad.jsonl", "--mode", "append");
    assertThat(bad.exitCode()).isEqualTo(TransformsCli.TRANSFORM_FAILED);
    assertThat(bad.err()).contains("6 bad rows; nothing was written",
        "- bad.jsonl:1:8: column id (long, not null): the string \"4\", but the column holds long",
        "- bad.jsonl:2:11: key 'color' is not a declared column",
        "- bad.jsonl:3:19: column kind (string): a nested object",
        "- bad.jsonl:4:",
        "- bad.jsonl:5: a line must hold one JSON object",
        "- bad.jsonl:6: column id (long, not null): missing, but the column is not null");
    assertThat(rows(table("Web", "events"))).hasSize(3);
  }

  @Test
  void parquetFilesCarryTheirSchemaAndAreReadByColumnName() throws Exception {
    // Field ids of another table: the load reads by name.
    Schema written = new Schema(
        Types.NestedField.required(10, "id", Types.LongType.get()),
        Types.NestedField.optional(20, "name", Types.StringType.get()));
    Path file = dir.resolve("people.parquet");
    try (FileAppender<Record> appender = Parquet.write(org.apache.iceberg.Files.localOutput(file.toFile())).schema(written)
        .createWriterFunc(type -> GenericParquetWriter.create(written, type)).build()) {
      for (long id = 1; id <= 3; id++) {
        GenericRecord record = GenericRecord.create(written);
        record.setField("id", id);
        record.setField("name", "person " + id);
        appender.add(record);
      }
    }
    Run run = load("/People/all", "people.parquet");
    assertThat(run.exitCode()).as(run.err()).isZero();
    Table table = table("People", "all");
    assertThat(table.schema().columns()).extracting(c -> c.fieldId() + " " + c.name() + " " + c.type()
        + (c.isRequired() ? " required" : "")).containsExactly("1 id long required", "2 name string");
    assertThat(rows(table)).containsExactly(row(1L, "person 1"), row(2L, "person 2"), row(3L, "person 3"));

    Run declared = load("/People/more", "people.parquet", "--schema", "id long");
    assertThat(declared.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(declared.err()).contains("Parquet files carry their schema, but --schema declares one");
  }

  /**
   * pyarrow, pandas, Spark and DuckDB declare every Parquet column optional, whatever it holds: such a file
   * appends to a table whose column is required when its rows hold a value there, and a row with a null there
   * is a bad row named by file and row number, with nothing written.
   */
  @Test
  void optionalParquetColumnsLoadIntoRequiredOnesWhenEveryRowHoldsAValue() throws Exception {
    orders();
    assertThat(load("/Shop/raw/orders", "orders.csv", "--schema", ORDERS_SCHEMA).exitCode()).isZero();
    Schema optional = new Schema(
        Types.NestedField.optional(1, "order_id", Types.LongType.get()),
        Types.NestedField.optional(2, "status", Types.StringType.get()));
    writeParquet("exported.parquet", optional, row(5L, "paid"), row(6L, null));

    Run append = load("/Shop/raw/orders", "exported.parquet", "--mode", "append");

    assertThat(append.exitCode()).as(append.err()).isZero();
    Table table = table("Shop.raw", "orders");
    assertThat(table.schema().findField("order_id").isRequired()).isTrue();
    assertThat(rows(table)).hasSize(6).contains(row(5L, null, "paid", null), row(6L, null, null, null));

    long before = table.currentSnapshot().snapshotId();
    writeParquet("holes.parquet", optional, row(7L, "paid"), row(null, "lost"), row(null, "lost too"));
    Run holes = load("/Shop/raw/orders", "holes.parquet", "--mode", "append");

    assertThat(holes.exitCode()).isEqualTo(TransformsCli.TRANSFORM_FAILED);
    String file = dir.resolve("holes.parquet").toString();
    assertThat(holes.err()).contains("error: BadRowsException: 2 bad rows; nothing was written",
        "- " + file + ", row 2: column order_id is null, but the table requires a value",
        "- " + file + ", row 3: column order_id is null, but the table requires a value");
    assertThat(table("Shop.raw", "orders").currentSnapshot().snapshotId()).isEqualTo(before);
  }

  private void writeParquet(String name, Schema schema, List<Object>... rows) throws IOException {
    Path file = dir.resolve(name);
    try (FileAppender<Record> appender = Parquet.write(org.apache.iceberg.Files.localOutput(file.toFile()))
        .schema(schema).createWriterFunc(type -> GenericParquetWriter.create(schema, type)).build()) {
      for (List<Object> values : rows) {
        GenericRecord record = GenericRecord.create(schema);
        for (int i = 0; i < values.size(); i++) {
          record.set(i, values.get(i));
        }
        appender.add(record);
      }
    }
  }

  @Test
  void gzippedTsvAndHeaderlessSemicolonFiles() throws Exception {
    Path gz = dir.resolve("codes.tsv.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write("code\tlabel\nA\tfirst\nB\tsecond\n".getBytes(StandardCharsets.UTF_8));
    }
    assertThat(load("/Ref/codes", "codes.tsv.gz", "--schema", "code string not null, label string").exitCode())
        .isZero();
    assertThat(rows(table("Ref", "codes"))).containsExactly(row("A", "first"), row("B", "second"));

    write("plain.txt", "C;third\nD;\"fourth; quoted\"\n");
    Run run = load("/Ref/codes", "plain.txt", "--format", "csv", "--no-header", "--delimiter", ";", "--mode",
        "append");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(rows(table("Ref", "codes"))).hasSize(4).contains(row("D", "fourth; quoted"));
  }

  @Test
  void theSeedsFolderLoadsEveryTableOrNone() throws Exception {
    write("seeds/Shop/raw/orders.csv", "order_id,amount,created_at\n1,2.50,2026-04-01 10:00:00\n");
    write("seeds/Shop/raw/orders.schema", """
        order_id long not null
        amount decimal(10,2)
        created_at timestamp
        partitioned by days(created_at)
        """);
    write("seeds/Shop/ref/regions.jsonl", "{\"code\": \"EU\"}\n{\"code\": \"US\"}\n");
    write("seeds/Shop/ref/regions.schema", "code string not null");
    write("seeds/README.md", "what the seeds are");

    Run run = load("--all");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).contains("warning: ignored seeds/README.md");
    assertThat(run.out()).contains("Loaded /Shop/raw/orders (`local`.`Shop`.`raw`.`orders`): created with 1 row from "
        + "seeds/Shop/raw/orders.csv", "Loaded /Shop/ref/regions (`local`.`Shop`.`ref`.`regions`): created with 2 rows");
    assertThat(table("Shop.raw", "orders").spec().fields()).hasSize(1);

    // A bad row in one seed: no table changes, the good seed's included.
    write("seeds/Shop/ref/regions.jsonl", "{\"code\": \"EU\"}\n{\"code\": null}\n");
    write("seeds/Shop/raw/orders.csv", "order_id,amount,created_at\n1,2.50,2026-04-01 10:00:00\n2,1,2026-04-02\n");
    long orders = table("Shop.raw", "orders").currentSnapshot().snapshotId();
    Run bad = load("--all", "--mode", "replace");
    assertThat(bad.exitCode()).isEqualTo(TransformsCli.TRANSFORM_FAILED);
    assertThat(bad.err()).contains("2 bad rows; nothing was written", "- orders.csv:3:3:", "- regions.jsonl:2:");
    assertThat(table("Shop.raw", "orders").currentSnapshot().snapshotId()).isEqualTo(orders);
    assertThat(table("Shop.ref", "regions").refs()).containsOnlyKeys("main");

    Run all = load("--all", "seeds/Shop");
    assertThat(all.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(all.err()).contains("--all loads the seeds folder as it is");
  }

  @Test
  void aLoadRemovesWhatADeadLoadLeftOnItsTable() throws Exception {
    orders();
    assertThat(load("/Shop/raw/orders", "orders.csv", "--schema", ORDERS_SCHEMA).exitCode()).isZero();
    String dead = "0123456789ab";
    try (Catalogs catalogs = catalogs()) {
      Table table = catalogs.catalog("local").loadTable(TableIdentifier.of("Shop", "raw", "orders"));
      BuildLease mine = BuildLease.forThisProcess(dead);
      // A process id no process has: the lease is of a dead build.
      BuildLease lease = new BuildLease(dead, mine.host(), Integer.MAX_VALUE - 7, mine.processStart(),
          mine.expiresAt());
      table.manageSnapshots().createBranch(StagingMarks.branch(dead)).commit();
      table.updateProperties().set(StagingMarks.leaseKey(dead), lease.encode()).commit();
    }
    write("more.csv", "order_id\n9\n");
    Run run = load("/Shop/raw/orders", "more.csv", "--mode", "append");
    assertThat(run.exitCode()).as(run.err()).isZero();
    Table table = table("Shop.raw", "orders");
    assertThat(table.refs()).containsOnlyKeys("main");
    assertThat(table.properties()).doesNotContainKey(StagingMarks.leaseKey(dead));
    assertThat(rows(table)).hasSize(5);
  }

  @Test
  void mistakesInTheArgumentsAreBadUsage() throws Exception {
    orders();
    assertThat(load("/Shop/raw/orders").err()).contains("Name the table and the files to load");
    assertThat(load("/Shop/raw/orders", "missing.csv", "--schema", "id long").err())
        .contains("File " + dir.resolve("missing.csv") + " does not exist");
    assertThat(load("/Shop/raw/orders", "orders.csv", "--schema", "id long", "--mode", "upsert").err())
        .contains("Unknown --mode 'upsert'; use create, append or replace");
    write("orders.xlsx", "");
    assertThat(load("/Shop/raw/orders", "orders.xlsx", "--schema", "id long").err())
        .contains("has no extension that names its format");
    Run twice = load("/Shop/raw/orders", "orders.csv", "--schema", "id long", "--schema-file", "x.schema");
    assertThat(twice.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(exists("Shop.raw", "orders")).isFalse();
  }

  /**
   * A load into a new table that fails on a row leaves no folder of its own behind: the table's folder and
   * the namespace folders it created go, the folders that were there before stay, even empty ones.
   */
  @Test
  void aLoadThatFailsOnARowRemovesTheFoldersItCreated() throws Exception {
    write("ok.csv", "id\n1\n");
    assertThat(load("/Shop/raw/other", "ok.csv", "--schema", "id long").exitCode()).isZero();
    Path warehouse = dir.resolve("warehouse");
    Files.createDirectories(warehouse.resolve("Before"));
    write("bad.csv", "order_id,amount\n1,2.00\n2,x\n");
    String schema = "order_id long not null, amount decimal(10,2)";

    Run fresh = load("/Sales/raw/n", "bad.csv", "--schema", schema);
    assertThat(fresh.exitCode()).as(fresh.err()).isEqualTo(TransformsCli.TRANSFORM_FAILED);
    assertThat(fresh.err()).contains("- bad.csv:3:2: column amount");
    assertThat(warehouse.resolve("Sales")).doesNotExist();

    Run besideATable = load("/Shop/raw/n", "bad.csv", "--schema", schema);
    assertThat(besideATable.exitCode()).isEqualTo(TransformsCli.TRANSFORM_FAILED);
    assertThat(warehouse.resolve("Shop/raw/n")).doesNotExist();
    assertThat(warehouse.resolve("Shop/raw/other/metadata")).isDirectory();

    Run inAFolderThatWasThere = load("/Before/raw/n", "bad.csv", "--schema", schema);
    assertThat(inAFolderThatWasThere.exitCode()).isEqualTo(TransformsCli.TRANSFORM_FAILED);
    assertThat(warehouse.resolve("Before")).isEmptyDirectory();
    assertThat(rows(table("Shop.raw", "other"))).containsExactly(row(1L));
  }

  @Test
  void aDeviceOrAPipeIsNamedAsNotARegularFile() throws Exception {
    Run device = load("/Shop/raw/t", "/dev/null", "--schema", "id long");
    assertThat(device.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(device.err()).contains("File /dev/null exists but is not a regular file (a device, a pipe or a "
        + "socket); name a file to load").doesNotContain("does not exist");
    orders();
    Run schemaFile = load("/Shop/raw/t", "orders.csv", "--schema-file", "/dev/null");
    assertThat(schemaFile.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(schemaFile.err()).contains("Schema file /dev/null (--schema-file) exists but is not a regular file");
    assertThat(dir.resolve("warehouse")).doesNotExist();
  }

  @Test
  void aLineCutShortIsNamedWithoutJacksonsWords() throws Exception {
    // Jackson said "Unexpected end-of-input: expected close marker for Object (start marker at [Source:
    // REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1])" of line 4.
    write("cut.jsonl", "{\"id\": 1, \"kind\": \"view\"}\n{\"id\": 2, \"kind\": \"cli\n{\"id\": 3,\n{\"id\": 4\n");
    Run run = load("/Web/cut", "cut.jsonl", "--schema", "id long, kind string");
    assertThat(run.exitCode()).isEqualTo(TransformsCli.TRANSFORM_FAILED);
    assertThat(run.err()).contains("3 bad rows; nothing was written",
        "- cut.jsonl:2:", "the line ends inside a JSON string: it was cut short, or a closing quote is missing",
        "the line ends before its JSON object is closed: it was cut short, or a '}' is missing")
        .containsPattern("- cut.jsonl:3:\\d+: not valid JSON: the line ends before its JSON object is closed")
        .containsPattern("- cut.jsonl:4:\\d+: not valid JSON: the line ends before its JSON object is closed")
        .doesNotContain("Source:", "REDACTED", "StreamReadFeature", "start marker");

    Run guessed = load("/Web/cut", "cut.jsonl", "--infer-schema");
    assertThat(guessed.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(guessed.err()).contains("Cannot guess the columns of " + dir.resolve("cut.jsonl") + ": line 2 is not "
        + "valid JSON (the line ends inside a JSON string").doesNotContain("Source:", "REDACTED", "StreamReadFeature");
  }

  @Test
  void anEmptyParquetFileIsOneError() throws Exception {
    Files.write(dir.resolve("empty.parquet"), new byte[0]);
    Run run = load("/Logs/events", "empty.parquet");
    assertThat(run.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(run.err()).contains("File " + dir.resolve("empty.parquet") + " is not a Parquet file: it is empty "
        + "(0 bytes)").doesNotContain("warning", "adds no row");
    assertThat(dir.resolve("warehouse")).doesNotExist();
  }

  @Test
  void aSeedWithoutColumnsIsToldWhatAllTakes() throws Exception {
    write("seeds/Shop/raw/orders.csv", "order_id\n1\n");
    Run run = load("--all");
    assertThat(run.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(run.err()).contains("The columns of seed " + dir.resolve("seeds/Shop/raw/orders.csv") + " are not "
        + "declared: write them in " + dir.resolve("seeds/Shop/raw/orders.schema") + ", one a line (such as "
        + "'id long not null'), or guess them with --infer-schema").doesNotContain("--schema-file", "--schema \"");
    assertThat(exists("Shop.raw", "orders")).isFalse();
  }
}
