package dev.transforms.singlenode.arrow;

import dev.transforms.singlenode.parquet.LocalDeleteFilter;
import dev.transforms.singlenode.parquet.ParquetRowCursor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.formats.ReadBuilder;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.util.PartitionUtil;

/**
 * The live rows of a table scan as Iceberg generic records, one data file after the other.
 *
 * <p>For each file it reads only the projected columns (plus those that deletes need), drops the
 * rows that position deletes, deletion vectors and equality deletes remove, and keeps only the rows
 * for which the scan's residual filter holds, evaluated row by row. Records are reused between
 * calls to {@link #next()}: a caller must copy what it needs before asking for the next one.
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
    try (CloseableIterable<FileScanTask> planned = scan.planFiles()) {
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
    // loads a file's few delete files in this thread, not through Iceberg's polling worker pool
    DeleteFilter<Record> deletes = new LocalDeleteFilter(table.io(), task, tableSchema, projection);
    Schema readSchema = deletes.requiredSchema();
    Map<Integer, ?> constants =
        PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant);

    // Whole files of flat tables without a row filter: the engine's own Parquet reader, faster than
    // Iceberg's, skipping deleted positions itself. With a filter, Iceberg's reader also skips row
    // groups by their statistics.
    boolean noResidual = task.residual() == null || task.residual().op() == Expression.Operation.TRUE;
    if (noResidual && !deletes.hasEqDeletes() && nameMapping == null) {
      ParquetRowCursor cursor =
          ParquetRowCursor.open(table.io().newInputFile(task.file()), task, readSchema, constants);
      if (cursor != null) {
        return cursor.records(deletes.hasPosDeletes() ? deletes.deletedRowPositions() : null, false, true);
      }
    }

    ReadBuilder<Record, ?> builder =
        FormatModelRegistry.readBuilder(
            task.file().format(), Record.class, table.io().newInputFile(task.file()));
    builder =
        builder
            .reuseContainers()
            .project(readSchema)
            .idToConstant(constants)
            .split(task.start(), task.length())
            .caseSensitive(caseSensitive)
            .filter(task.residual());
    if (nameMapping != null) {
      builder = builder.withNameMapping(nameMapping);
    }

    CloseableIterable<Record> records = builder.build();
    records = deletes.filter(records);
    Expression residual = task.residual();
    if (residual != null && !residual.equals(Expressions.alwaysTrue())) {
      // The file reader only skips row groups; the residual must still be checked row by row.
      InternalRecordWrapper wrapper = new InternalRecordWrapper(readSchema.asStruct());
      Evaluator evaluator = new Evaluator(readSchema.asStruct(), residual, caseSensitive);
      records = CloseableIterable.filter(records, record -> evaluator.eval(wrapper.wrap(record)));
    }
    return records;
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
