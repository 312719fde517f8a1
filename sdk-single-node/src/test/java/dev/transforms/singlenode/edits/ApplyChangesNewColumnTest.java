package dev.transforms.singlenode.edits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.Incremental;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.singlenode.Changelog;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
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
 * An input that gains an optional column keeps slowly changing dimensions incremental, and their
 * incremental builds must then give the rows a full build gives: the new column with its values. They
 * used to keep the output's old columns and drop the new values. The output takes the column as its
 * schema-change policy allows: added under {@code append_new_columns}, a failed build naming it under
 * the default {@code fail}.
 */
public class ApplyChangesNewColumnTest {

  static final String SOURCE = "/src/customers";
  static final TableIdentifier SOURCE_ID = TableIdentifier.of(Namespace.of("src"), "customers");
  static final Schema CUSTOMERS = new Schema(List.of(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()),
      Types.NestedField.optional(3, "seq", Types.LongType.get())), Set.of(1));

  /** Both dimensions, their outputs taking new columns. */
  public static class Dimensions {
    @Transform(name = "latest")
    @Incremental(changes = true)
    public void latest(SingleNodeTransformContext ctx, @TableInput(SOURCE) IcebergInput in,
        @TableOutput(value = "/out/latest", onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS) IcebergOutput out) {
      ApplyChanges.scd1("id").sequenceBy("seq").applyTo(ctx, out, in.changes());
    }

    @Transform(name = "history")
    @Incremental(changes = true)
    public void history(SingleNodeTransformContext ctx, @TableInput(SOURCE) IcebergInput in,
        @TableOutput(value = "/out/history", onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS) IcebergOutput out) {
      ApplyChanges.scd2("id").sequenceBy("seq").applyTo(ctx, out, in.changes());
    }
  }

  /** Type 1 under the default policy, {@code fail}. */
  public static class Strict {
    @Transform(name = "latest-strict")
    @Incremental(changes = true)
    public void latest(SingleNodeTransformContext ctx, @TableInput(SOURCE) IcebergInput in,
        @TableOutput("/out/latest-strict") IcebergOutput out) {
      ApplyChanges.scd1("id").sequenceBy("seq").applyTo(ctx, out, in.changes());
    }
  }

  @TempDir Path warehouse;
  Transforms runner;
  Catalog catalog;

  @BeforeEach
  void setUp() {
    runner = Transforms.open(TransformsConfig.embedded(warehouse));
    catalog = runner.catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("src"));
    Table source = catalog.createTable(SOURCE_ID, CUSTOMERS);
    RowEdits.on(source).append(List.of(customer(source, 1, "Ada", 1, null), customer(source, 2, "Bo", 1, null)));
  }

  @AfterEach
  void tearDown() {
    runner.close();
  }

  @Test
  void anIncrementalBuildKeepsTheValuesOfANewInputColumn() {
    assertThat(runner.build(Dimensions.class).succeeded()).isTrue();
    Table source = catalog.loadTable(SOURCE_ID);
    source.updateSchema().addColumn("email", Types.StringType.get()).commit();
    source = catalog.loadTable(SOURCE_ID);
    RowEdits.on(source).upsert(List.of(customer(source, 2, "Bo", 2, "bo@x"), customer(source, 3, "Cy", 2, "cy@x")),
        List.of("id"));

    BuildReport report = runner.build(Dimensions.class);

    for (TransformResult result : report.results()) {
      assertThat(result.status()).as(report.format()).isEqualTo(TransformResult.Status.SUCCEEDED);
      assertThat(result.incremental()).as(result.reason()).isTrue();
    }
    assertThat(rows("latest")).containsExactlyInAnyOrder("1 Ada 1 null", "2 Bo 2 bo@x", "3 Cy 2 cy@x");
    assertThat(rows("history")).containsExactlyInAnyOrder("1 Ada 1 null", "2 Bo 1 null", "2 Bo 2 bo@x",
        "3 Cy 2 cy@x");
  }

  @Test
  void underPolicyFailTheBuildFailsNamingTheNewColumn() {
    assertThat(runner.build(Strict.class).succeeded()).isTrue();
    Table source = catalog.loadTable(SOURCE_ID);
    source.updateSchema().addColumn("email", Types.StringType.get()).commit();
    source = catalog.loadTable(SOURCE_ID);
    RowEdits.on(source).upsert(List.of(customer(source, 2, "Bo", 2, "bo@x")), List.of("id"));

    TransformResult result = runner.build(Strict.class).results().get(0);

    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.error().orElseThrow()).hasMessageContaining("/out/latest-strict").hasMessageContaining("email");
    assertThat(rows("latest-strict")).containsExactlyInAnyOrder("1 Ada 1", "2 Bo 1");
  }

  @Test
  void appliedDirectlyToATableThatLacksTheNewColumnTheChangesAreRefusedNamingIt() {
    assertThat(runner.build(Strict.class).succeeded()).isTrue();
    Table dimension = catalog.loadTable(TableIdentifier.of(Namespace.of("out"), "latest-strict"));
    long before = dimension.currentSnapshot().snapshotId();
    Table source = catalog.loadTable(SOURCE_ID);
    long read = source.currentSnapshot().snapshotId();
    source.updateSchema().addColumn("email", Types.StringType.get()).commit();
    source = catalog.loadTable(SOURCE_ID);
    RowEdits.on(source).upsert(List.of(customer(source, 2, "Bo", 2, "bo@x")), List.of("id"));
    source = catalog.loadTable(SOURCE_ID);

    Changelog changes = Changelog.of(source).between(java.util.OptionalLong.of(read), source.currentSnapshot().snapshotId());
    assertThatThrownBy(() -> RowEdits.on(dimension).applyChanges(changes, ApplyChanges.scd1("id").sequenceBy("seq")))
        .isInstanceOf(InvalidRowEditException.class)
        .hasMessageContaining("carry column email that the table lacks, and their values would be lost");

    dimension.refresh();
    assertThat(dimension.currentSnapshot().snapshotId()).isEqualTo(before);
    assertThat(rows("latest-strict")).containsExactlyInAnyOrder("1 Ada 1", "2 Bo 1");
  }

  private List<String> rows(String output) {
    Table table = catalog.loadTable(TableIdentifier.of(Namespace.of("out"), output));
    List<String> names = table.schema().columns().stream().map(Types.NestedField::name)
        .filter(name -> !name.startsWith("valid_") && !name.equals("is_current")).toList();
    List<String> rows = new ArrayList<>();
    for (Record row : RowEditsTables.read(table)) {
      rows.add(String.join(" ", names.stream().map(name -> String.valueOf(row.getField(name))).toList()));
    }
    return rows;
  }

  private static Record customer(Table table, long id, String name, long seq, String email) {
    Record record = GenericRecord.create(table.schema());
    record.setField("id", id);
    record.setField("name", name);
    record.setField("seq", seq);
    if (table.schema().findField("email") != null) {
      record.setField("email", email);
    }
    return record;
  }
}
