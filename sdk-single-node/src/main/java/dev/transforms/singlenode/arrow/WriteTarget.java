package dev.transforms.singlenode.arrow;

import dev.transforms.api.TransformsException;
import dev.transforms.singlenode.internal.duckdb.DuckDbWritePlan;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.arrow.vector.FieldVector;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * The files an {@link ArrowTableWriter} writes into, as its write strategies ({@link DuckDbWrite}, {@link
 * TwoLaneWrite}, {@link RowByRowWrite}) use them: the table's schema and partitioning, Iceberg's writer of
 * the files, and DuckDB's plan when DuckDB may write.
 *
 * @param table the table
 * @param schema the table's schema, the files'
 * @param writer the files of Iceberg's writer
 * @param partitionKey the key rows are partitioned by; null for an unpartitioned table
 * @param wrapper the wrapper rows are partitioned through; null for an unpartitioned table
 * @param requiredPositions the positions of the required columns
 * @param duckDb how DuckDB writes the table's files; null when it does not
 * @param fileFactory names the files DuckDB writes
 * @param duckDbByteLimit the Arrow size of the rows of one file DuckDB writes, at most
 */
record WriteTarget(Table table, Schema schema, IcebergFileWriter writer, PartitionKey partitionKey,
    InternalRecordWrapper wrapper, int[] requiredPositions, DuckDbWritePlan duckDb, OutputFileFactory fileFactory,
    long duckDbByteLimit) {

  /** Whether rows go to the files of their partitions. */
  boolean partitioned() {
    return partitionKey != null;
  }

  /** Converts rows {@code [from, to)} of the vectors to records, one reused record, for a sink. */
  void writeRows(Map<String, FieldVector> byName, int from, int to, Consumer<Record> sink) {
    ArrowValueReaders.RowReader reader = new ArrowValueReaders.RowReader(schema.asStruct(), byName);
    Record record = GenericRecord.create(schema);
    for (int row = from; row < to; row++) {
      reader.read(row, record);
      checkRequired(record, row);
      sink.accept(record);
    }
  }

  private void checkRequired(Record record, int row) {
    for (int position : requiredPositions) {
      if (record.get(position) == null) {
        throw new TransformsException(
            String.format(
                "Column '%s' of table %s is required, but row %d of the Arrow data is null;"
                    + " the files written so far are deleted when the writer is closed",
                schema.columns().get(position).name(), table.name(), row));
      }
    }
  }
}
