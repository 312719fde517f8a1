package dev.transforms.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The shutdown hook of {@code transforms build} returns only once the build's outcome is printed: the JVM
 * halts when it returns, so whatever is printed after that may never appear.
 */
class StopOnSignalTest {

  @Test
  void anErrorEndingAStoppedBuildIsPrintedBeforeTheHookReturns() throws Exception {
    StopOnSignal stop = new StopOnSignal();
    List<String> printed = new CopyOnWriteArrayList<>();
    CountDownLatch building = new CountDownLatch(1);
    Thread command = new Thread(() -> stop.run(cancellation -> {
      building.countDown();
      while (!cancellation.isCancelled()) {
        Thread.onSpinWait();
      }
      // Such as an engine that fails to close because Spark's own shutdown hook stopped it meanwhile.
      throw new IllegalStateException("Cannot close the engine: SparkContext was shut down");
    }, error -> {
      sleep(300); // printing takes time; the hook must wait for it
      printed.add(error.getMessage());
      return ExitCodes.FAILED;
    }), "command");
    command.start();
    assertThat(building.await(10, TimeUnit.SECONDS)).isTrue();

    Thread hook = new Thread(stop::cancelAndWait, "hook");
    hook.start();
    hook.join(TimeUnit.SECONDS.toMillis(10));

    assertThat(hook.isAlive()).isFalse();
    assertThat(printed).as("printed when the hook returned")
        .containsExactly("Cannot close the engine: SparkContext was shut down");
    command.join(TimeUnit.SECONDS.toMillis(10));
  }

  @Test
  void aBuildThatEndsByItselfReturnsItsExitCodeAndLetsTheHookGo() throws Exception {
    StopOnSignal stop = new StopOnSignal();
    int code = stop.run(cancellation -> ExitCodes.OK, error -> ExitCodes.FAILED);
    Thread hook = new Thread(stop::cancelAndWait, "hook");
    hook.start();
    hook.join(TimeUnit.SECONDS.toMillis(10));
    assertThat(code).isEqualTo(ExitCodes.OK);
    assertThat(hook.isAlive()).as("the hook does not wait for a build that has ended").isFalse();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
