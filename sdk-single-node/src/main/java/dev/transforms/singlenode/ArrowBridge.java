package dev.transforms.singlenode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

/**
 * The engine's own reader of the rows appended between two snapshots, which the Arrow IO of {@code
 * dev.transforms.singlenode.arrow} does not offer (its reader takes a {@code TableScan}, and an
 * incremental append scan is not one). Reads Parquet data files with Iceberg's generic readers and
 * applies their delete files.
 */
final class ArrowBridge {

  private ArrowBridge() {}

  /**
   * Reads the live rows of the data files appended after {@code from} (exclusive) up to {@code to}.
   *
   * @return records laid out by {@code schema}
   */
  static List<Record> appendedRows(Table table, long from, long to, Schema schema) {
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newIncrementalAppendScan().fromSnapshotExclusive(from).toSnapshot(to).project(schema).planFiles()) {
      for (FileScanTask task : tasks) {
        try (CloseableIterable<Record> records = readTask(table, task, schema)) {
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

  private static CloseableIterable<Record> readTask(Table table, FileScanTask task, Schema projection) {
    if (task.file().format() != FileFormat.PARQUET) {
      throw new UnsupportedOperationException("The single-node engine reads added rows from Parquet data files"
          + " only, not " + task.file().location());
    }
    GenericDeleteFilter deletes = task.deletes().isEmpty() ? null
        : new GenericDeleteFilter(table.io(), task, table.schema(), projection);
    Schema read = deletes == null ? projection : deletes.requiredSchema();
    CloseableIterable<Record> records = readDataFile(table, task.file(), task.start(), task.length(), read);
    return deletes == null ? records : deletes.filter(records);
  }

  /** Reads a slice of a Parquet data file as it was written, no delete applied. */
  static CloseableIterable<Record> readDataFile(Table table, DataFile file, long start, long length, Schema read) {
    if (file.format() != FileFormat.PARQUET) {
      throw new UnsupportedOperationException("The single-node engine reads Parquet data files only, not "
          + file.location());
    }
    return Parquet.read(table.io().newInputFile(file.location()))
        .project(read)
        .split(start, length)
        .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(read, fileSchema))
        .build();
  }
}
