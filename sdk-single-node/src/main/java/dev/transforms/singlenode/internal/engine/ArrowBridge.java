package dev.transforms.singlenode.internal.engine;

import dev.transforms.singlenode.internal.read.LiveRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * The engine's own reader of the rows appended between two snapshots, which the Arrow IO of {@code
 * dev.transforms.singlenode.arrow} does not offer (its reader takes a {@code TableScan}, and an
 * incremental append scan is not one). Reads the live rows of each appended Parquet data file with
 * {@link LiveRows}.
 */
final class ArrowBridge {

  private ArrowBridge() {}

  /**
   * Reads the live rows of the data files appended after {@code from} (exclusive) up to {@code to}.
   *
   * @return records laid out by {@code schema}
   * @throws UnsupportedOperationException if an appended data file is not a Parquet file
   */
  static List<Record> appendedRows(Table table, long from, long to, Schema schema) {
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newIncrementalAppendScan().fromSnapshotExclusive(from).toSnapshot(to).project(schema).planFiles()) {
      for (FileScanTask task : tasks) {
        if (task.file().format() != FileFormat.PARQUET) {
          throw new UnsupportedOperationException("The single-node engine reads added rows from Parquet data files"
              + " only, not " + task.file().location());
        }
        // each row a record of its own: it is laid out anew, and nested values are not copied
        try (CloseableIterable<Record> records =
            LiveRows.of(table.io(), table.schema(), task, schema).records(false, false)) {
          for (Record record : records) {
            rows.add(relayout(record, schema));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the rows added to " + table.name(), e);
    }
    return rows;
  }

  /** Copies a record read with a possibly wider schema into a new record of {@code schema}, by name. */
  private static Record relayout(Record record, Schema schema) {
    GenericRecord copy = GenericRecord.create(schema);
    List<Types.NestedField> columns = schema.columns();
    for (int c = 0; c < columns.size(); c++) {
      copy.set(c, record.getField(columns.get(c).name()));
    }
    return copy;
  }
}
