package dev.transforms.singlenode.internal.parquet;

import org.apache.iceberg.shaded.org.apache.parquet.column.ColumnDescriptor;
import org.apache.iceberg.shaded.org.apache.parquet.schema.PrimitiveType;

/** One column of a cursor's projection: where its value for a row comes from. */
interface CursorColumn {
  /** The value at a position in the file, which is a row of the current row group. */
  Object value(long position, int rowInGroup);


  final class PositionColumn implements CursorColumn {
    @Override
    public Object value(long position, int rowInGroup) {
      return position;
    }
  }

  final class ConstantColumn implements CursorColumn {
    final Object constant;

    ConstantColumn(Object constant) {
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
  final class LineageColumn implements CursorColumn {
    final FileColumn stored;
    final Long base;
    final boolean addPosition;

    LineageColumn(FileColumn stored, Long base, boolean addPosition) {
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

  /** Rows of an integral column read at once by the cursor's {@code isNull} and {@code getLong}. */
  int BATCH_ROWS = 4096;

  /** A primitive column stored in the file. */
  final class FileColumn implements CursorColumn {
    final ColumnDescriptor descriptor;
    final ValueDecoder decoder;
    final boolean integral;
    final boolean intValues;
    final boolean int64;
    final boolean string;
    ParquetColumnValues values;
    int row;
    boolean present;
    int groupRows;
    boolean readAhead;
    // integral columns read with isNull/getLong are read in batches: rows [batchStart, batchEnd)
    long[] batch;
    boolean[] batchPresent;
    int batchStart;
    int batchEnd;

    FileColumn(
        ColumnDescriptor descriptor, ValueDecoder decoder, boolean integral, boolean intValues, boolean string) {
      this.descriptor = descriptor;
      this.string = string;
      this.int64 =
          descriptor.getPrimitiveType().getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT64;
      this.decoder = decoder;
      this.integral = integral;
      this.intValues = intValues;
    }

    void start(ParquetColumnValues groupValues, int rows) {
      this.values = groupValues;
      this.groupRows = rows;
      this.row = -1;
      this.present = false;
      this.batchStart = 0;
      this.batchEnd = 0;
    }

    /** Moves to a row of the row group, at or after the current one; returns whether it has a value. */
    boolean moveTo(int rowInGroup) {
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

    boolean batchIsNull(int rowInGroup) {
      if (rowInGroup >= batchEnd) {
        fillBatch(rowInGroup);
      }
      return !batchPresent[rowInGroup - batchStart];
    }

    long batchLong(int rowInGroup) {
      if (rowInGroup >= batchEnd) {
        fillBatch(rowInGroup);
      }
      return batch[rowInGroup - batchStart];
    }

    /** Reads the values of the rows from {@code rowInGroup} on in one go, at most a page. */
    void fillBatch(int rowInGroup) {
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
}
