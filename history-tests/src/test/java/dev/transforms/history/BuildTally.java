package dev.transforms.history;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * How the incremental variants ran over all histories of a test run: incremental, in full, up to date, or
 * failed on purpose. A run in which a variant never built incrementally (or never in full) did not test
 * what it claims to, whatever its checks said.
 */
final class BuildTally {

  /** How a variant's build went. */
  enum Outcome {
    INCREMENTAL, FULL, UP_TO_DATE, FAILED;

    /** The outcome in words: {@code up to date}. */
    String words() {
      return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
  }

  private static final Map<String, Map<Outcome, AtomicInteger>> COUNTS = new ConcurrentHashMap<>();

  private BuildTally() {}

  /**
   * Counts one build of a variant.
   *
   * @param transform the variant
   * @param outcome how it went
   */
  static void count(String transform, Outcome outcome) {
    COUNTS.computeIfAbsent(transform, t -> new ConcurrentHashMap<>())
        .computeIfAbsent(outcome, o -> new AtomicInteger()).incrementAndGet();
  }

  /**
   * How often a variant's builds went some way.
   *
   * @param transform the variant
   * @param outcome the way
   * @return the count
   */
  static int of(String transform, Outcome outcome) {
    AtomicInteger count = COUNTS.getOrDefault(transform, Map.of()).get(outcome);
    return count == null ? 0 : count.get();
  }

  /** One line per variant: how many of its builds went each way; and the builds killed half way. */
  static String describe() {
    Map<String, Map<Outcome, AtomicInteger>> sorted = new TreeMap<>(COUNTS);
    sorted.remove(BuildCheck.KILLED);
    return sorted.entrySet().stream().map(e -> String.format("  %-14s %s", e.getKey(),
        Arrays.stream(Outcome.values()).map(o -> o.words() + " "
            + of(e.getKey(), o)).collect(Collectors.joining(", ")))).collect(Collectors.joining("\n"))
        + "\n  builds killed in a child JVM: " + of(BuildCheck.KILLED, Outcome.FAILED) + " (and "
        + of(BuildCheck.KILLED, Outcome.UP_TO_DATE) + " that found nothing to build)";
  }
}
