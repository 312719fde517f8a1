package dev.transforms.singlenode.internal.threads;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The daemon threads the engine hands work to while the calling thread goes on: decompressing pages
 * ahead of a Parquet cursor, writing delete files while new rows are written, copying the second
 * half of a large rewrite. Threads are created on demand and end after a minute without work.
 */
public final class BackgroundThreads {
  private static final AtomicInteger COUNT = new AtomicInteger();

  private static final ExecutorService THREADS =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "transforms-row-edits-" + COUNT.incrementAndGet());
            thread.setDaemon(true);
            return thread;
          });

  private BackgroundThreads() {}

  /** Starts a task on a background thread; {@link #await} waits for it. */
  public static Future<?> run(Runnable task) {
    return THREADS.submit(task);
  }

  /** Starts a task with a result on a background thread; {@link #await} returns it. */
  public static <T> Future<T> call(Callable<T> task) {
    return THREADS.submit(task);
  }

  /**
   * Runs {@code here} in the calling thread and {@code there} on a background thread at once, and
   * returns once both are done, also when one fails: the other is then done with what it holds before
   * the caller cleans up. A failure is thrown once both are done, the other's added to it.
   */
  public static void both(Runnable here, Runnable there) {
    Future<?> other = run(there);
    Throwable failure = null;
    try {
      here.run();
    } catch (RuntimeException | Error e) {
      failure = e;
    }
    try {
      await(other);
    } catch (RuntimeException | Error e) {
      if (failure == null) {
        failure = e;
      } else {
        failure.addSuppressed(e);
      }
    }
    if (failure instanceof RuntimeException runtime) {
      throw runtime;
    } else if (failure != null) {
      throw (Error) failure;
    }
  }

  /**
   * Waits for a task and returns its result; its unchecked exception or error is thrown as is, in
   * the waiting thread.
   */
  public static <T> T await(Future<T> task) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return task.get();
        } catch (InterruptedException e) {
          interrupted = true; // finish waiting: the task's files must be accounted for
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof RuntimeException) {
            throw (RuntimeException) cause;
          } else if (cause instanceof Error) {
            throw (Error) cause;
          }
          throw new IllegalStateException(cause);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
