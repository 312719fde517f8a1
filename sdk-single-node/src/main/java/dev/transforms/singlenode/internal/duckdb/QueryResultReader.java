package dev.transforms.singlenode.internal.duckdb;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The reader a query hands to the user: the batches of DuckDB's Arrow export, moved (not copied) into a
 * root of its own, and a close that may run twice. The user may close it early (in a try-with-resources)
 * and the session closes it again when the transform returns; the C stream under DuckDB's reader is
 * released once, which it insists on.
 */
public final class QueryResultReader extends ArrowReader {

  private final ArrowReader source;
  private boolean sourceClosed;

  public QueryResultReader(BufferAllocator allocator, ArrowReader source) {
    super(allocator);
    this.source = source;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    VectorSchemaRoot into = getVectorSchemaRoot();
    if (sourceClosed || !source.loadNextBatch()) {
      into.setRowCount(0);
      return false;
    }
    VectorSchemaRoot from = source.getVectorSchemaRoot();
    List<FieldVector> targets = into.getFieldVectors();
    for (int i = 0; i < targets.size(); i++) {
      from.getVector(i).makeTransferPair(targets.get(i)).transfer();
    }
    into.setRowCount(from.getRowCount());
    return true;
  }

  @Override
  public long bytesRead() {
    return source.bytesRead();
  }

  @Override
  protected void closeReadSource() throws IOException {
    if (!sourceClosed) {
      sourceClosed = true;
      source.close();
    }
  }

  @Override
  protected Schema readSchema() throws IOException {
    return source.getVectorSchemaRoot().getSchema();
  }

  // Dictionary-encoded columns (DuckDB ENUMs) index the source's dictionaries.

  @Override
  public Map<Long, Dictionary> getDictionaryVectors() throws IOException {
    return source.getDictionaryVectors();
  }

  @Override
  public Dictionary lookup(long id) {
    return source.lookup(id);
  }

  @Override
  public Set<Long> getDictionaryIds() {
    return source.getDictionaryIds();
  }
}
