package dev.transforms.singlenode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.ConfigurationException;
import dev.transforms.api.Incremental;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.singlenode.arrow.ArrowRecords;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad inputs around an output's shape: each one fails with an error that names the output and the
 * column at fault, and leaves the output as it was: its schema, schemas, partitioning, properties,
 * snapshots and refs, and every data and manifest file under its folder.
 */
public class ShapeRefusalsTest {

  static final String SOURCE = "/src/people";
  static final String OUT = "/out/people";
  static final TableIdentifier OUT_ID = TableIdentifier.of(Namespace.of("out"), "people");
  static final Schema PEOPLE = new Schema(List.of(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()),
      Types.NestedField.optional(3, "age", Types.IntegerType.get())), java.util.Set.of(1));

  /** What the transform does once the output exists: write these rows, or do this to its table. */
  static volatile BiConsumer<SingleNodeTransformContext, IcebergOutput> step;

  @TempDir Path warehouse;
  Transforms runner;
  Catalog catalog;

  /** The people, copied whole on a first build, then doing the step under test. */
  public static class Fail {
    @Transform(name = "people")
    @Incremental
    public void people(SingleNodeTransformContext ctx, @TableInput(SOURCE) IcebergInput in,
        @TableOutput(OUT) IcebergOutput out) {
      run(ctx, in, out);
    }
  }

  /** The same transform, its output adding new columns. */
  public static class Append {
    @Transform(name = "people")
    @Incremental
    public void people(SingleNodeTransformContext ctx, @TableInput(SOURCE) IcebergInput in,
        @TableOutput(value = OUT, onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS) IcebergOutput out) {
      run(ctx, in, out);
    }
  }

  /** The same transform, its output kept in step with the rows. */
  public static class Sync {
    @Transform(name = "people")
    @Incremental
    public void people(SingleNodeTransformContext ctx, @TableInput(SOURCE) IcebergInput in,
        @TableOutput(value = OUT, onSchemaChange = SchemaChangePolicy.SYNC_ALL_COLUMNS) IcebergOutput out) {
      run(ctx, in, out);
    }
  }

  /** The same transform, always full. */
  public static class Full {
    @Transform(name = "people")
    public void people(SingleNodeTransformContext ctx, @TableInput(SOURCE) IcebergInput in,
        @TableOutput(OUT) IcebergOutput out) {
      run(ctx, in, out);
    }
  }

  static void run(SingleNodeTransformContext ctx, IcebergInput in, IcebergOutput out) {
    if (out.table().isEmpty()) {
      out.writeTable(in.arrow());
    } else {
      step.accept(ctx, out);
    }
  }

  /** Rows of another shape: the given columns, one row of the given values. */
  static BiConsumer<SingleNodeTransformContext, IcebergOutput> rows(Schema schema, Object... values) {
    return (ctx, out) -> {
      GenericRecord record = GenericRecord.create(schema);
      for (int i = 0; i < values.length; i++) {
        record.set(i, values[i]);
      }
      try (VectorSchemaRoot root = ArrowRecords.toRoot(List.of(record), schema, ctx.allocator())) {
        out.writeTable(root);
      }
    };
  }

  static Types.NestedField column(int id, String name, org.apache.iceberg.types.Type type) {
    return Types.NestedField.optional(id, name, type);
  }

  @BeforeEach
  void setUp() {
    runner = Transforms.open(TransformsConfig.embedded(warehouse));
    catalog = runner.catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("src"));
    Table source = catalog.createTable(TableIdentifier.of(Namespace.of("src"), "people"), PEOPLE);
    SingleNodeEngineTest.append(source, 1, 2);
  }

  @AfterEach
  void tearDown() {
    runner.close();
  }

  /** Everything of the output a reader or a later build could see, and its data and manifest files. */
  private String state() {
    Table table = catalog.loadTable(OUT_ID);
    TableMetadata metadata = ((HasTableOperations) table).operations().current();
    TreeSet<String> files = new TreeSet<>();
    Path folder = Path.of(java.net.URI.create(table.location().replaceFirst("^file:/+", "file:///")));
    try (Stream<Path> walk = Files.walk(folder)) {
      walk.filter(Files::isRegularFile).map(p -> folder.relativize(p).toString())
          .filter(p -> !p.endsWith(".metadata.json")).forEach(files::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return "schema " + metadata.currentSchemaId() + " of " + metadata.schemasById().keySet() + ", spec "
        + metadata.defaultSpecId() + " of " + metadata.specsById().keySet() + ", properties "
        + new TreeMap<>(metadata.properties()) + ", refs " + metadata.refs() + ", snapshots "
        + metadata.snapshots().stream().map(Snapshot::snapshotId).toList() + ", files " + files;
  }

  /**
   * Builds the output once with {@code first} (its first build, which creates it), adds a row to the
   * input, then builds with {@code then} doing {@code step}; checks the refusal names the output and
   * every word expected, and that the output is as it was.
   */
  private void refused(Class<?> first, Class<?> then, BiConsumer<SingleNodeTransformContext, IcebergOutput> what,
      String... words) {
    TransformResult created = only(first);
    assertThat(created.status()).as(String.valueOf(created.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    SingleNodeEngineTest.append(catalog.loadTable(TableIdentifier.of(Namespace.of("src"), "people")), 3);
    String before = state();
    step = what;

    TransformResult result = only(then);

    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    StringBuilder message = new StringBuilder();
    for (Throwable t = result.error().orElseThrow(); t != null; t = t.getCause()) {
      message.append(t.getMessage()).append('\n');
    }
    assertThat(message.toString()).contains(OUT).contains(words);
    assertThat(state()).isEqualTo(before);
  }

  private TransformResult only(Class<?> transform) {
    List<TransformResult> results = new ArrayList<>(runner.build(transform).results());
    assertThat(results).hasSize(1);
    return results.get(0);
  }

  @Test
  void policyFailRefusesANewColumn() {
    refused(Fail.class, Fail.class, rows(new Schema(column(1, "id", Types.LongType.get()),
        column(2, "name", Types.StringType.get()), column(3, "age", Types.IntegerType.get()),
        column(4, "email", Types.StringType.get())), 3L, "c", 30, "c@x"),
        "email: not in the table (rows string)", "policy fail");
  }

  @Test
  void policyFailRefusesAMissingColumn() {
    refused(Fail.class, Fail.class, rows(new Schema(column(1, "id", Types.LongType.get()),
        column(2, "name", Types.StringType.get())), 3L, "c"),
        "age: in the table (int) but not in the rows");
  }

  @Test
  void appendNewColumnsRefusesARequiredColumnMissingFromTheRows() {
    refused(Fail.class, Append.class, rows(new Schema(column(2, "name", Types.StringType.get()),
        column(3, "age", Types.IntegerType.get())), "c", 30),
        "id: required in the table (long) and missing from the rows");
  }

  @Test
  void noPolicyTurnsAColumnIntoAnotherType() {
    refused(Fail.class, Sync.class, rows(new Schema(column(1, "id", Types.LongType.get()),
        column(2, "name", Types.StringType.get()), column(3, "age", Types.StringType.get())), 3L, "c", "thirty"),
        "age: table int, rows string: not a widening", "only a full build");
  }

  @Test
  void appendNewColumnsDoesNotWidenATypeAndSaysWhichPolicyWould() {
    refused(Fail.class, Append.class, rows(new Schema(column(1, "id", Types.LongType.get()),
        column(2, "name", Types.StringType.get()), column(3, "age", Types.LongType.get())), 3L, "c", 30L),
        "age: table int, rows long", "sync_all_columns would");
  }

  @Test
  void syncAllColumnsKeepsAPartitionSourceColumn() {
    refused(Partitioned.class, Partitioned.class, rows(new Schema(column(1, "id", Types.LongType.get()),
        column(3, "age", Types.IntegerType.get())), 3L, 30),
        "name: not in the rows, and it cannot be dropped: it is a partition source");
  }

  @Test
  void syncAllColumnsKeepsAnIdentifierField() {
    refused(Fail.class, Sync.class, (ctx, out) -> {
      out.table().orElseThrow().updateSchema().setIdentifierFields("id").commit();
      rows(new Schema(column(2, "name", Types.StringType.get()), column(3, "age", Types.IntegerType.get())), "c", 30)
          .accept(ctx, out);
    }, "id: not in the rows, and it cannot be dropped", "identifier field");
  }

  @Test
  void anIncrementalBuildDoesNotRepartition() {
    refused(Fail.class, Sync.class, (ctx, out) -> out.partitionedBy(spec -> spec.bucket("id", 4))
        .writeTable(rowsOf(ctx)), "partitioning: the table is partitioned by []", "only a full build re-partitions");
  }

  @Test
  void anIncrementalBuildDoesNotAddARequiredColumn() {
    refused(Fail.class, Sync.class, (ctx, out) -> {
      out.table().orElseThrow().updateSchema().allowIncompatibleChanges()
          .addRequiredColumn("code", Types.StringType.get()).commit();
    }, "code: a required column (string) cannot be added by an incremental build");
  }

  @Test
  void anIncrementalBuildDoesNotMakeAColumnRequired() {
    refused(Fail.class, Sync.class, (ctx, out) -> out.table().orElseThrow().updateSchema().allowIncompatibleChanges()
        .requireColumn("name").commit(), "name: optional in the table", "cannot make it required");
  }

  @Test
  void policyFailRefusesARename() {
    refused(Fail.class, Fail.class, (ctx, out) -> out.table().orElseThrow().updateSchema()
        .renameColumn("name", "full_name").commit(), "name: renamed to full_name", "policy fail does not rename");
  }

  @Test
  void aFullBuildThatDropsThePartitionSourceMustRepartition() {
    refused(Partitioned.class, FullPartitioned.class, rows(new Schema(column(1, "id", Types.LongType.get()),
        column(3, "age", Types.IntegerType.get())), 3L, 30),
        "name: the source of partition field name (identity), and the rows have no such column",
        "partitionedBy(...)");
  }

  @Test
  void aFullBuildPartitionedByAColumnTheRowsLack() {
    refused(Fail.class, Full.class, (ctx, out) -> out.partitionedBy(spec -> spec.day("born")).writeTable(rowsOf(ctx)),
        "Cannot partition output", "born", "columns: [id, name, age]");
  }

  @Test
  void aStagedTableRefusesToMove() {
    refused(Fail.class, Full.class, (ctx, out) -> out.table().orElseThrow().updateLocation().setLocation("/tmp/x")
        .commit(), "A location change", "not allowed during a transform");
  }

  @Test
  void aStagedTableRefusesBranches() {
    refused(Fail.class, Full.class, (ctx, out) -> out.table().orElseThrow().manageSnapshots().createBranch("audit")
        .commit(), "Managing snapshots and branches", "not allowed during a transform");
  }

  @Test
  void nullableRowsIntoARequiredColumnAreNamed() {
    refused(Fail.class, Append.class, (ctx, out) -> {
      Schema nullable = new Schema(column(1, "id", Types.LongType.get()), column(2, "name", Types.StringType.get()),
          column(3, "age", Types.IntegerType.get()));
      GenericRecord record = GenericRecord.create(nullable);
      record.set(1, "nobody");
      try (VectorSchemaRoot root = ArrowRecords.toRoot(List.of(record), nullable, ctx.allocator())) {
        out.writeTable(root);
      }
    }, "column 'id' is nullable in the Arrow data but required in the table");
  }

  @Test
  void anUnknownPolicyIsRefusedNamingTheKeyAndWhereItWasSet() throws IOException {
    Path file = warehouse.resolve("transforms.properties");
    Files.writeString(file, "build.on-schema-change = add_everything\n");
    assertThatThrownBy(() -> TransformsConfig.load(java.util.Optional.of(file), java.util.Optional.of(warehouse),
        Map.of(), warehouse)).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("build.on-schema-change").hasMessageContaining(file.toString())
        .hasMessageContaining("fail, append_new_columns or sync_all_columns").hasMessageContaining("add_everything");
  }

  /** The rows of the input, as they are. */
  static VectorSchemaRoot rowsOf(SingleNodeTransformContext ctx) {
    List<Record> records = new ArrayList<>();
    for (long id : new long[] {1, 2, 3}) {
      GenericRecord record = GenericRecord.create(PEOPLE);
      record.set(0, id);
      record.set(1, "n" + id);
      records.add(record);
    }
    return ArrowRecords.toRoot(records, PEOPLE, ctx.allocator());
  }

  /** An incremental copy into an output partitioned by name, kept in step with its rows. */
  public static class Partitioned {
    @Transform(name = "people")
    @Incremental
    public void people(SingleNodeTransformContext ctx, @TableInput(SOURCE) IcebergInput in,
        @TableOutput(value = OUT, onSchemaChange = SchemaChangePolicy.SYNC_ALL_COLUMNS) IcebergOutput out) {
      if (out.table().isEmpty()) {
        out.partitionedBy(spec -> spec.identity("name")).writeTable(in.arrow());
      } else {
        ShapeRefusalsTest.step.accept(ctx, out);
      }
    }
  }

  /** The same output, built in full. */
  public static class FullPartitioned {
    @Transform(name = "people")
    public void people(SingleNodeTransformContext ctx, @TableInput(SOURCE) IcebergInput in,
        @TableOutput(OUT) IcebergOutput out) {
      run(ctx, in, out);
    }
  }
}
