package dev.transforms.runtime.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;
import org.junit.jupiter.api.Test;

/** The SDK's one commit retry loop: what it retries, how often, what it refreshes and what it throws. */
class CommitRetryTest {

  private final AtomicInteger attempts = new AtomicInteger();
  private final AtomicInteger refreshes = new AtomicInteger();

  @Test
  void retriesAConflictRefreshingBeforeEachRetryUntilAnAttemptSucceeds() {
    String result = retry(5)
        .run(() -> {
          if (attempts.incrementAndGet() < 3) {
            throw new CommitFailedException("conflict %s", attempts.get());
          }
          return "committed after " + refreshes.get() + " refreshes";
        }, last -> "gave up");
    assertThat(result).isEqualTo("committed after 2 refreshes");
    assertThat(attempts).hasValue(3);
  }

  @Test
  void givesUpAfterTheLastAttemptWithTheLastCause() {
    List<CommitFailedException> thrown = new ArrayList<>();
    assertThatThrownBy(() -> retry(4).run(() -> {
          CommitFailedException e = new CommitFailedException("conflict %s", attempts.incrementAndGet());
          thrown.add(e);
          throw e;
        }))
        .isSameAs(thrown.get(3)).hasMessage("conflict 4");
    assertThat(attempts).hasValue(4);
    assertThat(refreshes).hasValue(3);
  }

  @Test
  void giveUpTurnsTheLastCauseIntoTheCallersResultOrError() {
    String result = retry(2).run(() -> {
      attempts.incrementAndGet();
      throw new CommitFailedException("conflict");
    }, last -> "gave up: " + last.getMessage());
    assertThat(result).isEqualTo("gave up: conflict");
    assertThat(attempts).hasValue(2);

    assertThatThrownBy(() -> CommitRetry.onConflict(1).run(() -> {
      throw new CommitFailedException("conflict");
    }, last -> {
      throw new IllegalStateException("no luck", last);
    })).isInstanceOf(IllegalStateException.class).hasMessage("no luck")
        .hasCauseInstanceOf(CommitFailedException.class);
  }

  @Test
  void doesNotRetryAFailureItWasNotToldAbout() {
    ValidationException moved = new ValidationException("main moved");
    assertThatThrownBy(() -> retry(20).run(() -> {
      attempts.incrementAndGet();
      throw moved;
    })).isSameAs(moved);
    assertThat(attempts).hasValue(1);
    assertThat(refreshes).hasValue(0);
  }

  @Test
  void retriesWhatItsPredicateAccepts() {
    CommitRetry busy = new CommitRetry(3, e -> e.getMessage().contains("busy"), CommitRetry.Backoff.NONE, () -> { },
        (e, last) -> last);
    busy.run(() -> {
      if (attempts.incrementAndGet() == 1) {
        throw new IllegalStateException("database busy");
      }
    });
    assertThat(attempts).hasValue(2);
    assertThatThrownBy(() -> busy.run(() -> {
      throw new CommitFailedException("conflict");
    })).isInstanceOf(CommitFailedException.class);
  }

  @Test
  void anInterruptionWhileWaitingEndsTheLoopWithTheCallersError() {
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> CommitRetry.onConflict(3).run(() -> {
        attempts.incrementAndGet();
        throw new CommitFailedException("conflict");
      })).isInstanceOf(CommitFailedException.class).hasMessage("Interrupted while retrying a commit");
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
      assertThat(attempts).hasValue(1);

      Thread.currentThread().interrupt();
      CommitFailedException last = new CommitFailedException("conflict");
      assertThatThrownBy(() -> new CommitRetry(3, CommitFailedException.class::isInstance, CommitRetry.COMMIT_BACKOFF, () -> { },
          (e, failure) -> failure).run(() -> {
        throw last;
      })).isSameAs(last);
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void waitsDoubleUpToTheLimitWithTheirJitter() {
    CommitRetry.Backoff commits = CommitRetry.COMMIT_BACKOFF;
    for (int i = 0; i < 50; i++) {
      assertThat(commits.waitMillis(0)).isBetween(10L, 29L);
      assertThat(commits.waitMillis(3)).isBetween(80L, 99L);
      assertThat(commits.waitMillis(40)).isBetween(640L, 659L);
      CommitRetry.Backoff half = new CommitRetry.Backoff(200, 2_000, 0, true);
      assertThat(half.waitMillis(0)).isBetween(100L, 200L);
      assertThat(half.waitMillis(9)).isBetween(1_000L, 2_000L);
    }
    assertThat(CommitRetry.Backoff.NONE.waitMillis(7)).isZero();
  }

  /** A loop of the publish protocol that does not wait and counts its refreshes. */
  private CommitRetry retry(int attempts) {
    return new CommitRetry(attempts, CommitFailedException.class::isInstance, CommitRetry.Backoff.NONE,
        refreshes::incrementAndGet, (e, last) -> new IllegalStateException(e));
  }

  @Test
  void refusesFewerThanOneAttempt() {
    assertThatThrownBy(() -> CommitRetry.onConflict(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A commit needs at least 1 attempt, not 0");
  }
}
