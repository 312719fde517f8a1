package dev.transforms.spark.internal;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * After a build is cancelled, watches a running transform's thread until its run ends: when Spark's own
 * shutdown hook stops the context meanwhile (Ctrl-C and SIGTERM reach both hooks at once) and the run still
 * goes on, its thread is interrupted. A job submitted just before the context stopped can leave its caller
 * waiting for a result no scheduler will ever give, and the build, its discard and its report waiting with it
 * until the JVM gives up. An interrupted wait fails the transform, which the cancelled build discards and
 * reports.
 */
public final class StoppedContextWatch {

  /** How long the run may go on once the context is stopped. */
  static final long GRACE_MILLIS = 2_000;

  /** How long the watch lasts at most: the command line's shutdown hook waits 120 s. */
  static final long WATCH_MILLIS = 120_000;

  private static final long POLL_MILLIS = 100;

  private final Thread worker;
  private final BooleanSupplier stopped;
  private final CountDownLatch endedLatch = new CountDownLatch(1);
  private boolean ended;
  private boolean interrupted;

  /**
   * A watch of a run's thread, not started yet.
   *
   * @param worker the thread the transform runs on
   * @param stopped whether Spark's context is stopped
   */
  public StoppedContextWatch(Thread worker, BooleanSupplier stopped) {
    this.worker = worker;
    this.stopped = stopped;
  }

  /**
   * Starts watching, on a daemon thread of its own; does nothing once the run ended.
   *
   * @param name the watching thread's name
   */
  public void start(String name) {
    Thread thread = new Thread(this::watch, name);
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Tells the watch that the run ended: nothing is interrupted after this.
   *
   * @return whether the watch interrupted the run's thread (whose flag the caller then clears)
   */
  public synchronized boolean ended() {
    ended = true;
    endedLatch.countDown();
    return interrupted;
  }

  private void watch() {
    try {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WATCH_MILLIS);
      while (System.nanoTime() < deadline) {
        if (endedLatch.await(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
          return;
        }
        if (stopped.getAsBoolean()) {
          if (!endedLatch.await(GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
            interrupt();
          }
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private synchronized void interrupt() {
    if (!ended) {
      interrupted = true;
      worker.interrupt();
    }
  }
}
