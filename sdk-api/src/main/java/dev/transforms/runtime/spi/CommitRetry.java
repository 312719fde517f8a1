package dev.transforms.runtime.spi;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.iceberg.exceptions.CommitFailedException;

/**
 * The one retry loop of the SDK's commits: runs an attempt until it returns, at most {@code attempts}
 * times, waiting between attempts ({@link Backoff}) and then running {@code refresh}. Only failures
 * {@code retryable} accepts are retried; any other is thrown at once. As in Iceberg's snapshot producers,
 * each attempt starts from the table as it is now (it reloads, rebuilds its metadata and runs its checks
 * again), so a check that fails on the new state is never retried. {@link #onConflict(int)} is the loop
 * of the publish protocol's commits; other loops name every part.
 *
 * @param attempts how many attempts at most, at least 1
 * @param retryable whether a failed attempt may be tried again
 * @param backoff the wait before each retry
 * @param refresh what to reload after the wait, so that the next attempt starts from the new state
 * @param interrupted the error to throw, from the interruption and the last failure, when the thread is
 *     interrupted while waiting (its interrupt flag is set again first)
 */
public record CommitRetry(int attempts, Predicate<? super RuntimeException> retryable, Backoff backoff,
    Runnable refresh, BiFunction<InterruptedException, RuntimeException, RuntimeException> interrupted) {

  /** The wait between the publish protocol's commits: 10 ms doubling up to 640 ms, plus up to 20 ms. */
  public static final Backoff COMMIT_BACKOFF = new Backoff(10, 640, 20, false);

  /** Checks the attempts. */
  public CommitRetry {
    if (attempts < 1) {
      throw new IllegalArgumentException("A commit needs at least 1 attempt, not " + attempts);
    }
  }

  /**
   * A loop that retries {@link CommitFailedException} (another writer committed first), waits
   * {@link #COMMIT_BACKOFF}, refreshes nothing, and, interrupted while waiting, throws a
   * {@code CommitFailedException} ("Interrupted while retrying a commit").
   *
   * @param attempts how many attempts at most, at least 1
   * @return the loop
   */
  public static CommitRetry onConflict(int attempts) {
    return new CommitRetry(attempts, CommitFailedException.class::isInstance, COMMIT_BACKOFF, () -> { },
        (e, last) -> new CommitFailedException(e, "Interrupted while retrying a commit"));
  }

  /**
   * Runs {@code attempt} until it completes.
   *
   * @param attempt one attempt
   * @throws RuntimeException a failure that is not retried, or the last failure after the last attempt
   */
  public void run(Runnable attempt) {
    run(() -> {
      attempt.run();
      return null;
    }, last -> {
      throw last;
    });
  }

  /**
   * Runs {@code attempt} until it returns; after the last attempt failed, returns or throws what
   * {@code giveUp} makes of the last failure.
   *
   * @param <T> what an attempt returns
   * @param attempt one attempt
   * @param giveUp the result, or the error to throw, once the last attempt failed
   * @return what the first attempt that did not fail returned, or what {@code giveUp} returned
   * @throws RuntimeException a failure that is not retried, or what {@code giveUp} throws
   */
  public <T> T run(Supplier<T> attempt, Function<RuntimeException, T> giveUp) {
    for (int retry = 0; ; retry++) {
      try {
        return attempt.get();
      } catch (RuntimeException e) {
        if (!retryable.test(e)) {
          throw e;
        }
        if (retry + 1 >= attempts) {
          return giveUp.apply(e);
        }
        pause(backoff.waitMillis(retry), e);
        refresh.run();
      }
    }
  }

  private void pause(long millis, RuntimeException last) {
    if (millis > 0) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException interruption) {
        Thread.currentThread().interrupt();
        throw interrupted.apply(interruption, last);
      }
    }
  }

  /**
   * How long to wait before a retry: {@code firstMillis}, doubling with each retry up to
   * {@code maxMillis}, with jitter so that writers that collided do not collide again.
   *
   * @param firstMillis the wait before the first retry
   * @param maxMillis the longest wait, before the jitter
   * @param jitterMillis the bound of a random part added to the wait
   * @param fromHalf whether to wait a random time between half and all of the wait instead
   */
  public record Backoff(long firstMillis, long maxMillis, long jitterMillis, boolean fromHalf) {

    /** No wait at all. */
    public static final Backoff NONE = new Backoff(0, 0, 0, false);

    /**
     * The wait before a retry.
     *
     * @param retry 0 for the first retry (after the first attempt), 1 for the next...
     * @return milliseconds to wait
     */
    public long waitMillis(int retry) {
      long wait = Math.min(maxMillis, firstMillis << Math.min(retry, 20));
      if (fromHalf) {
        return wait == 0 ? 0 : ThreadLocalRandom.current().nextLong(wait / 2, wait + 1);
      }
      return wait + (jitterMillis > 0 ? ThreadLocalRandom.current().nextLong(jitterMillis) : 0);
    }
  }
}
