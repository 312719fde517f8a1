package dev.transforms.singlenode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.Incremental;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.singlenode.edits.RowEdits;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.VectorSchemaRoot;
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
 * A column renamed after the input's last commit: the snapshot the last build read and the one the next
 * build reads share a schema, but changes are read in the table's schema now, under the new name. An
 * incremental build would append rows under the new name to rows under the old one; the build must be
 * full and say why, and then hold every change under the new name, as a full build does.
 */
public class ChangesAfterRenameTest {

  static final String SOURCE = "/src/customers";
  static final TableIdentifier SOURCE_ID = TableIdentifier.of(Namespace.of("src"), "customers");
  static final TableIdentifier OUT_ID = TableIdentifier.of(Namespace.of("out"), "changes");
  static final Schema CUSTOMERS = new Schema(List.of(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get())), Set.of(1));

  /** Writes the changes each build reads; its output takes new columns. */
  public static class RawChanges {
    @Transform(name = "changes")
    @Incremental(changes = true)
    public void changes(SingleNodeTransformContext ctx, @TableInput(SOURCE) IcebergInput in,
        @TableOutput(value = "/out/changes", onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS) IcebergOutput out) {
      try (VectorSchemaRoot changes = in.changes().toArrow(ctx.allocator())) {
        out.writeTable(changes);
      }
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
    RowEdits.on(source).append(List.of(customer(source, 1, "Ada"), customer(source, 2, "Bo")));
  }

  @AfterEach
  void tearDown() {
    runner.close();
  }

  @Test
  void aColumnRenamedAfterTheLastCommitMakesTheNextBuildFull() {
    assertThat(runner.build(RawChanges.class).succeeded()).isTrue();
    Table source = catalog.loadTable(SOURCE_ID);
    RowEdits.on(source).upsert(List.of(customer(source, 2, "Bea")), List.of("id"));
    catalog.loadTable(SOURCE_ID).updateSchema().renameColumn("name", "label").commit();

    TransformResult result = runner.build(RawChanges.class).results().get(0);

    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(result.incremental()).isFalse();
    assertThat(result.reason()).contains("input " + SOURCE + " schema changed").contains("label");
    Table out = catalog.loadTable(OUT_ID);
    assertThat(out.schema().findField("name")).isNull();
    assertThat(out.schema().findField("label")).isNotNull();
  }

  private static Record customer(Table table, long id, String name) {
    Record record = GenericRecord.create(table.schema());
    record.setField("id", id);
    record.setField("name", name);
    return record;
  }
}
