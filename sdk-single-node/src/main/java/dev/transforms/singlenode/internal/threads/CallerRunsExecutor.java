package dev.transforms.singlenode.internal.threads;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An executor that runs each task in the calling thread.
 *
 * <p>Iceberg waits for work handed to its thread pools by polling with 10 ms sleeps (planning,
 * loading delete files, filtering and writing manifests at commit). On a small table that polling
 * costs more than the work: an edit of a few files spent most of its time asleep. For small inputs
 * row edits and the reader of live rows pass this executor instead, so the work runs at once in the
 * caller and every future is done when Iceberg first checks it. Large inputs keep Iceberg's shared
 * pools.
 */
public final class CallerRunsExecutor extends AbstractExecutorService {
  /** The one instance. */
  public static final CallerRunsExecutor INSTANCE = new CallerRunsExecutor();

  private CallerRunsExecutor() {}

  @Override
  public void execute(Runnable command) {
    command.run();
  }

  @Override
  public void shutdown() {
    throw new UnsupportedOperationException(
        "The caller-runs executor is shared; do not shut it down");
  }

  @Override
  public List<Runnable> shutdownNow() {
    throw new UnsupportedOperationException(
        "The caller-runs executor is shared; do not shut it down");
  }

  @Override
  public boolean isShutdown() {
    return false;
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return false;
  }
}
