package dev.transforms.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Incremental equals full, over any history: seeded random histories of an input table (appends,
 * upserts, late changes and deletes in every write mode, overwrites, compactions, snapshot expiry,
 * rollbacks, schema changes, builds that fail half way), with builds of the {@link Downstream}
 * transforms in between. After each build every incremental variant must equal its full twin
 * ({@link BuildCheck} says what equal means for each), and must have built incrementally exactly when
 * the model of the input says it can, and in full, saying why, otherwise.
 *
 * <p>Every build runs the single-node transforms; a few histories also run the Spark ones
 * ({@link SparkDownstream}), and a few have one build killed with SIGKILL in a JVM of its own
 * ({@link ChildBuild}). {@code -Dhistories=N} runs N single-node histories (200 by default),
 * {@code -Dspark-histories=M} M with Spark (4), {@code -Dkilled-histories=K} K with a killed build (3), from
 * seed {@code -Dfirst-seed} (0) on; {@code -Dseed=S} replays the histories of one seed (every kind). A
 * failing history is shrunk to the fewest steps that still fail the same check, and printed with its
 * seed, step by step in words. Histories run three at once ({@code junit-platform.properties}).
 */
@TransformsTest(warehouse = TransformsTest.Scope.PER_TEST)
class IncrementalEqualsFullTest {

  /** How many runs shrinking a failing history may take; one with Spark or a child JVM takes seconds. */
  private static final int SHRINK_RUNS = 80;
  private static final int SHRINK_RUNS_SLOW = 12;

  static LongStream singleNodeSeeds() {
    return seeds("histories", 200);
  }

  static LongStream sparkSeeds() {
    return seeds("spark-histories", 4);
  }

  static LongStream killedSeeds() {
    return seeds("killed-histories", 3);
  }

  /** The seeds of one kind of history: {@code -Dseed=S} alone, or N from {@code -Dfirst-seed} (0) on. */
  private static LongStream seeds(String property, int byDefault) {
    String seed = System.getProperty("seed");
    if (seed != null && !seed.isBlank()) {
      return LongStream.of(Long.parseLong(seed.trim()));
    }
    long first = Long.getLong("first-seed", 0);
    return LongStream.range(first, first + Long.getLong(property, byDefault));
  }

  /**
   * Checks, once every history ran, that each incremental variant built both incrementally and in full
   * in a run of many histories: histories that never let a variant build incrementally would check
   * nothing about incremental builds, whatever their comparisons said.
   */
  @AfterAll
  static void everyVariantBuiltBothWays() {
    System.out.println("Incremental variants over the histories of this run:\n" + BuildTally.describe());
    if (killedSeeds().count() >= 3) {
      assertThat(BuildTally.of(BuildCheck.KILLED, BuildTally.Outcome.FAILED)).as("builds killed half way").isPositive();
    }
    if (singleNodeSeeds().count() < 100) {
      return;
    }
    for (String variant : History.VARIANTS) {
      assertThat(BuildTally.of(variant, BuildTally.Outcome.INCREMENTAL)).as("incremental builds of " + variant)
          .isPositive();
      assertThat(BuildTally.of(variant, BuildTally.Outcome.FULL)).as("full builds of " + variant).isPositive();
    }
  }

  @ParameterizedTest(name = "seed {0}", allowZeroInvocations = true)
  @MethodSource("singleNodeSeeds")
  @Execution(ExecutionMode.CONCURRENT)
  void singleNode(long seed, TestWarehouse warehouse) {
    check(History.random(seed, false, false), warehouse);
  }

  @ParameterizedTest(name = "seed {0}", allowZeroInvocations = true)
  @MethodSource("sparkSeeds")
  @Execution(ExecutionMode.CONCURRENT)
  void withSpark(long seed, TestWarehouse warehouse) {
    check(History.random(seed, true, false), warehouse);
  }

  @ParameterizedTest(name = "seed {0}", allowZeroInvocations = true)
  @MethodSource("killedSeeds")
  @Execution(ExecutionMode.CONCURRENT)
  void withKilledBuild(long seed, TestWarehouse warehouse) {
    check(History.random(seed, false, true), warehouse);
  }

  private static void check(History history, TestWarehouse warehouse) {
    Optional<HistoryRun.Failure> failure = HistoryRun.run(history, warehouse);
    if (failure.isEmpty()) {
      return;
    }
    HistoryRun.Failure smallest = Shrinker.shrink(failure.get(),
        history.spark() || history.killed() ? SHRINK_RUNS_SLOW : SHRINK_RUNS);
    throw new AssertionError("History of " + history.name() + " failed; replay it with -Dseed="
        + history.seed() + ".\n\nShrunk to:\n" + smallest.describe() + "\n\nAs generated:\n"
        + failure.get().describe(), failure.get().error());
  }
}
