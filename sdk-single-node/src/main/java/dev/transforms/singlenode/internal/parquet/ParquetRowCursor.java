package dev.transforms.singlenode.internal.parquet;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.ContentScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.shaded.org.apache.parquet.ParquetReadOptions;
import org.apache.iceberg.shaded.org.apache.parquet.column.ColumnDescriptor;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.PageReadStore;
import org.apache.iceberg.shaded.org.apache.parquet.column.page.PageReader;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.iceberg.shaded.org.apache.parquet.schema.MessageType;

/**
 * Reads the rows of one Parquet data file one at a time, decoding a column's value only when it is
 * asked for: a value left alone is skipped without being converted (no string is decoded, no
 * number boxed). Row edits use it to test the join key of every row and read whole rows only
 * where the key matches; Arrow scans use it to read whole files fast.
 *
 * <p>Values have the Java types of Iceberg's generic {@code Record}s, as Iceberg's own Parquet
 * reader gives them, so the rows compare equal to rows read any other way. Metadata columns follow
 * Iceberg's rules: {@code _pos} is the row's position in the file, {@code _row_id} and {@code
 * _last_updated_sequence_number} come from the file where written and otherwise from the data
 * file's first row id and data sequence number, other constants (identity partition values, the
 * file path) from the task.
 *
 * <p>Only whole files of flat tables are read this way: {@link #open} returns null for a file it
 * cannot read (not Parquet, encrypted, a split of a file, without field ids, a nested, repeated or
 * unusual column, a column absent from the file), and the caller then uses Iceberg's reader. Delete
 * files are not read here: the caller passes the positions they delete to {@link #skipPositions}
 * ({@code dev.transforms.singlenode.internal.read.LiveRows} does).
 *
 * <p>Use: {@link #next()} moves to the next row; {@link #get(int)} returns a value of the current
 * row, by its position in the projection. Columns are read lazily: a column nobody reads for a run
 * of rows is moved past those rows in one step, when it is next read.
 */
public final class ParquetRowCursor implements Closeable {
  /** Read options without a Hadoop configuration, shared by every reader of this package. */
  static final ParquetReadOptions OPTIONS =
      ParquetReadOptions.builder().withCodecFactory(new ParquetCodecs()).build();

  /**
   * The cursor's own read options: zstd pages stay compressed until a column decodes them, so that the
   * pages of a column moved past whole are never decompressed ({@link ColumnPages}).
   */
  private static final ParquetCodecs DEFERRING = ParquetCodecs.deferringZstd();

  private static final ParquetReadOptions DEFERRED_OPTIONS =
      ParquetReadOptions.builder().withCodecFactory(DEFERRING).build();

  private final ParquetFileReader reader;
  private final String location;
  private final Schema projection;
  private final CursorColumn[] columns;
  private final CursorColumn.FileColumn[] fileColumns;
  private final Object[] values;
  private final long[] decodedAt; // the position at which each column's value was last decoded
  private long position = -1;
  private long groupStart = 0;
  private long groupEnd = 0;
  private int groupIndex = -1;
  // the positions left out, ascending, and the index of the first one not behind the cursor
  private long[] skipped = null;
  private int nextSkipped = 0;
  // a delete index too large to copy into an array is looked up row by row
  private PositionDeleteIndex skippedIndex = null;

  /** Up to this many deleted positions (8 MB) are copied into {@link #skipped}. */
  private static final long MAX_SKIPPED_IN_ARRAY = 1L << 20;
  private boolean closed = false;
  private final List<PageReadAhead> readingAhead = new java.util.ArrayList<>();
  private int readAheadPages = PageReadAhead.PAGES_AHEAD;

  private ParquetRowCursor(
      ParquetFileReader reader,
      String location,
      Schema projection,
      CursorColumn[] columns,
      CursorColumn.FileColumn[] fileColumns) {
    this.reader = reader;
    this.location = location;
    this.projection = projection;
    this.columns = columns;
    this.fileColumns = fileColumns;
    this.values = new Object[columns.length];
    this.decodedAt = new long[columns.length];
    java.util.Arrays.fill(decodedAt, -1);
  }

