package dev.transforms.singlenode.internal.load;

import dev.transforms.api.InvalidLoadException;
import dev.transforms.runtime.spi.SourceFile;
import dev.transforms.singlenode.arrow.ArrowRecords;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Files;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.iceberg.shaded.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.iceberg.shaded.org.apache.parquet.io.LocalInputFile;
import org.apache.iceberg.shaded.org.apache.parquet.schema.MessageType;
import org.apache.iceberg.types.Types;

/**
 * The rows of a Parquet file, read by column name with Iceberg's generic Parquet reader, whatever field
 * ids the file carries (a file written for another table has ids that mean nothing here).
 *
 * <p>A column the file declares optional loads into a required column of the table when its rows hold a value:
 * pyarrow, pandas, Spark and DuckDB declare every column optional whatever it holds. A row with a null there is
 * a bad row, named by its file and row number, as a CSV row with an empty value there is.
 *
 * <p>The relocated Parquet classes of the Iceberg runtime jar read the footer, as the engine's own
 * Parquet reader does (see {@code docs/architecture.md}); none appears outside this class.
 */
final class ParquetSource implements RowSource {
  /** The bytes every Parquet file starts and ends with. */
  private static final byte[] MAGIC = {'P', 'A', 'R', '1'};

  private final SourceFile file;
  private final Schema read;
  /** The columns as the batches hold them: the file's, required where the table requires a value. */
  private final Schema batches;
  /** The names of the columns the table requires and the file declares optional: checked row by row. */
  private final List<String> nullable;
  private final BadRows bad;
  private final CloseableIterable<Record> records;
  private final Iterator<Record> iterator;
  private final BufferAllocator allocator;
  private final int batchSize;
  private final long size;
  private VectorSchemaRoot root;
  private long rows;

  ParquetSource(SourceFile file, Schema columns, BadRows bad, BufferAllocator allocator, int batchSize) {
    this.file = file;
    this.bad = bad;
    this.allocator = allocator;
    this.batchSize = batchSize;
    this.size = file.size();
    Schema fileSchema = schemaOf(file);
    List<Types.NestedField> fields = new ArrayList<>();
    List<Types.NestedField> required = new ArrayList<>();
    List<String> checked = new ArrayList<>();
    for (Types.NestedField column : columns.columns()) {
      Types.NestedField field = fileSchema.findField(column.name());
      if (field == null) {
        throw new InvalidLoadException("Parquet file " + file + " has no column " + column.name() + "; its columns: "
            + fileSchema.columns().stream().map(Types.NestedField::name).toList());
      }
      fields.add(field);
      boolean checkedHere = column.isRequired() && field.isOptional();
      required.add(checkedHere ? Types.NestedField.required(field.fieldId(), field.name(), field.type(), field.doc())
          : field);
      if (checkedHere) {
        checked.add(field.name());
      }
    }
    this.read = new Schema(fields);
    this.batches = new Schema(required);
    this.nullable = List.copyOf(checked);
    this.records = Parquet.read(Files.localInput(file.path().toFile()))
        .project(read)
        .withNameMapping(MappingUtil.create(fileSchema))
        .createReaderFunc(type -> GenericParquetReaders.buildReader(read, type))
        .build();
    this.iterator = records.iterator();
  }

  /**
   * The Iceberg schema of a Parquet file: its own field ids, or ids in column order when it has none.
   *
   * @throws InvalidLoadException if the file is not Parquet
   */
  static Schema schemaOf(SourceFile file) {
    checkMagic(file);
    LocalInputFile input = new LocalInputFile(file.path());
    try (ParquetFileReader reader = ParquetFileReader.open(input)) {
      MessageType type = reader.getFooter().getFileMetaData().getSchema();
      return ParquetSchemaUtil.convert(type);
    } catch (IOException | RuntimeException e) {
      // Parquet names the file by the input's toString(), an object address: name it by its path.
      String message = String.valueOf(e.getMessage()).replace(input.toString(), file.toString());
      throw new InvalidLoadException("Cannot read the schema of Parquet file " + file + ": " + message, e);
    }
  }

  /** Refuses a file that does not start and end with Parquet's magic bytes, saying what it is instead. */
  private static void checkMagic(SourceFile file) {
    long size = file.size();
    byte[] head = new byte[4];
    byte[] tail = new byte[4];
    try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file.path())) {
      if (size >= 12) {
        channel.read(java.nio.ByteBuffer.wrap(head), 0);
        channel.read(java.nio.ByteBuffer.wrap(tail), size - 4);
      }
    } catch (IOException e) {
      throw new InvalidLoadException("Cannot read Parquet file " + file + ": " + e.getMessage(), e);
    }
    if (size < 12 || !java.util.Arrays.equals(head, MAGIC) || !java.util.Arrays.equals(tail, MAGIC)) {
      throw new InvalidLoadException("File " + file + " is not a Parquet file: " + (size == 0 ? "it is empty (0 bytes)"
          : size < 12 ? "it holds " + size + " bytes, fewer than the smallest Parquet file"
          : !java.util.Arrays.equals(head, MAGIC)
          ? "it does not start with PAR1, the bytes every Parquet file starts with"
          : "it does not end with PAR1: it was cut short or is still being written")
          + "; give --format csv or json if it is text");
    }
  }

  @Override
  public VectorSchemaRoot next() {
    if (root != null) {
      root.close();
      root = null;
    }
    if (!iterator.hasNext()) {
      return null;
    }
    List<Record> batch = new ArrayList<>(Math.min(batchSize, 1024));
    int taken = 0;
    while (taken < batchSize && iterator.hasNext()) {
      Record record = iterator.next();
      taken++;
      String missing = firstNull(record);
      if (missing == null) {
        batch.add(record);
      } else {
        bad.add(file + ", row " + (rows + taken), "column " + missing + " is null, but the table requires a value");
      }
    }
    rows += taken;
    root = ArrowRecords.toRoot(batch, batches, allocator);
    return root;
  }

  /** The first column the table requires and the file left null in this row; null when there is none. */
  private String firstNull(Record record) {
    for (String column : nullable) {
      if (record.getField(column) == null) {
        return column;
      }
    }
    return null;
  }

  @Override
  public long rows() {
    return rows;
  }

  @Override
  public long bytesRead() {
    // The reader does not say how far it is; rows go up, and the file counts as read at its end.
    return iterator.hasNext() ? 0 : size;
  }

  @Override
  public void close() throws IOException {
    try {
      records.close();
    } finally {
      if (root != null) {
        root.close();
      }
    }
  }
}
