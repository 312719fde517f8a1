package dev.transforms.singlenode;

import dev.transforms.singlenode.arrow.ArrowSchemas;
import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;

/** Streams Iceberg generic records as Arrow batches of a bounded size. */
final class RecordBatchReader extends ArrowReader {

  private final Schema schema;
  private final CloseableIterable<Record> records;
  private final int batchSize;
  private CloseableIterator<Record> iterator;

  RecordBatchReader(BufferAllocator allocator, Schema schema, CloseableIterable<Record> records, int batchSize) {
    super(allocator);
    if (batchSize <= 0) {
      throw new IllegalArgumentException("batchSize must be positive, not " + batchSize);
    }
    this.schema = schema;
    this.records = records;
    this.batchSize = batchSize;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    if (iterator == null) {
      iterator = records.iterator();
    }
    return ArrowBridge.fill(schema, getVectorSchemaRoot(), iterator, batchSize) > 0;
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() throws IOException {
    if (iterator != null) {
      iterator.close();
    }
    records.close();
  }

  @Override
  protected org.apache.arrow.vector.types.pojo.Schema readSchema() {
    return ArrowSchemas.toArrow(schema);
  }
}