  /**
   * Opens a cursor over the task's data file, or returns null when the file cannot be read this
   * way.
   *
   * @param task the scan task of the file
   * @param projection the columns to read, possibly with metadata columns
   * @param constants Iceberg's constants for the task (partition values, lineage, file path)
   */
  public static ParquetRowCursor open(
      InputFile file, ContentScanTask<DataFile> task, Schema projection, Map<Integer, ?> constants) {
    boolean wholeFile = task.start() == 0 && task.length() >= task.file().fileSizeInBytes();
    if (task.file().format() != FileFormat.PARQUET || task.file().keyMetadata() != null || !wholeFile) {
      return null; // a split of a file is left to Iceberg's reader too
    }
    ParquetFileReader reader;
    try {
      reader = ParquetFileReader.open(new IcebergParquetFile(file), DEFERRED_OPTIONS);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to open " + file.location(), e);
    }
    boolean opened = false;
    try {
      MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
      CursorColumns matched = CursorColumns.match(fileSchema, projection, constants);
      if (matched == null) {
        return null;
      }
      reader.setRequestedSchema(matched.requestedSchema());
      ParquetRowCursor cursor = new ParquetRowCursor(reader, file.location(), projection, matched.columns(),
          matched.fileColumns());
      opened = true;
      return cursor;
    } finally {
      if (!opened) {
        closeQuietly(reader);
      }
    }
  }

  /**
   * The remaining rows of this cursor as records of the projection, closing the cursor when the
   * iterable or its iterator is closed.
   *
   * @param ownRecords whether each row is a record of its own; otherwise one record is filled again
   *     for each row
   * @param utf8Strings whether strings stay UTF-8 bytes, as {@link #getForParquetWriter} gives them
   */
  public CloseableIterable<Record> records(boolean ownRecords, boolean utf8Strings) {
    GenericRecord template = GenericRecord.create(projection);
    CloseableIterator<Record> rows =
        new CloseableIterator<>() {
          private boolean ready = false;

          @Override
          public boolean hasNext() {
            if (!ready) {
              ready = ParquetRowCursor.this.next();
            }
            return ready;
          }

          @Override
          public Record next() {
            if (!hasNext()) {
              throw new java.util.NoSuchElementException();
            }
            ready = false;
            // copy() is cheaper than create(): no lookup of the schema's field names
            GenericRecord row = ownRecords ? template.copy() : template;
            for (int column = 0; column < columns.length; column++) {
              row.set(column, utf8Strings ? getForParquetWriter(column) : get(column));
            }
            return row;
          }

          @Override
          public void close() {
            ParquetRowCursor.this.close();
          }
        };
    return CloseableIterable.combine(() -> rows, this); // one pass: the rows are the cursor's
  }

  /**
   * Leaves out the rows at these positions: {@link #next()} moves past them without decoding
   * anything. Call before the first {@code next()}.
   *
   * @param deleted the positions to leave out, or null for none
   */
  public void skipPositions(PositionDeleteIndex deleted) {
    this.skipped = null;
    this.skippedIndex = null;
    if (deleted == null || deleted.isEmpty()) {
      return;
    }
    long cardinality;
    try {
      cardinality = deleted.cardinality();
    } catch (UnsupportedOperationException e) {
      cardinality = Long.MAX_VALUE;
    }
    if (cardinality > MAX_SKIPPED_IN_ARRAY) {
      this.skippedIndex = deleted;
      return;
    }
    // a sorted array walked alongside the rows costs less per row than a bitmap lookup
    long[][] collected = {new long[64]};
    int[] count = {0};
    deleted.forEach(
        position -> {
          if (count[0] == collected[0].length) {
            collected[0] = java.util.Arrays.copyOf(collected[0], count[0] * 2);
          }
          collected[0][count[0]++] = position;
        });
    long[] positions = java.util.Arrays.copyOf(collected[0], count[0]);
    java.util.Arrays.sort(positions);
    this.skipped = positions;
    this.nextSkipped = 0;
  }

  /** Moves to the next row not left out; returns false when there is none. */
  public boolean next() {
    do {
      position += 1;
      if (position >= groupEnd && !nextRowGroup()) {
        return false;
      }
    } while ((skipped != null && isSkipped(position))
        || (skippedIndex != null && skippedIndex.isDeleted(position)));
    return true;
  }

