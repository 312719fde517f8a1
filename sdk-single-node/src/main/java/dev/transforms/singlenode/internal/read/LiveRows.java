package dev.transforms.singlenode.internal.read;

import dev.transforms.singlenode.internal.parquet.FileBytes;
import dev.transforms.singlenode.internal.parquet.ParquetRowCursor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.formats.ReadBuilder;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.util.PartitionUtil;

/**
 * The live rows of one data file: its rows minus those that its position deletes, deletion vectors
 * and equality deletes remove. This is where the single-node engine applies deletes; Arrow scans, row
 * edits, appended-row reads and the changelog all read data files through it.
 *
 * <p>It reads with the engine's own {@link ParquetRowCursor} when that can read the file (a whole,
 * unencrypted Parquet file of top-level primitive columns with field ids), the file has no equality
 * deletes, and neither a row filter nor a name mapping is to be applied; deleted positions are then
 * skipped by the cursor itself. Otherwise it reads with Iceberg's generic reader of the file's format,
 * and Iceberg's delete filter drops deleted rows. Either way a data file's few delete files are loaded
 * in the calling thread ({@link LocalDeleteFilter}).
 *
 * <p>Rows follow {@link #schema()}: the projection asked for, then any columns the deletes need
 * (such as {@code _pos}, or the columns of equality deletes). Values have the Java types of Iceberg's
 * generic records whichever reader read them.
 *
 * <p>An instance serves the reads of one file on one thread, except that {@link #cursor()} may be
 * called from several threads at once (a copy-on-write rewrite copies the two halves of a large
 * file that way): each cursor is a file of its own, and the deleted positions are loaded once.
 * Whoever opens a cursor or an iterable closes it, which closes the file.
 */
public final class LiveRows {
  private final FileIO io;
  private final FileScanTask task;
  private final LocalDeleteFilter deletes;
  private final Schema schema;
  private final Map<Integer, ?> constants;
  private final Expression rowFilter;
  private final boolean caseSensitive;
  private final NameMapping nameMapping;
  private boolean positionsLoaded = false;
  private PositionDeleteIndex deletedPositions = null;
  private FileBytes fetched; // the bytes of a file that is not local, once a read asks for them

