package dev.transforms.singlenode.edits;

import dev.transforms.singlenode.internal.threads.BackgroundThreads;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.iceberg.data.Record;

/**
 * Writes the rows a copy-on-write rewrite keeps on a second thread while the caller goes on
 * reading, so that decoding the old file and encoding the new one overlap (on two cores, a rewrite
 * then takes about as long as the slower of the two instead of their sum). Rows travel in batches,
 * with one batch in flight at most, so memory stays bounded; rows from a reader that reuses its
 * record are copied first. Small files are written inline: a thread is not worth it.
 */
final class OverlappedWriter implements AutoCloseable {
  static final long MIN_ROWS = 50_000;
  private static final int BATCH_ROWS = 4_096;

  private final Consumer<Record> sink;
  private final boolean copy;
  private final boolean overlap;
  private List<Record> batch = new ArrayList<>(BATCH_ROWS);
  private Future<?> inFlight;
  private boolean started;

  OverlappedWriter(Consumer<Record> sink, boolean copy, boolean overlap) {
    this.sink = sink;
    this.copy = copy;
    this.overlap = overlap;
  }

  boolean started() {
    return started;
  }

  void start() {
    started = true;
  }

  /** Writes a row the reader may reuse: inline it is done with before the reader moves on. */
  void write(Record row) {
    writeOwned(copy && overlap ? row.copy() : row);
  }

  /** Writes a row nobody else will change. */
  void writeOwned(Record row) {
    if (!overlap) {
      sink.accept(row);
      return;
    }
    batch.add(row);
    if (batch.size() >= BATCH_ROWS) {
      handOver();
    }
  }

  /** Writes what is left and waits until every row is written. */
  void finish() {
    if (overlap) {
      if (!batch.isEmpty()) {
        handOver();
      }
      awaitInFlight();
    }
  }

  private void handOver() {
    awaitInFlight();
    List<Record> rows = batch;
    batch = new ArrayList<>(BATCH_ROWS);
    inFlight = BackgroundThreads.run(() -> rows.forEach(sink));
  }

  private void awaitInFlight() {
    Future<?> pending = inFlight;
    inFlight = null;
    if (pending != null) {
      BackgroundThreads.await(pending); // waits for the batch's rows even when interrupted
    }
  }

  @Override
  public void close() {
    // On failure a batch may still be in flight; let it end before the caller aborts the writer.
    try {
      awaitInFlight();
    } catch (RuntimeException | Error e) {
      // The first failure is already on its way up.
    }
  }
}
