package dev.transforms.singlenode.internal.load;

import dev.transforms.runtime.spi.SourceFile;
import dev.transforms.singlenode.arrow.ArrowSchemas;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/**
 * The rows of a text file (CSV or JSON lines), parsed record by record into one Arrow root laid out by
 * the declared columns. Subclasses split the text into records and set each record's values; this class
 * batches them, skips the bad ones (recorded in {@link BadRows}), and owns the file and the root.
 */
abstract class TextSource implements RowSource {
  final SourceFile file;
  /** The file's name, as bad rows name it. */
  final String name;
  final BadRows bad;
  final TextColumn[] parsers;
  /** Which declared columns the current record gave a value, null included. */
  final boolean[] filled;
  final TextFiles.Opened opened;
  private final VectorSchemaRoot root;
  private final int batchSize;
  private boolean exhausted;
  private long rows;

  TextSource(SourceFile file, Schema columns, BadRows bad, BufferAllocator allocator, int batchSize)
      throws IOException {
    this.file = file;
    this.name = file.path().getFileName().toString();
    this.bad = bad;
    this.batchSize = batchSize;
    List<Types.NestedField> declared = columns.columns();
    this.filled = new boolean[declared.size()];
    this.parsers = new TextColumn[declared.size()];
    this.opened = TextFiles.open(file);
    this.root = VectorSchemaRoot.create(ArrowSchemas.toArrow(columns), allocator);
    try {
      for (int i = 0; i < parsers.length; i++) {
        parsers[i] = TextColumn.of(declared.get(i), root.getVector(declared.get(i).name()));
      }
      for (FieldVector vector : root.getFieldVectors()) {
        vector.setInitialCapacity(batchSize);
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Moves to the next record; false at the end of the file. */
  abstract boolean nextRecord() throws IOException;

  /** Sets the current record's values at a row; false, and a bad row recorded, if it does not fit. */
  abstract boolean readRecord(int row) throws IOException;

  /** The line of the current record, for messages. */
  abstract long line();

  /**
   * Reads the beginning of the file without parsing a row, for {@link FileLoads#check}: opening it read
   * the gzip header (and a CSV header line); this decodes the first block of text.
   */
  void probe() throws IOException {
    if (!exhausted) {
      nextRecord();
    }
  }

  @Override
  public final VectorSchemaRoot next() throws IOException {
    if (exhausted) {
      return null;
    }
    root.allocateNew();
    int row = 0;
    while (row < batchSize) {
      if (!nextRecord()) {
        exhausted = true;
        break;
      }
      rows++;
      Arrays.fill(filled, false);
      if (readRecord(row) && nullsForMissing(row)) {
        row++;
      }
    }
    root.setRowCount(row);
    return row > 0 || !exhausted ? root : null;
  }

  /** Sets null in the columns the record did not name; false, and a bad row, if one of them is required. */
  private boolean nullsForMissing(int row) {
    for (int column = 0; column < filled.length; column++) {
      if (!filled[column]) {
        try {
          parsers[column].setNull(row);
        } catch (BadValue e) {
          bad.add(name + ":" + line(), "column " + parsers[column].describe() + ": missing, but the column is not "
              + "null");
          return false;
        }
      }
    }
    return true;
  }

  @Override
  public long rows() {
    return rows;
  }

  @Override
  public long bytesRead() {
    return opened.counted().count();
  }

  @Override
  public void close() throws IOException {
    try {
      opened.reader().close();
    } finally {
      root.close();
    }
  }
}
