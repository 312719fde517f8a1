package dev.transforms.cli;

import dev.transforms.runtime.BuildCancellation;
import dev.transforms.runtime.spi.QuietLogging;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;

/**
 * Ctrl-C and SIGTERM during {@code transforms build}: the JVM's shutdown hook cancels the build and waits
 * (up to {@value #WAIT_SECONDS} s) until it has discarded what was running and printed its report, so that
 * no output is left half published and the user sees what became of each transform. Closing it (when the
 * build ends normally) removes the hook.
 *
 * <p>A build that ends with an error instead of a report prints that error through {@link #run} while the
 * hook still waits: the JVM halts as soon as the hook returns, so an error printed after it (by the command
 * line's handler) could be lost, leaving a stopped build that says nothing.
 */
final class StopOnSignal implements AutoCloseable {

  /** How long the hook waits for running transforms to discard their writes. */
  static final int WAIT_SECONDS = 120;

  private final BuildCancellation cancellation = new BuildCancellation();
  private final CountDownLatch ended = new CountDownLatch(1);
  private final Thread hook;

  StopOnSignal() {
    hook = new Thread(() -> {
      // The cancelled Spark jobs' tasks abort, and Spark logs each abort as an error with its stack
      // trace; the build's report says what became of every transform.
      QuietLogging.silenceLibrariesWhileStopping();
      cancelAndWait();
    }, "transforms-build-stop");
  }

  /** What the hook does: cancels the build, then waits until {@link #run} has printed how it ended. */
  void cancelAndWait() {
    cancellation.cancel("the process was asked to stop (Ctrl-C or SIGTERM)");
    try {
      ended.await(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Installs the hook for one build.
   *
   * @return the installed hook; close it when the build has ended and its report is printed
   */
  static StopOnSignal installed() {
    StopOnSignal stop = new StopOnSignal();
    Runtime.getRuntime().addShutdownHook(stop.hook);
    return stop;
  }

  /**
   * Runs a build under this hook: an error that ends it is printed before the hook may return.
   *
   * @param build the build, given this hook's cancellation; returns the exit code
   * @param printError prints an error that ended the build and returns the exit code it means
   * @return the exit code
   */
  int run(ToIntFunction<BuildCancellation> build,
      ToIntFunction<RuntimeException> printError) {
    try {
      return build.applyAsInt(cancellation);
    } catch (RuntimeException e) {
      return printError.applyAsInt(e);
    } finally {
      close();
    }
  }

  @Override
  public void close() {
    ended.countDown();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // The hook is running: the JVM ends once it returns.
    }
  }

}
