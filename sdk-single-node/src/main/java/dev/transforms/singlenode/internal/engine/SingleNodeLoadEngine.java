package dev.transforms.singlenode.internal.engine;

import dev.transforms.runtime.spi.LoadEngine;
import dev.transforms.runtime.spi.LoadListener;
import dev.transforms.runtime.spi.SourceFile;
import dev.transforms.runtime.spi.TextOptions;
import dev.transforms.singlenode.internal.load.FileLoads;
import dev.transforms.singlenode.internal.memory.ArrowMemory;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;

/**
 * The load engine of {@code transforms load}, without Spark: files are read into Arrow batches and
 * written with {@link dev.transforms.singlenode.arrow.ArrowTableWriter}, in the calling JVM. Found by
 * {@link java.util.ServiceLoader} as a {@link LoadEngine}.
 */
public final class SingleNodeLoadEngine implements LoadEngine {

  /** Creates the engine; {@link java.util.ServiceLoader} calls this. */
  public SingleNodeLoadEngine() {}

  @Override
  public Schema fileSchema(List<SourceFile> files) {
    return FileLoads.parquetSchema(files);
  }

  @Override
  public Schema inferSchema(List<SourceFile> files, TextOptions text) {
    return FileLoads.guessSchema(files, text);
  }

  @Override
  public void check(Schema columns, List<SourceFile> files, TextOptions text) {
    try (BufferAllocator allocator = ArrowMemory.newRoot()) {
      FileLoads.check(columns, files, text, allocator);
    }
  }

  @Override
  public List<DataFile> write(Table table, Schema columns, List<SourceFile> files, TextOptions text,
      LoadListener listener) {
    try (BufferAllocator allocator = ArrowMemory.newRoot()) {
      return FileLoads.write(table, columns, files, text, listener, allocator);
    }
  }
}
