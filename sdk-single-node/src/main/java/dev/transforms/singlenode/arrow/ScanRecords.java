package dev.transforms.singlenode.arrow;

import dev.transforms.singlenode.internal.read.LiveRows;
import dev.transforms.singlenode.internal.threads.CallerRunsExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;

/**
 * The live rows of a table scan as Iceberg generic records, one data file after the other.
 *
 * <p>Each file's live rows come from {@link LiveRows}: only the projected columns (plus those that
 * deletes need), without the rows that position deletes, deletion vectors and equality deletes
 * remove, and only the rows for which the scan's residual filter holds, evaluated row by row.
 * Records are reused between calls to {@link #next()}: a caller must copy what it needs before
 * asking for the next one.
 * Strings are {@code CharSequence}s: {@code String}s, or UTF-8 bytes where the engine's own Parquet
 * reader read the file (its Arrow writers copy bytes either way).
 *
 * <p>Holds open files, not Arrow memory; {@link #close()} closes the current file.
 */
final class ScanRecords implements CloseableIterator<Record> {
  private final Table table;
  private final Schema tableSchema;
  private final Schema projection;
  private final boolean caseSensitive;
  private final NameMapping nameMapping;
  private final List<FileScanTask> tasks;
  private final Iterator<FileScanTask> taskIterator;
  // the file open now, and its rows: closing only the iterator would leave the engine's Parquet
  // cursor, and its input stream, open
  private CloseableIterable<Record> currentFile;
  private CloseableIterator<Record> current;
  private long bytesOpened;
  private boolean closed;

  /**
   * Plans the scan's files; files are opened one by one as rows are consumed.
   *
   * @param scan the scan, with its filter, projection, snapshot and case sensitivity
   * @throws UncheckedIOException if the table's manifests cannot be read
   */
  ScanRecords(TableScan scan) {
    this.table = scan.table();
    this.tableSchema = table.schema();
    this.projection = scan.schema();
    this.caseSensitive = scan.isCaseSensitive();
    String mapping = table.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
    this.nameMapping = mapping != null ? NameMappingParser.fromJson(mapping) : null;
    this.tasks = new ArrayList<>();
    TableScan inCaller = scan.snapshot() == null ? scan : CallerRunsExecutor.planInCallerWhenSmall(scan);
    try (CloseableIterable<FileScanTask> planned = inCaller.planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan the scan of " + table.name(), e);
    }
    this.taskIterator = tasks.iterator();
  }

  /**
   * An upper bound of the rows this scan returns: the rows of its data files, before deletes and
   * the row filter.
   */
  long maxRowCount() {
    long rows = 0;
    for (FileScanTask task : tasks) {
      rows += task.file().recordCount();
    }
    return rows;
  }

  /** The scan's files, in scan order. */
  List<FileScanTask> tasks() {
    return tasks;
  }

  /** The table scanned. */
  Table table() {
    return table;
  }

  /**
   * The live rows of one file of the scan, apart from this iterator: for a reader that takes some
   * files another way.
   */
  CloseableIterable<Record> recordsOf(FileScanTask task) {
    bytesOpened += task.file().fileSizeInBytes();
    return open(task);
  }

  /** The schema the records follow, before extra columns that deletes need are appended. */
  Schema projection() {
    return projection;
  }

  /** The total size in bytes of the data files opened so far. */
  long bytesOpened() {
    return bytesOpened;
  }

  @Override
  public boolean hasNext() {
    if (closed) {
      return false;
    }
    while (current == null || !current.hasNext()) {
      closeCurrent();
      if (!taskIterator.hasNext()) {
        return false;
      }
      FileScanTask task = taskIterator.next();
      bytesOpened += task.file().fileSizeInBytes();
      this.currentFile = open(task);
      this.current = currentFile.iterator();
    }
    return true;
  }

  @Override
  public Record next() {
    if (!hasNext()) {
      throw new NoSuchElementException("No more rows in the scan of " + table.name());
    }
    return current.next();
  }

  private CloseableIterable<Record> open(FileScanTask task) {
    // one record refilled per row, strings as the bytes read where the engine's own reader reads
    // the file: the Arrow writers copy each value out before the next row
    return LiveRows.ofScan(table.io(), tableSchema, task, projection, caseSensitive, nameMapping)
        .records(true, true);
  }

  private void closeCurrent() {
    if (currentFile != null) {
      try (CloseableIterable<Record> file = currentFile; CloseableIterator<Record> rows = current) {
        this.currentFile = null;
        this.current = null;
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot close a data file of " + table.name(), e);
      }
    }
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    this.closed = true;
    closeCurrent();
  }
}
