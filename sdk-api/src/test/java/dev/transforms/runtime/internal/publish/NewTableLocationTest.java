package dev.transforms.runtime.internal.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.TransformsException;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * A new output's location must reach its files on the file IO that writes them: on an object store a {@code #}
 * or {@code ?} cuts the key, which left a table whose files all went to one key and whose metadata was lost.
 */
class NewTableLocationTest {

  private static final Schema SCHEMA = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final TableIdentifier TABLE = TableIdentifier.of("out", "report");

  @Test
  void aNewTableOnAnObjectStoreWhoseLocationHoldsAHashIsRefusedBeforeAnythingIsWritten() {
    InMemoryCatalog catalog = catalog("s3://bucket/C#/warehouse");

    assertThatThrownBy(() -> StagedCreateOperations.start(catalog, TABLE, SCHEMA, PartitionSpec.unpartitioned(),
        Map.of(), "b1", "/out/report"))
        .isInstanceOf(TransformsException.class)
        .hasMessageStartingWith("Cannot create output /out/report: its catalog places it at s3://bucket/C#/warehouse/")
        .hasMessageContaining("holds '#'")
        .hasMessageEndingWith("Give the catalog a warehouse location without '#' or '?'");
    assertThat(catalog.tableExists(TABLE)).isFalse();
  }

  @Test
  void aQuestionMarkIsRefusedToo() {
    assertThatThrownBy(() -> StagedCreateOperations.refuseUriSyntax("gs://bucket/wh?v=1/out/report", "/out/report"))
        .hasMessageContaining("holds '?'");
  }

  @Test
  void aLocalFolderMayHoldEither() {
    InMemoryCatalog catalog = catalog("file:///home/me/C#/warehouse");

    StagedCreateOperations created = StagedCreateOperations.start(catalog, TABLE, SCHEMA, PartitionSpec.unpartitioned(),
        Map.of(), "b1", "/out/report");

    assertThat(created.current().location()).startsWith("file:///home/me/C#/warehouse/");
    StagedCreateOperations.refuseUriSyntax("/home/me/what?/warehouse/out/report", "/out/report");
  }

  private static InMemoryCatalog catalog(String warehouse) {
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize("test", Map.of("warehouse", warehouse));
    catalog.createNamespace(Namespace.of("out"));
    return catalog;
  }
}
