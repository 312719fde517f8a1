package dev.transforms.singlenode.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.iceberg.shaded.org.apache.parquet.io.LocalInputFile;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code writeTable} of an {@code ArrowReader} has its Parquet file written by DuckDB unless the
 * configuration says {@code duckdb.parquet=false}; the rows are the same either way.
 */
public class DuckDbWriteTableTest {
  static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()),
      Types.NestedField.optional(3, "score", Types.DoubleType.get()));

  @TempDir Path dir;

  /** Copies its input to its output, batch by batch. */
  public static class Copy {
    @Transform(name = "copy")
    public void copy(@TableInput("/app/source") IcebergInput source, @TableOutput("/app/copied") IcebergOutput out) {
      out.writeTable(source.arrowReader(100));
    }
  }

  @Test
  void theConfigurationChoosesTheWriter() throws IOException {
    List<Record> rows = new ArrayList<>();
    for (long i = 0; i < 1_000; i++) {
      rows.add(SqlTables.row(SCHEMA, i, i % 9 == 0 ? null : "n" + i, i % 7 == 0 ? Double.NaN : i * 0.5));
    }
    try (Transforms runner = open("")) {
      Catalog catalog = runner.catalog("local");
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("app"));
      Table source = catalog.createTable(TableIdentifier.of("app", "source"), SCHEMA, PartitionSpec.unpartitioned());
      SqlTables.append(source, rows);
      assertThat(runner.build(Copy.class).results().get(0).error()).isEmpty();
      Table copied = catalog.loadTable(TableIdentifier.of("app", "copied"));
      assertThat(createdBy(copied)).singleElement().asString().containsIgnoringCase("duckdb");
      assertThat(SqlTables.read(copied)).containsExactlyElementsOf(rows);
    }
    try (Transforms runner = open("duckdb.parquet=false\n")) {
      assertThat(runner.build(Copy.class).results().get(0).error()).isEmpty();
      Table copied = runner.catalog("local").loadTable(TableIdentifier.of("app", "copied"));
      assertThat(createdBy(copied)).singleElement().asString().doesNotContainIgnoringCase("duckdb");
      assertThat(SqlTables.read(copied)).containsExactlyElementsOf(rows);
    }
  }

  private static List<String> createdBy(Table table) throws IOException {
    List<String> writers = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        String location = task.file().location();
        Path path = location.startsWith("file:") ? Path.of(java.net.URI.create(location.replaceFirst("^file:/+", "file:///")))
            : Path.of(location);
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(path))) {
          writers.add(reader.getFooter().getFileMetaData().getCreatedBy());
        }
      }
    }
    return writers;
  }

  private Transforms open(String properties) throws IOException {
    Path file = dir.resolve("transforms.properties");
    Files.writeString(file, "warehouse=" + dir.resolve("warehouse") + "\n" + properties);
    return Transforms.open(TransformsConfig.load(Optional.of(file), Optional.empty(), Map.of(), dir));
  }
}
