package dev.transforms.cli;

import dev.transforms.runtime.BuildCancellation;
import dev.transforms.runtime.spi.QuietLogging;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C and SIGTERM during {@code transforms build}: the JVM's shutdown hook cancels the build and waits
 * (up to {@value #WAIT_SECONDS} s) until it has discarded what was running and printed its report, so that
 * no output is left half published and the user sees what became of each transform. Closing it (when the
 * build ends normally) removes the hook.
 */
final class StopOnSignal implements AutoCloseable {

  /** How long the hook waits for running transforms to discard their writes. */
  static final int WAIT_SECONDS = 120;

  private final BuildCancellation cancellation = new BuildCancellation();
  private final CountDownLatch ended = new CountDownLatch(1);
  private final Thread hook;

  private StopOnSignal() {
    hook = new Thread(() -> {
      // The cancelled Spark jobs' tasks abort, and Spark logs each abort as an error with its stack
      // trace; the build's report says what became of every transform.
      QuietLogging.silenceLibrariesWhileStopping();
      cancellation.cancel("the process was asked to stop (Ctrl-C or SIGTERM)");
      try {
        ended.await(WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "transforms-build-stop");
  }

  /**
   * Installs the hook for one build.
   *
   * @return the installed hook; close it when the build has ended and its report is printed
   */
  static StopOnSignal install() {
    StopOnSignal stop = new StopOnSignal();
    Runtime.getRuntime().addShutdownHook(stop.hook);
    return stop;
  }

  /** The cancellation the build is given. */
  BuildCancellation cancellation() {
    return cancellation;
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