  /**
   * Moves past the next rows in bulk, reading one {@link #hasLongValues long column} of each: the
   * rows of a batch of the column (at most a page, and at most {@code values.length} rows), less those
   * {@link #skipPositions} left out. For a cursor that tests a key of every row: no other column is
   * read, and the last row read becomes the current row.
   *
   * @param column the column, by its position in the projection
   * @param values receives each row's value (left alone for a null)
   * @param present receives whether each row's value is not null
   * @param positions receives each row's position in the file
   * @return the rows read, or 0 at the end of the file; the arrays are at least this long
   */
  public int nextLongs(int column, long[] values, boolean[] present, long[] positions) {
    CursorColumn.FileColumn file = (CursorColumn.FileColumn) columns[column];
    while (true) {
      if (position + 1 >= groupEnd) {
        position = groupEnd; // the first row of the next row group
        if (!nextRowGroup()) {
          return 0;
        }
        position -= 1;
      }
      int rowInGroup = (int) (position + 1 - groupStart);
      if (rowInGroup >= file.batchEnd) {
        file.fillBatch(rowInGroup);
      }
      int from = rowInGroup - file.batchStart;
      int count = Math.min(values.length, file.batchEnd - rowInGroup);
      int kept = 0;
      for (int i = 0; i < count; i++) {
        long at = position + 1 + i;
        if ((skipped != null && isSkipped(at)) || (skippedIndex != null && skippedIndex.isDeleted(at))) {
          continue;
        }
        values[kept] = file.batch[from + i];
        present[kept] = file.batchPresent[from + i];
        positions[kept] = at;
        kept += 1;
      }
      position += count;
      if (kept > 0) {
        return kept;
      }
    }
  }

  /**
   * Moves forward to the row at a position of the file, whether or not {@link #skipPositions} left it
   * out: for reading some columns of the rows another cursor of the same file found. The columns of
   * the rows passed over are skipped without being decoded.
   *
   * @param target the row's position in the file, not before the current row
   * @return false when the file has no row at that position
   * @throws IllegalArgumentException if the position is before the current row
   */
  public boolean moveTo(long target) {
    if (target < position) {
      throw new IllegalArgumentException(
          "Cannot move back from row " + position + " to row " + target + " of " + location);
    }
    while (target >= groupEnd) {
      position = groupEnd; // the first row of the next row group
      if (!nextRowGroup()) {
        return false;
      }
    }
    position = target;
    return true;
  }

  /**
   * Starts reading before the first move: reads the first row group and has the pages of every file
   * column decompressed on background threads ahead of this cursor, up to 16 pages of a column and
   * about 64 in all (at least 2 of each column), so that a wide table does not hold hundreds of
   * decompressed pages. For a cursor whose rows another cursor is still finding: its pages are
   * decompressed meanwhile. Call before the first {@link #next} or {@link #moveTo}.
   */
  public void prefetch() {
    for (CursorColumn.FileColumn column : fileColumns) {
      column.readAhead = true;
    }
    readAheadPages = prefetchedPages(fileColumns.length);
    if (groupIndex < 0) {
      position = 0;
      try {
        nextRowGroup();
      } finally {
        position = -1;
      }
    }
  }

  /** The pages of each of its columns a cursor of this many file columns {@link #prefetch}es, at most. */
  static int prefetchedPages(int columns) {
    return Math.max(2, Math.min(16, 64 / Math.max(1, columns)));
  }

  private boolean isSkipped(long at) {
    while (nextSkipped < skipped.length && skipped[nextSkipped] < at) {
      nextSkipped += 1;
    }
    return nextSkipped < skipped.length && skipped[nextSkipped] == at;
  }

  /** The location of the file this cursor reads, for messages. */
  public String location() {
    return location;
  }

  /** The current row's position in the file. */
  public long position() {
    return position;
  }

  /** Returns the value of a column of the current row, by its position in the projection. */
  public Object get(int column) {
    if (decodedAt[column] != position) {
      values[column] = columns[column].value(position, (int) (position - groupStart));
      decodedAt[column] = position;
    }
    return values[column];
  }

