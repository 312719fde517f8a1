package dev.transforms.singlenode.internal.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.singlenode.arrow.ArrowTableReader;
import dev.transforms.singlenode.edits.RowEdits;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Warehouses in folders whose names URIs escape, as users' folders often are ({@code My Project}): the
 * embedded catalog keeps the tables' files in the warehouse folder itself, and the engine finds them there, so
 * that its page decoder reads them and its page copy rewrites them. Iceberg's Hadoop file IO, Spark and
 * PyIceberg take a location's path as it is written, never decoding an escape.
 */
class LocalWarehousePathsTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()));

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"My Project", "100%25 sure", "a%41b"})
  void theFilesOfATableAreInTheWarehouseFolderAndTheEngineReadsThemNatively(String folder) throws Exception {
    Path warehouse = dir.resolve(folder).resolve("warehouse");
    try (Catalogs catalogs = new Catalogs(TransformsConfig.embedded(warehouse));
        RootAllocator allocator = new RootAllocator()) {
      Catalogs.createNamespaceIfMissing(catalogs.catalog("local"), Namespace.of("Shop"));
      Table table = catalogs.catalog("local").createTable(TableIdentifier.of("Shop", "orders"), SCHEMA,
          PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
      List<Record> rows = new ArrayList<>();
      for (long id = 0; id < 2_000; id++) {
        GenericRecord row = GenericRecord.create(SCHEMA);
        row.setField("id", id);
        row.setField("name", "name " + id);
        rows.add(row);
      }
      RowEdits.on(table).append(rows);

      long decoded = ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER);
      try (VectorSchemaRoot root = ArrowTableReader.of(table).readAll(allocator)) {
        assertThat(root.getRowCount()).isEqualTo(2_000);
      }
      assertThat(ReadPlanner.standard().reads(ReadStrategy.PAGE_DECODER)).as("reads by the page decoder")
          .isEqualTo(decoded + 1);

      long copied = RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY);
      assertThat(RowEdits.on(table).withPlanner(RewritePlanner.standard().forced(RewriteStrategy.PAGE_COPY))
          .delete("id >= 100 and id < 200")).isEqualTo(100);
      assertThat(RewritePlanner.standard().rewrites(RewriteStrategy.PAGE_COPY)).as("rewrites by the page copy")
          .isEqualTo(copied + 1);

      table.refresh();
      try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
        for (FileScanTask task : tasks) {
          Path file = DirectScan.localPath(task.file().location()).orElseThrow();
          assertThat(file).as("data file %s", task.file().location()).startsWith(warehouse).exists();
          assertThat(table.io().newInputFile(task.file().location()).getLength()).isEqualTo(file.toFile().length());
        }
      }
      try (VectorSchemaRoot root = ArrowTableReader.of(table).readAll(allocator)) {
        assertThat(root.getRowCount()).isEqualTo(1_900);
      }
    }
  }
}
