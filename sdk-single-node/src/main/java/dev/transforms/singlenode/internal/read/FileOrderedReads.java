package dev.transforms.singlenode.internal.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Reads files on several threads and hands their rows to one consumer, in the calling thread, in
 * the order of the files and of the rows in each file: exactly the order one thread reading them in
 * turn would give.
 *
 * <p>Reader {@code r} of {@code n} reads files {@code r}, {@code r + n}, ... in turn, each into
 * batches of rows that wait in a small queue of its own; the caller takes the batches of file 0 from
 * reader 0, then those of file 1 from reader 1, and so on. A reader whose queue is full waits, so at
 * most a few batches per reader are held in memory, whatever the size of the files. Opening a file
 * (its footer, its delete files) and decoding it thus overlap with the consumer's work on the file
 * before.
 *
 * <p>A reader's failure is rethrown in the calling thread, and a failure of the consumer stops the
 * readers; either way every file opened is closed.
 */
public final class FileOrderedReads {
  private static final int BATCH_ROWS = 4_096;
  private static final int BATCHES_AHEAD = 4;
  private static final Object END_OF_FILE = new Object();
  private static final AtomicInteger POOLS = new AtomicInteger();

  private FileOrderedReads() {}

  /** A reader's failure, carried through its queue. */
  private record Failure(Throwable cause) {}

  /**
   * Reads every row of the files and hands each, in order, to the consumer.
   *
   * @param files the files (or tasks), in the order their rows are wanted
   * @param open opens a file's rows; each row must be a record of its own (it crosses threads)
   * @param consumer receives every row, in the calling thread
   * @param threads the number of reading threads, at least 1
   * @return the number of rows handed over
   */
  public static <T> long read(
      List<T> files, Function<T, CloseableIterable<Record>> open, Consumer<Record> consumer, int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, not " + threads);
    }
    int readers = Math.min(threads, files.size());
    if (readers == 0) {
      return 0;
    }
    List<BlockingQueue<Object>> queues = new ArrayList<>(readers);
    int pool = POOLS.incrementAndGet();
    ExecutorService executor = Executors.newFixedThreadPool(readers, runnable -> {
      Thread thread = new Thread(runnable, "transforms-compaction-reader-" + pool);
      thread.setDaemon(true);
      return thread;
    });
    try {
      for (int r = 0; r < readers; r++) {
        BlockingQueue<Object> queue = new ArrayBlockingQueue<>(BATCHES_AHEAD);
        queues.add(queue);
        int first = r;
        executor.execute(() -> readEvery(files, first, readers, open, queue));
      }
      long rows = 0;
      for (int i = 0; i < files.size(); i++) {
        BlockingQueue<Object> queue = queues.get(i % readers);
        while (true) {
          Object item = take(queue);
          if (item == END_OF_FILE) {
            break;
          }
          if (item instanceof Failure failure) {
            throw rethrown(failure.cause());
          }
          @SuppressWarnings("unchecked")
          List<Record> batch = (List<Record>) item;
          for (Record row : batch) {
            consumer.accept(row);
          }
          rows += batch.size();
        }
      }
      return rows;
    } finally {
      executor.shutdownNow(); // a reader waiting on a full queue stops and closes its file
    }
  }

  private static <T> void readEvery(
      List<T> files, int first, int step, Function<T, CloseableIterable<Record>> open, BlockingQueue<Object> queue) {
    try {
      for (int i = first; i < files.size(); i += step) {
        List<Record> batch = new ArrayList<>(BATCH_ROWS);
        try (CloseableIterable<Record> rows = open.apply(files.get(i))) {
          for (Record row : rows) {
            batch.add(row);
            if (batch.size() == BATCH_ROWS) {
              queue.put(batch);
              batch = new ArrayList<>(BATCH_ROWS);
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException("Cannot close " + files.get(i), e);
        }
        if (!batch.isEmpty()) {
          queue.put(batch);
        }
        queue.put(END_OF_FILE);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the caller stopped: nobody waits for more rows
    } catch (RuntimeException | Error e) {
      try {
        queue.put(new Failure(e));
      } catch (InterruptedException stopped) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static Object take(BlockingQueue<Object> queue) {
    try {
      return queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for rows to compact", e);
    }
  }

  private static RuntimeException rethrown(Throwable cause) {
    if (cause instanceof RuntimeException runtime) {
      return runtime;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return new IllegalStateException(cause);
  }
}
