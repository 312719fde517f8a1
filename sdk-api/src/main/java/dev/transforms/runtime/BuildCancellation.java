package dev.transforms.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Stops a running build cleanly, from another thread: what {@code transforms build} does on Ctrl-C or
 * SIGTERM. Once cancelled, the build starts no transform; each running one is stopped where it can be
 * (its Spark jobs are cancelled) and, whatever it wrote, is discarded instead of published, as a failed
 * transform's writes are. A transform whose publication already began finishes it: an output is never
 * half published. The report lists the running ones as failed and the rest as skipped, with the reason.
 *
 * <p>Pass one to a build with {@link dev.transforms.Transforms.Selection#cancellation(BuildCancellation)}. A
 * cancellation is used once: a cancelled one cancels every build it is given to.
 */
public final class BuildCancellation {

  private volatile String reason;
  private final List<Runnable> hooks = new ArrayList<>();

  /** A cancellation not yet cancelled. */
  public BuildCancellation() {}

  /**
   * Cancels the build: starts nothing more, stops and discards what runs. Calling it again does nothing.
   *
   * @param why the reason, which the report gives, such as {@code "interrupted (SIGINT)"}
   */
  public void cancel(String why) {
    List<Runnable> toRun;
    synchronized (this) {
      if (reason != null) {
        return;
      }
      reason = why == null || why.isBlank() ? "cancelled" : why;
      toRun = List.copyOf(hooks);
    }
    for (Runnable hook : toRun) {
      try {
        hook.run();
      } catch (RuntimeException e) {
        // A hook that cannot stop its work leaves it to be discarded when it returns.
      }
    }
  }

  /**
   * Whether the build was cancelled.
   *
   * @return true once {@link #cancel} was called
   */
  public boolean isCancelled() {
    return reason != null;
  }

  /**
   * Why the build was cancelled.
   *
   * @return the reason given to {@link #cancel}, if it was cancelled
   */
  public Optional<String> reason() {
    return Optional.ofNullable(reason);
  }

  /**
   * Runs an action when the build is cancelled (at once if it already is), such as cancelling a
   * running transform's Spark jobs. For engines; the returned handle removes it when that work ends.
   *
   * @param hook what stops the work
   * @return closing it forgets the hook
   */
  public Registration onCancel(Runnable hook) {
    boolean now;
    synchronized (this) {
      now = reason != null;
      if (!now) {
        hooks.add(hook);
      }
    }
    if (now) {
      hook.run();
    }
    return () -> {
      synchronized (this) {
        hooks.remove(hook);
      }
    };
  }

  /** A hook registered with {@link #onCancel}; closing it forgets the hook. */
  public interface Registration extends AutoCloseable {
    /** Forgets the hook. */
    @Override
    void close();
  }
}
