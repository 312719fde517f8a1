package dev.transforms.singlenode.edits;

import dev.transforms.singlenode.internal.parquet.ParquetRowCursor;
import dev.transforms.singlenode.internal.plan.FileRewrite;
import dev.transforms.singlenode.internal.plan.RewriteRequest;
import dev.transforms.singlenode.internal.plan.RewriteStrategy;
import dev.transforms.singlenode.internal.read.LiveRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * The {@link RewriteStrategy#ENGINE engine's writer, one pass over whole rows}: the reference strategy,
 * which takes every file and never declines. A file is read once with whole rows. Its first rows are held
 * in memory (up to {@link CopyOnWriteRewrite#DEFAULT_COPY_BUFFER_ROWS}) until a row is dropped, so that a
 * file that loses none is not written again; from then on kept rows stream to the writer, on a second
 * thread for larger files ({@link OverlappedWriter}). A file whose first dropped row comes later than the
 * buffer holds is read a second time.
 */
final class OnePassRewrite implements FileRewrite<RewriteWork> {

  /** The one pass; it holds no state. */
  static final OnePassRewrite INSTANCE = new OnePassRewrite();

  private OnePassRewrite() {}

  @Override
  public RewriteStrategy strategy() {
    return RewriteStrategy.ENGINE;
  }

  @Override
  public Optional<String> declines(RewriteRequest request) {
    return Optional.empty();
  }

  @Override
  public Optional<Rewritten> rewrite(RewriteWork work) {
    LiveRows rows = work.rows();
    FileScanTask task = work.task();
    Schema readSchema = rows.schema();
    RowChange.RowDecider decider = work.decider();
    int posIndex = work.posIndex();
    EditFiles.Slot kept = work.kept();
    // rows whose integral key no source row has are kept without asking the decider
    RowChange.RowProbe probe = work.probe();
    LongHashSet integralKeys =
        probe == null || probe.columns().length != 1 ? null : probe.integralKeys();
    int keyIndex = integralKeys == null ? -1 : probe.columns()[0];

    // Rows from ParquetRowCursor are records of their own. Iceberg's reader may instead reuse one
    // record for all rows: kept rows usually go straight to the writer, which is done with a row
    // once it returns; only the rows held in the buffer then need their own, a shallow copy, which
    // is enough when every value is immutable (otherwise the reader would also reuse nested
    // records, lists and byte buffers).
    ParquetRowCursor cursor = rows.cursor();
    boolean reuse = cursor == null && immutableValues(readSchema);
    PositionDeleteIndex dropped = null;
    List<Record> buffer = new ArrayList<>();
    try (OverlappedWriter keptRows = new OverlappedWriter(kept::write, reuse,
        task.file().recordCount() >= OverlappedWriter.MIN_ROWS)) {
      try (CloseableIterable<Record> live = rows.records(cursor, reuse, false)) {
        for (Record row : live) {
          boolean drop;
          if (integralKeys != null) {
            Object key = row.get(keyIndex);
            drop = key != null && integralKeys.contains(((Number) key).longValue()) && decider.drop(row);
          } else {
            drop = decider.drop(row);
          }
          if (drop) {
            if (dropped == null) {
              dropped = ProbeScan.newPositionIndex();
            }
            dropped.delete((Long) row.get(posIndex));
            if (!keptRows.started() && buffer != null) {
              keptRows.start();
              buffer.forEach(keptRows::writeOwned);
              buffer = null;
            }
          } else if (keptRows.started()) {
            keptRows.write(row);
          } else if (buffer != null) {
            buffer.add(reuse ? row.copy() : row);
            if (buffer.size() >= work.rewrite().copyBufferRows()) {
              buffer = null; // too many rows to hold: read the file again if a row is dropped
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to read " + task.file().location(), e);
      }

      if (dropped == null) {
        return Optional.of(Rewritten.NOTHING);
      }

      if (!keptRows.started()) {
        keptRows.start();
        PositionDeleteIndex droppedRows = dropped;
        ParquetRowCursor again = rows.cursor();
        try (CloseableIterable<Record> live = rows.records(again, again == null && reuse, false)) {
          for (Record row : live) {
            if (!droppedRows.isDeleted((Long) row.get(posIndex))) {
              keptRows.write(row);
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException("Failed to read " + task.file().location(), e);
        }
      }
      keptRows.finish();
    }
    return Optional.of(new Rewritten(dropped.cardinality(), true));
  }


  /**
   * Whether every column of the schema is read into an immutable value (numbers, strings, dates and
   * times, decimals, UUIDs), so that a shallow copy of a reused record owns all its values.
   */
  private static boolean immutableValues(Schema readSchema) {
    for (Types.NestedField field : readSchema.columns()) {
      switch (field.type().typeId()) {
        case BOOLEAN:
        case INTEGER:
        case LONG:
        case FLOAT:
        case DOUBLE:
        case DATE:
        case TIME:
        case TIMESTAMP:
        case TIMESTAMP_NANO:
        case STRING:
        case DECIMAL:
        case UUID:
          break;
        default:
          return false;
      }
    }
    return true;
  }
}