  private LiveRows(
      FileIO io,
      Schema tableSchema,
      FileScanTask task,
      Schema projection,
      Expression rowFilter,
      boolean caseSensitive,
      NameMapping nameMapping) {
    this.io = io;
    this.task = task;
    this.deletes = new LocalDeleteFilter(io, task.file().location(), task.deletes(), tableSchema, projection);
    this.schema = this.deletes.requiredSchema();
    this.constants = PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant);
    this.rowFilter = rowFilter;
    this.caseSensitive = caseSensitive;
    this.nameMapping = nameMapping;
  }

  /**
   * Every live row of a file scan task's data file, with its delete files applied; the task's
   * residual filter is not applied. Column names are matched case-sensitively.
   *
   * @param tableSchema the table's schema, in which equality deletes find their columns
   * @param task the task: its data file and delete files
   * @param projection the columns to read, possibly with metadata columns such as {@code _pos}
   * @return the reader of the file's live rows
   */
  public static LiveRows of(FileIO io, Schema tableSchema, FileScanTask task, Schema projection) {
    return new LiveRows(io, tableSchema, task, projection, null, true, null);
  }

  /**
   * The live rows of a table scan's task that also match the task's residual filter, evaluated on
   * every row (Iceberg's reader also uses it to skip row groups).
   *
   * @param caseSensitive whether the filter's and projection's names match case-sensitively
   * @param nameMapping the table's name mapping, for files written without field ids; or null
   * @return the reader of the file's matching live rows
   */
  public static LiveRows ofScan(
      FileIO io,
      Schema tableSchema,
      FileScanTask task,
      Schema projection,
      boolean caseSensitive,
      NameMapping nameMapping) {
    return new LiveRows(
        io, tableSchema, task, projection, task.residual(), caseSensitive, nameMapping);
  }

  /**
   * The data file as the readers read it: a local file where it lies; a Parquet file elsewhere (object
   * storage) through bytes fetched once for every reader of this file, the chunks of the columns read
   * asked for at once ({@link FileBytes}), instead of a request for each page a reader moves to.
   */
  private synchronized InputFile dataFile() {
    if (fetched != null) {
      return fetched.icebergFile();
    }
    DataFile file = task.file();
    if (file.format() != FileFormat.PARQUET || file.keyMetadata() != null
        || FileBytes.localPath(file.location()).isPresent()) {
      return io.newInputFile(file);
    }
    try {
      FileBytes bytes = FileBytes.open(io, file.location(), file.fileSizeInBytes());
      java.util.Set<Integer> ids = new java.util.HashSet<>();
      schema.columns().forEach(column -> ids.add(column.fieldId()));
      bytes.willReadColumns(ids);
      fetched = bytes;
      return bytes.icebergFile();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the footer of " + file.location(), e);
    }
  }

  /**
   * The fetched bytes of the data file, when it is not local and a read fetched them: for a rewrite
   * that copies the file's pages after reading its rows, so that the file is fetched once.
   *
   * @return the bytes, valid while this object is; empty for a local file or before a read
   */
  public synchronized Optional<FileBytes> fetchedBytes() {
    return Optional.ofNullable(fetched);
  }

  /** The columns of the rows read: the projection, then the columns the deletes need. */
  public Schema schema() {
    return schema;
  }

  /**
   * The position of a top-level column in {@link #schema()}.
   *
   * @throws IllegalStateException if the schema has no such column
   */
  public int columnIndex(int fieldId) {
    return columnIndex(schema, fieldId);
  }

  /** The position of a top-level column in a schema of rows read; an IllegalStateException if it has none. */
  public static int columnIndex(Schema schema, int fieldId) {
    int index = LocalDeleteFilter.indexOf(schema, fieldId);
    if (index < 0) {
      throw new IllegalStateException("Read schema has no field " + fieldId + ": " + schema);
    }
    return index;
  }

  /**
   * The positions that the file's position deletes and deletion vector remove, loaded on the first
   * call; null when it has none. Not the rows equality deletes remove.
   */
  public synchronized PositionDeleteIndex deletedPositions() {
    if (!positionsLoaded) {
      deletedPositions = deletes.hasPosDeletes() ? deletes.deletedRowPositions() : null;
      positionsLoaded = true;
    }
    return deletedPositions;
  }

  /**
   * Opens the engine's cursor over the live rows, deleted positions skipped, or returns null when
   * Iceberg's reader must read this file (see the class comment). The caller closes the cursor.
   *
   * @return a cursor before the first live row, or null
   */
  public ParquetRowCursor cursor() {
    return cursor(schema);
  }

  /**
   * Opens the engine's cursor over some columns of the live rows, deleted positions skipped, or
   * returns null as {@link #cursor()} does. Several cursors of one file may read its columns side by
   * side: one finds rows, others {@link ParquetRowCursor#moveTo move} to them.
   *
   * @param columns columns of {@link #schema()}, in any order
   * @return a cursor before the first live row, or null
   */
  public ParquetRowCursor cursor(Schema columns) {
    boolean noRowFilter = rowFilter == null || rowFilter.op() == Expression.Operation.TRUE;
    if (!noRowFilter || deletes.hasEqDeletes() || nameMapping != null) {
      return null;
    }
    ParquetRowCursor cursor = ParquetRowCursor.open(dataFile(), task, columns, constants);
    if (cursor != null) {
      cursor.skipPositions(deletedPositions());
    }
    return cursor;
  }

  /**
   * Every live row as a record of {@link #schema()}, read with the engine's cursor when it can read
   * the file, otherwise with Iceberg's reader.
   *
   * @param reuse whether one record is filled again for every row (callers copy what they keep);
   *     otherwise each row is a record of its own
   * @param utf8Strings whether strings that the engine's cursor reads stay UTF-8 bytes (Avro's
   *     {@code Utf8}, a {@code CharSequence}), for consumers that copy strings out as bytes
   * @return the rows; closing it closes the file
   */
  public CloseableIterable<Record> records(boolean reuse, boolean utf8Strings) {
    return records(cursor(), reuse, utf8Strings);
  }

  /**
   * Every live row as a record of {@link #schema()}: the rows of a cursor opened with {@link
   * #cursor()}, or when it is null, the rows Iceberg's reader reads; see {@link #records(boolean,
   * boolean)}.
   *
   * @param cursor a cursor of this file not moved yet, which the iterable closes; or null
   * @param reuse whether one record is filled again for every row
   * @param utf8Strings whether strings read by the cursor stay UTF-8 bytes
   * @return the rows; closing it closes the file
   */
  public CloseableIterable<Record> records(
      ParquetRowCursor cursor, boolean reuse, boolean utf8Strings) {
    if (cursor != null) {
      return cursor.records(!reuse, utf8Strings);
    }

    ReadBuilder<Record, ?> builder =
        FormatModelRegistry.readBuilder(task.file().format(), Record.class, dataFile());
    if (reuse) {
      builder = builder.reuseContainers();
    }
    builder =
        builder
            .project(schema)
            .idToConstant(constants)
            .split(task.start(), task.length())
            .caseSensitive(caseSensitive);
    if (rowFilter != null) {
      builder = builder.filter(rowFilter);
    }
    if (nameMapping != null) {
      builder = builder.withNameMapping(nameMapping);
    }

    CloseableIterable<Record> records = deletes.filter(builder.build());
    if (rowFilter != null && rowFilter.op() != Expression.Operation.TRUE) {
      // Iceberg's reader only skips row groups by the filter; rows are tested here, one by one.
      InternalRecordWrapper wrapper = new InternalRecordWrapper(schema.asStruct());
      Evaluator evaluator = new Evaluator(schema.asStruct(), rowFilter, caseSensitive);
      records = CloseableIterable.filter(records, record -> evaluator.eval(wrapper.wrap(record)));
    }
    return records;
  }
}
