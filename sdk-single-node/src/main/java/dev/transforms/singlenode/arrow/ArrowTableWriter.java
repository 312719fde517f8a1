package dev.transforms.singlenode.arrow;

import dev.transforms.api.SchemaMismatchException;
import dev.transforms.api.TransformsException;
import dev.transforms.singlenode.internal.parquet.WriterSettings;
import dev.transforms.singlenode.internal.duckdb.DuckDbParquetWriter;
import dev.transforms.singlenode.internal.duckdb.DuckDbWritePlan;
import dev.transforms.singlenode.internal.duckdb.RootSlices;
import dev.transforms.singlenode.internal.threads.BackgroundThreads;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Writes Arrow data to new data files of an Iceberg table, without committing them.
 *
 * <p>The files follow the table's current schema and partition spec, in the table's default file
 * format ({@code write.format.default}, Parquet unless set), with Iceberg's column metrics. A file is
 * closed and a new one started once it reaches the target size ({@code
 * write.target-file-size-bytes} or {@link Builder#targetFileSizeBytes}); a partitioned table gets
 * at least one file per partition written, whatever the order of the rows.
 *
 * <p>Nothing is committed: {@link #complete()} returns the {@link DataFile}s for the caller to
 * commit in its own {@code AppendFiles}, {@code OverwriteFiles} or {@code RowDelta}, possibly on a
 * branch. {@link #abort()} (or {@link #close()} before {@code complete()}) deletes the files
 * written.
 *
 * <pre>{@code
 * List<DataFile> files;
 * try (ArrowTableWriter writer = ArrowTableWriter.builder(table).build()) {
 *   writer.write(root);
 *   files = writer.complete();
 * }
 * AppendFiles append = table.newAppend();
 * files.forEach(append::appendFile);
 * append.commit();
 * }</pre>
 *
 * <p>Columns are matched by name; an optional table column missing from the Arrow data is written
 * as null. See {@link ArrowSchemas#differences} for what is accepted.
 *
 * <p>Memory: the writer only reads the roots it is given, during the call to {@code write}; it
 * neither keeps nor closes them. It holds one open file per partition written to until {@code
 * complete()}.
 *
 * <p>A root of {@value #TWO_LANE_MIN_ROWS} rows or more written to an unpartitioned table is
 * encoded on two threads: its first half into one file, its second half into another, so that the
 * rows keep their order across the files. Each file carries its own column metrics, as any file
 * does.
 *
 * <p>When DuckDB's JDBC driver and Arrow's C data interface are on the class path (both optional
 * dependencies), the table is unpartitioned, local, written as Parquet, and of column types DuckDB
 * writes exactly as Iceberg specifies (see {@link DuckDbWritePlan}), roots of {@value
 * #DUCKDB_MIN_ROWS} rows or more and whole {@link ArrowReader}s are written by DuckDB instead
 * (2-3 times faster on 1M rows), with the same column metrics. Each such root, or each
 * reader, becomes its own file; a reader's file is closed once the Arrow size of its rows reaches twice the target
 * file size (Parquet is smaller than Arrow, so files stay below the target), and a root larger than
 * that goes through the Java writer. The Arrow columns must be of the types {@link
 * ArrowSchemas#toArrowType} gives (rows of other types that the Java writer converts take the Java
 * writer). The first DuckDB write in a JVM loads DuckDB's native library (about 2 s). {@link
 * Builder#duckDbParquet(boolean)} (configuration key {@code duckdb.parquet}) turns DuckDB off.
 *
 * <p>A writer is not thread-safe.
 */
public final class ArrowTableWriter implements Closeable {
  /**
   * Roots with at least this many rows are written to unpartitioned tables by two threads into two
   * files (halves of at least 200,000 rows, so that tables are not split into small files).
   */
  static final int TWO_LANE_MIN_ROWS = 400_000;

  /**
   * Roots with at least this many rows are written by DuckDB when the table allows it; smaller ones
   * go through the Java writer, which gathers consecutive small roots into one file.
   */
  static final int DUCKDB_MIN_ROWS = 100_000;

  /**
   * Rows per batch a root is handed to DuckDB in: DuckDB scans a batch on one thread, so slices let
   * its threads share a large root. DuckDB's row group size.
   */
  static final int DUCKDB_BATCH_ROWS = 122_880;

  private final Table table;
  private final Schema schema;
  private final PartitionSpec spec;
  private final IcebergFileWriter writer;
  private final PartitionKey partitionKey;
  private final InternalRecordWrapper wrapper;
  private final int[] requiredPositions;
  private final int twoLaneMinRows;
  private final DuckDbWritePlan duckDb;
  private final int duckDbMinRows;
  private final OutputFileFactory fileFactory;
  private final long duckDbByteLimit;
  private List<DataFile> dataFiles;
  private long rowsWritten;
  private boolean closed;

  private ArrowTableWriter(
      Table table,
      FileFormat format,
      long targetFileSizeBytes,
      int twoLaneMinRows,
      boolean duckDbParquet,
      int duckDbMinRows) {
    this.table = table;
    this.duckDbMinRows = duckDbMinRows;
    this.duckDb = duckDbParquet ? DuckDbWritePlan.of(table, format).orElse(null) : null;
    this.duckDbByteLimit =
        targetFileSizeBytes > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * targetFileSizeBytes;
    this.twoLaneMinRows = twoLaneMinRows;
    this.schema = table.schema();
    this.spec = table.spec();
    List<Types.NestedField> columns = schema.columns();
    this.requiredPositions =
        IntStream.range(0, columns.size()).filter(i -> columns.get(i).isRequired()).toArray();
    GenericFileWriterFactory writerFactory =
        new GenericFileWriterFactory.Builder(table)
            .dataSchema(schema)
            .dataFileFormat(format)
            .writerProperties(WriterSettings.writerProperties(table.properties()))
            .build();
    OutputFileFactory fileFactory =
        OutputFileFactory.builderFor(table, 0, 0)
            .format(format)
            .operationId(UUID.randomUUID().toString())
            .build();
    this.fileFactory = fileFactory;
    if (spec.isUnpartitioned()) {
      this.writer =
          new IcebergFileWriter.Unpartitioned(
              () ->
                  new RollingDataWriter<>(
                      writerFactory, fileFactory, table.io(), targetFileSizeBytes, spec, null));
      this.partitionKey = null;
      this.wrapper = null;
    } else {
      this.writer =
          new IcebergFileWriter.Partitioned(
              new FanoutDataWriter<>(writerFactory, fileFactory, table.io(), targetFileSizeBytes),
              spec);
      this.partitionKey = new PartitionKey(spec, schema);
      this.wrapper = new InternalRecordWrapper(schema.asStruct());
    }
  }

  /**
   * Starts configuring a writer for a table.
   *
   * @param table the table to write data files for
   * @return a builder
   */
  public static Builder builder(Table table) {
    return new Builder(Objects.requireNonNull(table, "table"));
  }

  /**
   * Writes one root to new data files of a table with the default settings and returns them,
   * uncommitted.
   *
   * @param table the table
   * @param root the rows; read, not closed
   * @return the data files written, for the caller to commit
   * @throws SchemaMismatchException listing every column of the root that differs from the table
   * @throws UncheckedIOException if a file cannot be written; files written so far are deleted
   */
  public static List<DataFile> writeDataFiles(Table table, VectorSchemaRoot root) {
    try (ArrowTableWriter writer = builder(table).build()) {
      writer.write(root);
      return writer.complete();
    }
  }

  /**
   * Writes every row of a root.
   *
   * @param root the rows; read during this call only, neither kept nor closed
   * @throws SchemaMismatchException listing every column of the root that differs from the table;
   *     nothing of this root is written then
   * @throws IllegalStateException if the writer was completed, aborted or closed
   * @throws TransformsException if a required column holds a null (Arrow does not enforce
   *     non-nullable fields); rows before it may have been written to files that {@link #close()}
   *     deletes
   * @throws UncheckedIOException if a file cannot be written
   */
  public void write(VectorSchemaRoot root) {
    checkOpen();
    List<String> differences = ArrowSchemas.differences(schema, root.getSchema());
    if (!differences.isEmpty()) {
      throw ArrowSchemas.mismatch("table " + table.name(), differences);
    }
    Map<String, FieldVector> byName = new HashMap<>();
    for (FieldVector vector : root.getFieldVectors()) {
      byName.put(vector.getName(), vector);
    }
    int rowCount = root.getRowCount();
    BufferAllocator allocator = allocatorOf(root);
    if (rowCount >= duckDbMinRows
        && writer instanceof IcebergFileWriter.Unpartitioned unpartitioned
        && byDuckDb(root)
        && bufferSize(root) <= duckDbByteLimit) {
      unpartitioned.closeCurrent();
      try (RootSlices slices = new RootSlices(allocator, root, DUCKDB_BATCH_ROWS)) {
        writeByDuckDb(unpartitioned, slices, allocator);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return;
    }
    if (writer instanceof IcebergFileWriter.Unpartitioned unpartitioned && rowCount >= twoLaneMinRows) {
      writeInTwoLanes(unpartitioned, byName, rowCount);
    } else {
      writeRows(byName, 0, rowCount, record -> {
        if (partitionKey != null) {
          partitionKey.partition(wrapper.wrap(record));
        }
        writer.write(record, partitionKey);
      });
    }
    rowsWritten += rowCount;
  }

  /**
   * Writes the first half of a root's rows into a file of this thread and the second half into a
   * file of a background thread, both new, then keeps the two in that order. The rows written
   * before go to files closed first, so that files follow the order of the rows.
   */
  private void writeInTwoLanes(
      IcebergFileWriter.Unpartitioned unpartitioned, Map<String, FieldVector> byName, int rowCount) {
    unpartitioned.closeCurrent();
    int middle = rowCount / 2;
    RollingDataWriter<Record> first = unpartitioned.newWriter();
    RollingDataWriter<Record> second = unpartitioned.newWriter();
    Throwable failure = null;
    try { // returns once both lanes are done with their files, also on failure
      BackgroundThreads.both(() -> writeRows(byName, 0, middle, first::write),
          () -> writeRows(byName, middle, rowCount, second::write));
    } catch (RuntimeException | Error e) {
      failure = e;
    }
    for (RollingDataWriter<Record> lane : List.of(first, second)) {
      try {
        unpartitioned.closeAndKeep(lane); // kept on failure too, so that abort() deletes them
      } catch (IOException | RuntimeException e) {
        failure = addFailure(failure, e);
      }
    }
    if (failure instanceof IOException io) {
      throw new UncheckedIOException("Cannot write data files of " + table.name(), io);
    } else if (failure instanceof RuntimeException runtime) {
      throw runtime;
    } else if (failure != null) {
      throw (Error) failure;
    }
  }

  private static Throwable addFailure(Throwable first, Throwable next) {
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }

  /** Converts rows {@code [from, to)} of the vectors to records, one reused record, for a sink. */
  private void writeRows(
      Map<String, FieldVector> byName, int from, int to, Consumer<Record> sink) {
    ArrowValueReaders.RowReader reader =
        new ArrowValueReaders.RowReader(schema.asStruct(), byName);
    Record record = GenericRecord.create(schema);
    for (int row = from; row < to; row++) {
      reader.read(row, record);
      checkRequired(record, row);
      sink.accept(record);
    }
  }

  /**
   * Writes every batch of an Arrow reader, loading batches until it is exhausted.
   *
   * @param batches the batches; read to the end, not closed
   * @throws IOException if the Arrow reader fails
   * @throws SchemaMismatchException listing every column that differs from the table
   * @throws IllegalStateException if the writer was completed, aborted or closed
   * @throws UncheckedIOException if a file cannot be written
   */
  public void write(ArrowReader batches) throws IOException {
    checkOpen();
    VectorSchemaRoot root = batches.getVectorSchemaRoot();
    if (writer instanceof IcebergFileWriter.Unpartitioned unpartitioned && byDuckDb(root)) {
      List<String> differences = ArrowSchemas.differences(schema, root.getSchema());
      if (!differences.isEmpty()) {
        throw ArrowSchemas.mismatch("table " + table.name(), differences);
      }
      unpartitioned.closeCurrent();
      writeByDuckDb(unpartitioned, batches, allocatorOf(root));
      return;
    }
    while (batches.loadNextBatch()) {
      write(root);
    }
  }

  /** Whether DuckDB writes these rows: the table allows it and the Arrow types need no conversion. */
  private boolean byDuckDb(VectorSchemaRoot root) {
    return duckDb != null && allocatorOf(root) != null && duckDb.accepts(root.getSchema());
  }

  /** Writes every batch of a reader with DuckDB, keeping each file as soon as it is complete. */
  private void writeByDuckDb(
      IcebergFileWriter.Unpartitioned unpartitioned, ArrowReader batches, BufferAllocator allocator) {
    DuckDbParquetWriter.write(
        duckDb,
        batches,
        allocator,
        () -> fileFactory.newOutputFile().encryptingOutputFile().location(),
        duckDbByteLimit,
        file -> {
          unpartitioned.keep(file);
          rowsWritten += file.recordCount();
        });
  }

  private static BufferAllocator allocatorOf(VectorSchemaRoot root) {
    return root.getFieldVectors().isEmpty() ? null : root.getFieldVectors().get(0).getAllocator();
  }

  private static long bufferSize(VectorSchemaRoot root) {
    long bytes = 0;
    for (FieldVector vector : root.getFieldVectors()) {
      bytes += vector.getBufferSize();
    }
    return bytes;
  }

  /**
   * Returns the number of rows written so far.
   *
   * @return rows written
   */
  public long rowsWritten() {
    return rowsWritten;
  }

  /**
   * Closes the open files and returns every data file written, uncommitted. Calling it again
   * returns the same files.
   *
   * @return the data files, with partition values and column metrics, for the caller to commit
   * @throws IllegalStateException if the writer was aborted
   * @throws UncheckedIOException if a file cannot be closed; files written are deleted then
   */
  public List<DataFile> complete() {
    if (dataFiles != null) {
      return dataFiles;
    }
    if (closed) {
      throw new IllegalStateException("The writer for " + table.name() + " was aborted");
    }
    this.closed = true;
    try {
      writer.close();
    } catch (IOException | RuntimeException e) {
      deleteQuietly(writer.writtenSoFar());
      throw e instanceof IOException
          ? new UncheckedIOException(
              "Cannot close data files of " + table.name(), (IOException) e)
          : (RuntimeException) e;
    }
    this.dataFiles = List.copyOf(writer.dataFiles());
    return dataFiles;
  }

  /**
   * Closes the open files and deletes every data file written. Does nothing after {@link
   * #complete()} (the files then belong to the caller) or a previous abort.
   */
  public void abort() {
    if (closed) {
      return;
    }
    this.closed = true;
    try {
      writer.close();
    } catch (IOException | RuntimeException e) {
      // the files are deleted below either way
    }
    deleteQuietly(writer.writtenSoFar());
  }

  /** Aborts the writer unless {@link #complete()} was called; see {@link #abort()}. */
  @Override
  public void close() {
    abort();
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

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(
          "The writer for " + table.name() + " was already completed, aborted or closed");
    }
  }

  private void deleteQuietly(List<DataFile> files) {
    for (DataFile file : files) {
      try {
        table.io().deleteFile(file.location());
      } catch (RuntimeException e) {
        // best effort: an orphan file is harmless and removed by orphan-file cleanup
      }
    }
  }

  /** Configures an {@link ArrowTableWriter}. */
  public static final class Builder {
    private final Table table;
    private FileFormat format;
    private long targetFileSizeBytes;
    private int twoLaneMinRows = TWO_LANE_MIN_ROWS;
    private boolean duckDbParquet = true;
    private int duckDbMinRows = DUCKDB_MIN_ROWS;

    private Builder(Table table) {
      this.table = table;
      this.format =
          FileFormat.fromString(
              table
                  .properties()
                  .getOrDefault(
                      TableProperties.DEFAULT_FILE_FORMAT,
                      TableProperties.DEFAULT_FILE_FORMAT_DEFAULT));
      this.targetFileSizeBytes =
          PropertyUtil.propertyAsLong(
              table.properties(),
              TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
              TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    }

    /**
     * Sets the size at which a data file is closed and a new one started. Defaults to the table's
     * {@code write.target-file-size-bytes} (512 MB unless set). Sizes are checked every 1,000 rows,
     * so files can exceed the target slightly.
     *
     * @param bytes the target size in bytes, at least 1
     * @return this builder
     * @throws IllegalArgumentException if {@code bytes} is less than 1
     */
    public Builder targetFileSizeBytes(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("Target file size must be positive: " + bytes);
      }
      this.targetFileSizeBytes = bytes;
      return this;
    }

    /**
     * Sets the file format of the data files. Defaults to the table's {@code write.format.default}
     * (Parquet unless set).
     *
     * @param fileFormat Parquet, Avro or ORC
     * @return this builder
     */
    public Builder fileFormat(FileFormat fileFormat) {
      this.format = Objects.requireNonNull(fileFormat, "fileFormat");
      return this;
    }

    /**
     * Creates the writer. No file is created until the first row is written.
     *
     * @return a new writer; the caller must {@link ArrowTableWriter#complete()} or close it
     */
    public ArrowTableWriter build() {
      return new ArrowTableWriter(
          table, format, targetFileSizeBytes, twoLaneMinRows, duckDbParquet, duckDbMinRows);
    }

    /**
     * Sets whether DuckDB may write the data files when the table and the rows allow it (see the
     * class comment); the configuration key {@code duckdb.parquet}. Defaults to true. Without
     * DuckDB on the class path, the Java writer is used either way.
     *
     * @param enabled false to write every file with Iceberg's Java Parquet writer
     * @return this builder
     */
    public Builder duckDbParquet(boolean enabled) {
      this.duckDbParquet = enabled;
      return this;
    }

    /** For tests: the rows from which a root is written by DuckDB, when the table allows it. */
    Builder duckDbMinRows(int rows) {
      this.duckDbMinRows = rows;
      return this;
    }

    /** For tests: the rows from which a root is written in two lanes (a huge number: never). */
    Builder twoLaneMinRows(int rows) {
      this.twoLaneMinRows = rows;
      return this;
    }
  }
}
