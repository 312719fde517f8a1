package dev.transforms.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A cancelled build's transform whose Spark job will never end, because Spark's shutdown hook stopped the
 * context under it, is interrupted; one that ends, or whose context goes on, is left alone.
 */
class StoppedContextWatchTest {

  /** A run that waits, as a caller of a job no scheduler will finish does, until it is interrupted. */
  private static Thread waitingRun(CountDownLatch never, AtomicBoolean interrupted) {
    Thread run = new Thread(() -> {
      try {
        never.await();
      } catch (InterruptedException e) {
        interrupted.set(true);
      }
    }, "run");
    run.start();
    return run;
  }

  @Test
  void aRunStillWaitingOnceTheContextStoppedIsInterrupted() throws Exception {
    AtomicBoolean stopped = new AtomicBoolean();
    AtomicBoolean interrupted = new AtomicBoolean();
    Thread run = waitingRun(new CountDownLatch(1), interrupted);
    StoppedContextWatch watch = new StoppedContextWatch(run, stopped::get);

    watch.start("watch");
    Thread.sleep(300);
    assertThat(interrupted).as("not before the context stops").isFalse();
    stopped.set(true);
    run.join(TimeUnit.SECONDS.toMillis(10));

    assertThat(interrupted).isTrue();
    assertThat(watch.ended()).as("the run's owner clears the flag").isTrue();
  }

  @Test
  void aRunThatEndsIsNeverInterruptedEvenIfTheContextStopsAfterwards() throws Exception {
    AtomicBoolean stopped = new AtomicBoolean();
    AtomicBoolean interrupted = new AtomicBoolean();
    CountDownLatch finish = new CountDownLatch(1);
    Thread run = waitingRun(finish, interrupted);
    StoppedContextWatch watch = new StoppedContextWatch(run, stopped::get);

    watch.start("watch");
    finish.countDown();
    run.join(TimeUnit.SECONDS.toMillis(10));
    assertThat(watch.ended()).isFalse();
    stopped.set(true);
    Thread.sleep(StoppedContextWatch.GRACE_MILLIS + 500);

    assertThat(interrupted).isFalse();
    assertThat(run.isInterrupted()).isFalse();
  }
}
