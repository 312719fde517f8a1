package dev.transforms.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.PublishConflictException;
import dev.transforms.api.TransformFailedException;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.secrets.SecretMasker;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the file of last builds keeps when builds of one transform end one after the other or race. */
class LastBuildsTest {

  @TempDir
  Path warehouse;

  private static final SecretMasker NO_SECRETS = new SecretMasker(List.of());

  private static final Instant T0 = Instant.parse("2026-12-06T10:00:00Z");

  private static TimedResult succeeded(Instant started, long millis) {
    TransformResult result = new TransformResult("Orders.clean", "single-node", TransformResult.Status.SUCCEEDED,
        false, "full", List.of(), Duration.ofMillis(millis), Optional.empty(), List.of(), List.of());
    return new TimedResult(result, started, started.plusMillis(millis));
  }

  private static TimedResult failed(Instant started, long millis, Throwable error) {
    TransformResult result = new TransformResult("Orders.clean", "single-node", TransformResult.Status.FAILED,
        false, "full", List.of(), Duration.ofMillis(millis), Optional.of(error), List.of(), List.of());
    return new TimedResult(result, started, started.plusMillis(millis));
  }

  private LastBuilds.LastBuild recorded() {
    return LastBuilds.read(warehouse).get("Orders.clean");
  }

  @Test
  void theLoserOfARaceKeepsTheWinnersEntryWhicheverRecordsFirst() {
    Throwable lost = new TransformFailedException("Transform Orders.clean failed",
        new PublishConflictException("/Shop/clean was published by another build"));

    // The winner records first, then the loser, which started while the winner ran.
    LastBuilds.record(warehouse, List.of(succeeded(T0, 24_000)), NO_SECRETS);
    LastBuilds.record(warehouse, List.of(failed(T0.plusSeconds(1), 25_000, lost)), NO_SECRETS);
    assertThat(recorded().status()).isEqualTo("SUCCEEDED");
    assertThat(recorded().duration()).isEqualTo(Duration.ofSeconds(24));

    // The loser records first: the winner, ending later, replaces it.
    LastBuilds.record(warehouse, List.of(failed(T0.plusSeconds(100), 1_000, lost)), NO_SECRETS);
    assertThat(recorded().status()).isEqualTo("FAILED");
    LastBuilds.record(warehouse, List.of(succeeded(T0.plusSeconds(99), 5_000)), NO_SECRETS);
    assertThat(recorded().status()).isEqualTo("SUCCEEDED");
  }

  @Test
  void anyOtherFailureOrALaterConflictReplacesTheEntry() {
    LastBuilds.record(warehouse, List.of(succeeded(T0, 1_000)), NO_SECRETS);
    LastBuilds.record(warehouse, List.of(failed(T0.plusMillis(500), 100, new IllegalStateException("boom"))),
        NO_SECRETS);
    assertThat(recorded().status()).isEqualTo("FAILED");
    assertThat(recorded().error()).contains("boom");

    // A conflict with a build that ended before this one started is this build's own failure.
    LastBuilds.record(warehouse, List.of(succeeded(T0.plusSeconds(10), 1_000)), NO_SECRETS);
    LastBuilds.record(warehouse, List.of(failed(T0.plusSeconds(20), 100,
        new PublishConflictException("another writer changed /Shop/clean"))), NO_SECRETS);
    assertThat(recorded().status()).isEqualTo("FAILED");
  }
}
