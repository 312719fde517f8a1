package dev.transforms.singlenode.internal.parquet;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.ContentScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetadataColumns;
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
import org.apache.iceberg.shaded.org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.iceberg.shaded.org.apache.parquet.io.SeekableInputStream;
import org.apache.iceberg.shaded.org.apache.parquet.io.api.Binary;
import org.apache.iceberg.shaded.org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.iceberg.shaded.org.apache.parquet.schema.MessageType;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveType;
import org.apache.iceberg.shaded.org.apache.parquet.schema.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;
import org.apache.iceberg.util.UUIDUtil;

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
  private final Column[] columns;
  private final FileColumn[] fileColumns;
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
      Column[] columns,
      FileColumn[] fileColumns) {
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
   * @param file the data file's contents
   * @param task the scan task of the file (a file scan task, or a changelog task)
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
      List<Types.NestedField> fields = projection.columns();
      Column[] columns = new Column[fields.size()];
      List<Type> requestedFields = new java.util.ArrayList<>();
      List<FileColumn> fileColumns = new java.util.ArrayList<>();
      for (int i = 0; i < columns.length; i++) {
        Types.NestedField field = fields.get(i);
        int id = field.fieldId();
        Type fileField = fieldWithId(fileSchema, id);
        if (id == MetadataColumns.ROW_POSITION.fieldId()) {
          columns[i] = new PositionColumn();
        } else if (id == MetadataColumns.ROW_ID.fieldId()
            || id == MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.fieldId()) {
          Object base = constants.get(id);
          FileColumn stored = null;
          if (fileField != null) {
            stored = fileColumn(fileSchema, fileField, field);
            if (stored == null) {
              return null;
            }
            requestedFields.add(fileField);
            fileColumns.add(stored);
          }
          boolean addPosition = id == MetadataColumns.ROW_ID.fieldId();
          columns[i] = new LineageColumn(stored, (Long) base, addPosition);
        } else if (constants.containsKey(id)) {
          columns[i] = new ConstantColumn(constants.get(id));
        } else if (MetadataColumns.isMetadataColumn(id) || fileField == null) {
          return null; // Iceberg's reader fills these (defaults, other metadata)
        } else {
          FileColumn column = fileColumn(fileSchema, fileField, field);
          if (column == null) {
            return null;
          }
          requestedFields.add(fileField);
          fileColumns.add(column);
          columns[i] = column;
        }
      }
      reader.setRequestedSchema(new MessageType(fileSchema.getName(), requestedFields));
      ParquetRowCursor cursor =
          new ParquetRowCursor(
              reader, file.location(), projection, columns, fileColumns.toArray(new FileColumn[0]));
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
    return new CloseableIterable<>() {
      @Override
      public CloseableIterator<Record> iterator() {
        return rows; // one pass: the rows are the cursor's
      }

      @Override
      public void close() {
        ParquetRowCursor.this.close();
      }
    };
  }

  private static Type fieldWithId(MessageType fileSchema, int id) {
    for (Type field : fileSchema.getFields()) {
      if (field.getId() != null && field.getId().intValue() == id) {
        return field;
      }
    }
    return null;
  }

  /** A reader of a top-level primitive column, or null when its types are not handled here. */
  private static FileColumn fileColumn(MessageType fileSchema, Type fileField, Types.NestedField field) {
    if (!fileField.isPrimitive() || fileField.isRepetition(Type.Repetition.REPEATED)) {
      return null;
    }
    Decoder decoder = decoder(fileField.asPrimitiveType(), field.type());
    if (decoder == null) {
      return null;
    }
    ColumnDescriptor descriptor = fileSchema.getColumnDescription(new String[] {fileField.getName()});
    org.apache.iceberg.types.Type.TypeID typeId = field.type().typeId();
    boolean integral =
        typeId == org.apache.iceberg.types.Type.TypeID.LONG
            || typeId == org.apache.iceberg.types.Type.TypeID.INTEGER;
    return new FileColumn(
        descriptor,
        decoder,
        integral,
        typeId == org.apache.iceberg.types.Type.TypeID.INTEGER,
        typeId == org.apache.iceberg.types.Type.TypeID.STRING);
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
    FileColumn file = (FileColumn) columns[column];
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
    for (FileColumn column : fileColumns) {
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
    Column source = columns[column];
    if (source instanceof FileColumn && ((FileColumn) source).string) {
      FileColumn file = (FileColumn) source;
      return file.moveTo((int) (position - groupStart)) ? file.values.getUtf8() : null;
    }
    return get(column);
  }

  /**
   * Returns whether a column's value in the current row is null, for a {@link #hasLongValues long
   * column}; with {@link #getLong}, reads it without boxing.
   */
  public boolean isNull(int column) {
    return ((FileColumn) columns[column]).batchIsNull((int) (position - groupStart));
  }

  /** Returns the non-null value of a {@link #hasLongValues long column} in the current row. */
  public long getLong(int column) {
    return ((FileColumn) columns[column]).batchLong((int) (position - groupStart));
  }

  /**
   * Whether a column of the projection holds Iceberg ints or longs stored in the file, which
   * {@link #isNull} and {@link #getLong} read as longs.
   */
  public boolean hasLongValues(int column) {
    return columns[column] instanceof FileColumn && ((FileColumn) columns[column]).integral;
  }

  /**
   * Has the pages of every file column but the given ones decompressed on a background thread,
   * ahead of this cursor: for columns read only at a few rows, while the given ones are read at
   * every row. Call before the first {@link #next()}.
   */
  public void readAheadExcept(int[] columns) {
    java.util.Set<Column> except = new java.util.HashSet<>();
    for (int column : columns) {
      except.add(this.columns[column]);
    }
    for (FileColumn column : fileColumns) {
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
      for (FileColumn column : fileColumns) {
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

  // -----------------------------------------------------------------------------------------------
  // Columns

  /** One column of the projection: where its value for a row comes from. */
  private interface Column {
    /** The value at a position in the file, which is a row of the current row group. */
    Object value(long position, int rowInGroup);
  }

  private static final class PositionColumn implements Column {
    @Override
    public Object value(long position, int rowInGroup) {
      return position;
    }
  }

  private static final class ConstantColumn implements Column {
    private final Object constant;

    private ConstantColumn(Object constant) {
      this.constant = constant;
    }

    @Override
    public Object value(long position, int rowInGroup) {
      return constant;
    }
  }

  /**
   * {@code _row_id} or {@code _last_updated_sequence_number}: the value written in the file, or when
   * there is none, the file's base (plus the position, for row ids).
   */
  private static final class LineageColumn implements Column {
    private final FileColumn stored;
    private final Long base;
    private final boolean addPosition;

    private LineageColumn(FileColumn stored, Long base, boolean addPosition) {
      this.stored = stored;
      this.base = base;
      this.addPosition = addPosition;
    }

    @Override
    public Object value(long position, int rowInGroup) {
      Object written = stored == null ? null : stored.value(position, rowInGroup);
      if (written != null || base == null) {
        return written;
      }
      return addPosition ? base + position : base;
    }
  }

  /** Rows of an integral column read at once by {@link #isNull} and {@link #getLong}. */
  private static final int BATCH_ROWS = 4096;

  /** A primitive column stored in the file. */
  private static final class FileColumn implements Column {
    private final ColumnDescriptor descriptor;
    private final Decoder decoder;
    private final boolean integral;
    private final boolean intValues;
    private final boolean int64;
    private final boolean string;
    private ParquetColumnValues values;
    private int row;
    private boolean present;
    private int groupRows;
    private boolean readAhead;
    // integral columns read with isNull/getLong are read in batches: rows [batchStart, batchEnd)
    private long[] batch;
    private boolean[] batchPresent;
    private int batchStart;
    private int batchEnd;

    private FileColumn(
        ColumnDescriptor descriptor, Decoder decoder, boolean integral, boolean intValues, boolean string) {
      this.descriptor = descriptor;
      this.string = string;
      this.int64 =
          descriptor.getPrimitiveType().getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT64;
      this.decoder = decoder;
      this.integral = integral;
      this.intValues = intValues;
    }

    private void start(ParquetColumnValues groupValues, int rows) {
      this.values = groupValues;
      this.groupRows = rows;
      this.row = -1;
      this.present = false;
      this.batchStart = 0;
      this.batchEnd = 0;
    }

    /** Moves to a row of the row group, at or after the current one; returns whether it has a value. */
    private boolean moveTo(int rowInGroup) {
      if (rowInGroup != row) {
        present = values.advance(rowInGroup - row);
        row = rowInGroup;
      }
      return present;
    }

    @Override
    public Object value(long position, int rowInGroup) {
      if (rowInGroup < batchEnd) { // read in a batch already
        if (!batchIsNull(rowInGroup)) {
          long value = batch[rowInGroup - batchStart];
          return intValues ? (Object) (int) value : (Object) value;
        }
        return null;
      }
      return moveTo(rowInGroup) ? decoder.decode(values) : null;
    }

    private boolean batchIsNull(int rowInGroup) {
      if (rowInGroup >= batchEnd) {
        fillBatch(rowInGroup);
      }
      return !batchPresent[rowInGroup - batchStart];
    }

    private long batchLong(int rowInGroup) {
      if (rowInGroup >= batchEnd) {
        fillBatch(rowInGroup);
      }
      return batch[rowInGroup - batchStart];
    }

    /** Reads the values of the rows from {@code rowInGroup} on in one go, at most a page. */
    private void fillBatch(int rowInGroup) {
      if (batch == null) {
        batch = new long[BATCH_ROWS];
        batchPresent = new boolean[BATCH_ROWS];
      }
      if (rowInGroup - 1 > row) {
        moveTo(rowInGroup - 1); // pass over the rows in between
      }
      int count = values.nextLongs(batch, batchPresent, Math.min(BATCH_ROWS, groupRows - rowInGroup), int64);
      batchStart = rowInGroup;
      batchEnd = rowInGroup + count;
      row = batchEnd - 1;
      present = batchPresent[count - 1];
    }
  }

  // -----------------------------------------------------------------------------------------------
  // Decoding: Parquet values to the Java types of Iceberg's generic records

  @FunctionalInterface
  private interface Decoder {
    Object decode(ParquetColumnValues values);
  }

  /** The decoder of a file column for the table's type, or null when it is not handled here. */
  private static Decoder decoder(PrimitiveType file, org.apache.iceberg.types.Type type) {
    PrimitiveType.PrimitiveTypeName physical = file.getPrimitiveTypeName();
    LogicalTypeAnnotation logical = file.getLogicalTypeAnnotation();
    switch (type.typeId()) {
      case BOOLEAN:
        return physical == PrimitiveType.PrimitiveTypeName.BOOLEAN ? ParquetColumnValues::getBoolean : null;
      case INTEGER:
        return physical == PrimitiveType.PrimitiveTypeName.INT32 ? ParquetColumnValues::getInteger : null;
      case LONG:
        if (physical == PrimitiveType.PrimitiveTypeName.INT64) {
          return ParquetColumnValues::getLong;
        }
        return physical == PrimitiveType.PrimitiveTypeName.INT32
            ? reader -> (long) reader.getInteger()
            : null;
      case FLOAT:
        return physical == PrimitiveType.PrimitiveTypeName.FLOAT ? ParquetColumnValues::getFloat : null;
      case DOUBLE:
        if (physical == PrimitiveType.PrimitiveTypeName.DOUBLE) {
          return ParquetColumnValues::getDouble;
        }
        return physical == PrimitiveType.PrimitiveTypeName.FLOAT
            ? reader -> (double) reader.getFloat()
            : null;
      case DATE:
        return physical == PrimitiveType.PrimitiveTypeName.INT32
            ? reader -> DateTimeUtil.dateFromDays(reader.getInteger())
            : null;
      case TIME:
        return physical == PrimitiveType.PrimitiveTypeName.INT64 && hasUnit(logical, MICROS)
            ? reader -> DateTimeUtil.timeFromMicros(reader.getLong())
            : null;
      case TIMESTAMP:
        if (physical != PrimitiveType.PrimitiveTypeName.INT64 || !hasUnit(logical, MICROS)) {
          return null;
        }
        return ((Types.TimestampType) type).shouldAdjustToUTC()
            ? reader -> DateTimeUtil.timestamptzFromMicros(reader.getLong())
            : reader -> DateTimeUtil.timestampFromMicros(reader.getLong());
      case TIMESTAMP_NANO:
        if (physical != PrimitiveType.PrimitiveTypeName.INT64 || !hasUnit(logical, NANOS)) {
          return null;
        }
        return ((Types.TimestampNanoType) type).shouldAdjustToUTC()
            ? reader -> DateTimeUtil.timestamptzFromNanos(reader.getLong())
            : reader -> DateTimeUtil.timestampFromNanos(reader.getLong());
      case STRING:
        return physical == PrimitiveType.PrimitiveTypeName.BINARY
            ? ParquetColumnValues::getString
            : null;
      case UUID:
        return physical == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
                && file.getTypeLength() == 16
            ? reader -> UUIDUtil.convert(reader.getBinary().getBytes())
            : null;
      case FIXED:
        return physical == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
            ? reader -> ownBytes(reader.getBinary())
            : null;
      case BINARY:
        return physical == PrimitiveType.PrimitiveTypeName.BINARY
            ? reader -> ByteBuffer.wrap(ownBytes(reader.getBinary()))
            : null;
      case DECIMAL:
        return decimal(physical, ((Types.DecimalType) type).scale());
      default:
        return null;
    }
  }

  /** The bytes of a value, in an array nobody else holds (a dictionary's values are shared). */
  private static byte[] ownBytes(Binary binary) {
    byte[] bytes = binary.getBytes();
    return java.util.Arrays.copyOf(bytes, bytes.length);
  }

  private static final LogicalTypeAnnotation.TimeUnit MICROS = LogicalTypeAnnotation.TimeUnit.MICROS;
  private static final LogicalTypeAnnotation.TimeUnit NANOS = LogicalTypeAnnotation.TimeUnit.NANOS;

  private static boolean hasUnit(LogicalTypeAnnotation logical, LogicalTypeAnnotation.TimeUnit unit) {
    if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) {
      return ((LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) logical).getUnit() == unit;
    }
    if (logical instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation) {
      return ((LogicalTypeAnnotation.TimeLogicalTypeAnnotation) logical).getUnit() == unit;
    }
    return false;
  }

  private static Decoder decimal(PrimitiveType.PrimitiveTypeName physical, int scale) {
    switch (physical) {
      case INT32:
        return reader -> BigDecimal.valueOf(reader.getInteger(), scale);
      case INT64:
        return reader -> BigDecimal.valueOf(reader.getLong(), scale);
      case BINARY:
      case FIXED_LEN_BYTE_ARRAY:
        return reader -> new BigDecimal(new BigInteger(reader.getBinary().getBytes()), scale);
      default:
        return null;
    }
  }

  // -----------------------------------------------------------------------------------------------
  // Plumbing

  /** An Iceberg input file as Parquet's. */
  static final class IcebergParquetFile
      implements org.apache.iceberg.shaded.org.apache.parquet.io.InputFile {
    private final InputFile file;

    IcebergParquetFile(InputFile file) {
      this.file = file;
    }

    @Override
    public long getLength() {
      return file.getLength();
    }

    @Override
    public SeekableInputStream newStream() {
      org.apache.iceberg.io.SeekableInputStream stream = file.newStream();
      return new DelegatingSeekableInputStream(stream) {
        @Override
        public long getPos() throws IOException {
          return stream.getPos();
        }

        @Override
        public void seek(long newPos) throws IOException {
          stream.seek(newPos);
        }
      };
    }
  }
}
