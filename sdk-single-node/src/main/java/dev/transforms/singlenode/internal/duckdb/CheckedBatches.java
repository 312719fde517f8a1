package dev.transforms.singlenode.internal.duckdb;

import dev.transforms.api.TransformsException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.iceberg.DoubleFieldMetrics;
import org.apache.iceberg.FieldMetrics;
import org.apache.iceberg.FloatFieldMetrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The batches of a source, passed on to DuckDB as they are, checked and measured on the way: a required
 * column holding a null fails the read (Arrow does not enforce non-nullable fields, nor does DuckDB's
 * COPY), and float and double columns get the metrics Iceberg's Java writer keeps for them (NaN count,
 * bounds without NaN), which a Parquet footer does not hold. The source is neither closed nor read
 * beyond the batches passed on.
 *
 * <p>With a byte limit, the batches stop (end of stream for DuckDB) once the Arrow size of the batches
 * passed on reaches it; {@link #stoppedAtLimit()} then tells the caller to read on into another file.
 */
final class CheckedBatches extends ArrowReader {

  private final ArrowReader source;
  private final Schema schema;
  private final String tableName;
  private final long byteLimit;
  private final List<Types.NestedField> floats = new ArrayList<>();
  private final List<FloatFieldMetrics.Builder> floatMetrics = new ArrayList<>();
  private final List<DoubleFieldMetrics.Builder> doubleMetrics = new ArrayList<>();
  private final List<Types.NestedField> doubles = new ArrayList<>();
  private final List<long[]> floatNulls = new ArrayList<>();
  private final List<long[]> doubleNulls = new ArrayList<>();
  private long bytes;
  private long rows;
  private boolean stoppedAtLimit;
  private RuntimeException failure;

  CheckedBatches(BufferAllocator allocator, ArrowReader source, Schema schema, String tableName, long byteLimit) {
    super(allocator);
    this.source = source;
    this.schema = schema;
    this.tableName = tableName;
    this.byteLimit = byteLimit;
    for (Types.NestedField column : schema.columns()) {
      if (column.type().typeId() == Type.TypeID.FLOAT) {
        floats.add(column);
        floatMetrics.add(new FloatFieldMetrics.Builder(column.fieldId()));
        floatNulls.add(new long[1]);
      } else if (column.type().typeId() == Type.TypeID.DOUBLE) {
        doubles.add(column);
        doubleMetrics.add(new DoubleFieldMetrics.Builder(column.fieldId()));
        doubleNulls.add(new long[1]);
      }
    }
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    VectorSchemaRoot out = getVectorSchemaRoot();
    if (failure != null || bytes >= byteLimit) {
      stoppedAtLimit = failure == null;
      out.setRowCount(0);
      return false;
    }
    try {
      if (!source.loadNextBatch()) {
        out.setRowCount(0);
        return false;
      }
      VectorSchemaRoot in = source.getVectorSchemaRoot();
      check(in);
      for (FieldVector vector : in.getFieldVectors()) {
        bytes += vector.getBufferSize();
      }
      rows += in.getRowCount();
      try (ArrowRecordBatch batch = new VectorUnloader(in).getRecordBatch()) {
        new VectorLoader(out).load(batch);
      }
      return true;
    } catch (IOException | RuntimeException e) {
      failure = e instanceof RuntimeException runtime ? runtime
          : new java.io.UncheckedIOException("Cannot read the rows to write to " + tableName, (IOException) e);
      throw e;
    }
  }

  private void check(VectorSchemaRoot batch) {
    for (Types.NestedField column : schema.columns()) {
      FieldVector vector = batch.getVector(column.name());
      if (column.isRequired() && (vector == null || vector.getNullCount() > 0)) {
        int row = 0;
        while (vector != null && !vector.isNull(row)) {
          row++;
        }
        throw new TransformsException(String.format(
            "Column '%s' of table %s is required, but row %d of the Arrow data is null",
            column.name(), tableName, rows + row));
      }
    }
    for (int i = 0; i < floats.size(); i++) {
      if (batch.getVector(floats.get(i).name()) instanceof Float4Vector vector) {
        FloatFieldMetrics.Builder metrics = floatMetrics.get(i);
        floatNulls.get(i)[0] += vector.getNullCount();
        for (int row = 0, n = vector.getValueCount(); row < n; row++) {
          if (!vector.isNull(row)) {
            metrics.addValue(vector.get(row));
          }
        }
      }
    }
    for (int i = 0; i < doubles.size(); i++) {
      if (batch.getVector(doubles.get(i).name()) instanceof Float8Vector vector) {
        DoubleFieldMetrics.Builder metrics = doubleMetrics.get(i);
        doubleNulls.get(i)[0] += vector.getNullCount();
        for (int row = 0, n = vector.getValueCount(); row < n; row++) {
          if (!vector.isNull(row)) {
            metrics.addValue(vector.get(row));
          }
        }
      }
    }
  }

  /** The first failure of reading or checking a batch, which DuckDB only sees as a message. */
  RuntimeException failure() {
    return failure;
  }

  /** Whether the batches stopped at the byte limit, the source possibly holding more. */
  boolean stoppedAtLimit() {
    return stoppedAtLimit;
  }

  /** The rows passed on. */
  long rows() {
    return rows;
  }

  /**
   * The metrics of the float and double columns as Iceberg's Java writer keeps them: its builders give
   * the NaN count and the bounds without NaN; the value count, as in Iceberg's writer, counts nulls too.
   */
  Stream<FieldMetrics<?>> fieldMetrics() {
    List<FieldMetrics<?>> metrics = new ArrayList<>();
    for (int i = 0; i < floatMetrics.size(); i++) {
      metrics.add(withNulls(floatMetrics.get(i).build(), floatNulls.get(i)[0]));
    }
    for (int i = 0; i < doubleMetrics.size(); i++) {
      metrics.add(withNulls(doubleMetrics.get(i).build(), doubleNulls.get(i)[0]));
    }
    return metrics.stream();
  }

  private static <T> FieldMetrics<T> withNulls(FieldMetrics<T> values, long nulls) {
    return new FieldMetrics<>(values.id(), values.valueCount() + nulls, nulls, values.nanValueCount(),
        values.lowerBound(), values.upperBound());
  }

  @Override
  public long bytesRead() {
    return bytes;
  }

  @Override
  protected void closeReadSource() {
    // the source belongs to the caller
  }

  @Override
  protected org.apache.arrow.vector.types.pojo.Schema readSchema() throws IOException {
    return source.getVectorSchemaRoot().getSchema();
  }
}
