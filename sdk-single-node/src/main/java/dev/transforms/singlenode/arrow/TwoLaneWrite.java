package dev.transforms.singlenode.arrow;

import dev.transforms.singlenode.internal.plan.RootWrite;
import dev.transforms.singlenode.internal.plan.WriteStrategy;
import dev.transforms.singlenode.internal.threads.BackgroundThreads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.FieldVector;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.RollingDataWriter;

/**
 * The {@link WriteStrategy#ENGINE_TWO_LANES engine's writer in two lanes}: the first half of a root's rows
 * into a file of this thread and the second half into a file of a background thread, both new, then the two
 * kept in that order. The rows written before go to files closed first, so that files follow the order of
 * the rows; each file carries its own column metrics. Only for unpartitioned tables.
 */
final class TwoLaneWrite implements RootWrite<RowsToWrite> {

  /** The two lanes; they hold no state. */
  static final TwoLaneWrite INSTANCE = new TwoLaneWrite();

  private TwoLaneWrite() {}

  @Override
  public WriteStrategy strategy() {
    return WriteStrategy.ENGINE_TWO_LANES;
  }

  @Override
  public Optional<String> declines(RowsToWrite work) {
    return work.target().partitioned() ? Optional.of("a partitioned table") : Optional.empty();
  }

  @Override
  public long write(RowsToWrite work) {
    WriteTarget target = work.target();
    IcebergFileWriter.Unpartitioned unpartitioned = (IcebergFileWriter.Unpartitioned) target.writer();
    Map<String, FieldVector> byName = work.byName();
    int rowCount = work.root().getRowCount();
    unpartitioned.closeCurrent();
    int middle = rowCount / 2;
    RollingDataWriter<Record> first = unpartitioned.newWriter();
    RollingDataWriter<Record> second = unpartitioned.newWriter();
    Throwable failure = null;
    try { // returns once both lanes are done with their files, also on failure
      BackgroundThreads.both(() -> target.writeRows(byName, 0, middle, first::write),
          () -> target.writeRows(byName, middle, rowCount, second::write));
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
      throw new UncheckedIOException("Cannot write data files of " + target.table().name(), io);
    } else if (failure instanceof RuntimeException runtime) {
      throw runtime;
    } else if (failure != null) {
      throw (Error) failure;
    }
    return rowCount;
  }

  private static Throwable addFailure(Throwable first, Throwable next) {
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }
}
