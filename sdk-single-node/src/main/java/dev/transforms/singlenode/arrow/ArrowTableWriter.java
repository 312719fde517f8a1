package dev.transforms.singlenode.arrow;

import dev.transforms.api.SchemaMismatchException;
import dev.transforms.api.TransformsException;
import dev.transforms.singlenode.internal.duckdb.DuckDbWritePlan;
import dev.transforms.singlenode.internal.parquet.WriterSettings;
import dev.transforms.singlenode.internal.plan.RootWrite;
import dev.transforms.singlenode.internal.plan.WritePlan;
import dev.transforms.singlenode.internal.plan.WritePlanner;
import dev.transforms.singlenode.internal.plan.WriteRequest;
import dev.transforms.singlenode.internal.plan.WriteStrategy;
import dev.transforms.singlenode.internal.schema.ArrowSchemaMapping;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.IntStream;
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
import org.apache.iceberg.data.InternalRecordWrapper;
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
 * <p>A root of {@value WritePlanner#TWO_LANE_MIN_ROWS} rows or more written to an unpartitioned table is
 * encoded on two threads: its first half into one file, its second half into another, so that the
 * rows keep their order across the files. Each file carries its own column metrics, as any file
 * does.
 *
 * <p>When DuckDB's JDBC driver and Arrow's C data interface are on the class path (both optional
 * dependencies), the table is unpartitioned, local, written as Parquet, and of column types DuckDB
 * writes exactly as Iceberg specifies (see {@link DuckDbWritePlan}), roots of {@value
 * WritePlanner#DUCKDB_MIN_ROWS} rows or more and whole {@link ArrowReader}s are written by DuckDB instead
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
  /** The strategies a writer offers its planner. */
  private static final List<RootWrite<? super RowsToWrite>> STRATEGIES = List.of(DuckDbWrite.INSTANCE,
      TwoLaneWrite.INSTANCE, RowByRowWrite.INSTANCE);

  private final Table table;
  private final Schema schema;
  private final IcebergFileWriter writer;
  private final WriteTarget target;
  private final WritePlanner planner;
  private List<DataFile> dataFiles;
  private long rowsWritten;
  private boolean closed;

  private ArrowTableWriter(Table table, FileFormat format, long targetFileSizeBytes, boolean duckDbParquet,
      WritePlanner planner) {
    this.table = table;
    this.planner = planner;
    this.schema = table.schema();
    PartitionSpec spec = table.spec();
    List<Types.NestedField> columns = schema.columns();
    int[] requiredPositions = IntStream.range(0, columns.size()).filter(i -> columns.get(i).isRequired()).toArray();
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
    PartitionKey partitionKey = null;
    InternalRecordWrapper wrapper = null;
    if (spec.isUnpartitioned()) {
      this.writer =
          new IcebergFileWriter.Unpartitioned(
              () ->
                  new RollingDataWriter<>(
                      writerFactory, fileFactory, table.io(), targetFileSizeBytes, spec, null));
    } else {
      this.writer =
          new IcebergFileWriter.Partitioned(
              new FanoutDataWriter<>(writerFactory, fileFactory, table.io(), targetFileSizeBytes),
              spec);
      partitionKey = new PartitionKey(spec, schema);
      wrapper = new InternalRecordWrapper(schema.asStruct());
    }
    this.target = new WriteTarget(table, schema, writer, partitionKey, wrapper, requiredPositions,
        duckDbParquet ? DuckDbWritePlan.of(table, format).orElse(null) : null, fileFactory,
        targetFileSizeBytes > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * targetFileSizeBytes);
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
    checkColumns(root);
    RowsToWrite rows = new RowsToWrite(target, root, null);
    WritePlan<RowsToWrite> plan = planner.plan(new WriteRequest(root.getRowCount(), target.partitioned()), rows,
        STRATEGIES);
    rowsWritten += plan.write().write(rows);
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
    RowsToWrite rows = new RowsToWrite(target, root, batches);
    WritePlan<RowsToWrite> plan = planner.plan(new WriteRequest(-1, target.partitioned()), rows, STRATEGIES);
    if (plan.strategy() == WriteStrategy.DUCKDB) {
      checkColumns(root);
      rowsWritten += plan.write().write(rows);
      return;
    }
    while (batches.loadNextBatch()) {
      write(root);
    }
  }

  private void checkColumns(VectorSchemaRoot root) {
    List<String> differences = ArrowSchemas.differences(schema, root.getSchema());
    if (!differences.isEmpty()) {
      throw ArrowSchemaMapping.mismatch("table " + table.name(), differences);
    }
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
    private boolean duckDbParquet = true;
    private WritePlanner planner = WritePlanner.standard();

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
      return new ArrowTableWriter(table, format, targetFileSizeBytes, duckDbParquet, planner);
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
      this.planner = planner.withMinRows(rows, planner.twoLaneMinRows());
      return this;
    }

    /** For tests: the rows from which a root is written in two lanes (a huge number: never). */
    Builder twoLaneMinRows(int rows) {
      this.planner = planner.withMinRows(planner.duckDbMinRows(), rows);
      return this;
    }
  }
}