  /**
   * Returns the value of a column of the current row as Iceberg's Parquet writer takes it: as
   * {@link #get}, except that a string stays UTF-8 bytes (Avro's {@code Utf8}, which that writer
   * writes without encoding it again). Only for rows handed straight to that writer, or to code that
   * copies strings out as bytes: the bytes of a dictionary-encoded value are one {@code Utf8} shared
   * by every row that holds the value, which nobody may change.
   */
  public Object getForParquetWriter(int column) {
    CursorColumn source = columns[column];
    if (source instanceof CursorColumn.FileColumn && ((CursorColumn.FileColumn) source).string) {
      CursorColumn.FileColumn file = (CursorColumn.FileColumn) source;
      return file.moveTo((int) (position - groupStart)) ? file.values.getUtf8() : null;
    }
    return get(column);
  }

  /**
   * Returns whether a column's value in the current row is null, for a {@link #hasLongValues long
   * column}; with {@link #getLong}, reads it without boxing.
   */
  public boolean isNull(int column) {
    return ((CursorColumn.FileColumn) columns[column]).batchIsNull((int) (position - groupStart));
  }

  /** Returns the non-null value of a {@link #hasLongValues long column} in the current row. */
  public long getLong(int column) {
    return ((CursorColumn.FileColumn) columns[column]).batchLong((int) (position - groupStart));
  }

  /**
   * Whether a column of the projection holds Iceberg ints or longs stored in the file, which
   * {@link #isNull} and {@link #getLong} read as longs.
   */
  public boolean hasLongValues(int column) {
    return columns[column] instanceof CursorColumn.FileColumn && ((CursorColumn.FileColumn) columns[column]).integral;
  }

  /**
   * Has the pages of every file column but the given ones decompressed on a background thread,
   * ahead of this cursor: for columns read only at a few rows, while the given ones are read at
   * every row. Call before the first {@link #next()}.
   */
  public void readAheadExcept(int[] columns) {
    java.util.Set<CursorColumn> except = new java.util.HashSet<>();
    for (int column : columns) {
      except.add(this.columns[column]);
    }
    for (CursorColumn.FileColumn column : fileColumns) {
      column.readAhead = !except.contains(column);
    }
  }

  /** Number of columns of the projection. */
  public int columnCount() {
    return columns.length;
  }

  private boolean nextRowGroup() {
    try {
      stopReadingAhead();
      PageReadStore pages;
      do {
        pages = reader.readNextRowGroup();
        groupIndex += 1;
        if (pages == null) {
          return false;
        }
      } while (pages.getRowCount() == 0);
      BlockMetaData group = reader.getRowGroups().get(groupIndex);
      int groupRows = (int) pages.getRowCount();
      for (CursorColumn.FileColumn column : fileColumns) {
        PageReader columnPages = pages.getPageReader(column.descriptor);
        CompressionCodecName codec = codec(group, column.descriptor);
        boolean deferred = DEFERRING.defers(codec);
        if (column.readAhead && safeToReadAhead(codec)) {
          PageReadAhead ahead = new PageReadAhead(columnPages, readAheadPages, deferred,
              ParquetColumnValues.where(column.descriptor, location));
          readingAhead.add(ahead);
          columnPages = ahead;
          deferred = false; // decompressed by the read-ahead
        }
        column.start(new ParquetColumnValues(column.descriptor, columnPages, deferred, location), groupRows);
      }
      groupStart = position;
      groupEnd = position + pages.getRowCount();
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read a row group of " + location, e);
    }
  }

  /** Whether pages of this codec may be decompressed on another thread (see {@link PageReadAhead}). */
  private static boolean safeToReadAhead(CompressionCodecName codec) {
    return codec == CompressionCodecName.ZSTD || codec == CompressionCodecName.UNCOMPRESSED;
  }

  /** The codec of the column's chunk in the row group; null if the row group has no such chunk. */
  private static CompressionCodecName codec(BlockMetaData group, ColumnDescriptor descriptor) {
    for (ColumnChunkMetaData chunk : group.getColumns()) {
      if (java.util.Arrays.equals(chunk.getPath().toArray(), descriptor.getPath())) {
        return chunk.getCodec();
      }
    }
    return null;
  }

  private void stopReadingAhead() {
    readingAhead.forEach(PageReadAhead::close);
    readingAhead.clear();
  }

  /** Closes the file; closing again does nothing (both a cursor's records and their iterator may). */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    stopReadingAhead();
    closeQuietly(reader);
  }

  private static void closeQuietly(Closeable closeable) {
    try {
      closeable.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
