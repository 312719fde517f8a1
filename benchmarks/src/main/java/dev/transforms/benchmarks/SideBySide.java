package dev.transforms.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Measures cases of the SDK and of PyIceberg side by side, as the production-like runs of
 * {@code benchmarks/pyiceberg/run} do ({@link ObjectStoreBenchmark}, {@link ScaleBenchmark},
 * {@link ColdStartBenchmark}): each case is one command sent to a {@link Side}, a worker that times the
 * call itself; the cases of one operation alternate run by run, each run starting one case later than
 * the one before, so that all see the same machine and none always follows the same other. A PyIceberg
 * call may be capped: past the limit its worker is stopped and the case reports "timed out at N s"
 * without further runs.
 */
final class SideBySide {

  private SideBySide() {}

  /** A worker that runs commands and times them: PyIceberg's ({@link LineWorker}) or the SDK's. */
  interface Side extends AutoCloseable {
    /** What the worker is, for messages. */
    String label();

    /**
     * Runs a command.
     *
     * @return the answer
     * @throws IllegalStateException if the worker failed
     */
    JsonNode call(ObjectNode command);

    /**
     * Runs a command, stopping it past a limit where the worker can be stopped.
     *
     * @param limit null for none
     * @return the answer; empty when the limit passed first
     */
    Optional<JsonNode> call(ObjectNode command, Duration limit);

    /**
     * Runs a command the worker times.
     *
     * @return the milliseconds of its timed call ({@code "ms"})
     */
    default double timed(ObjectNode command) {
      return call(command).get("ms").asDouble();
    }

    @Override
    void close();
  }

  /**
   * One measured case: untimed preparation, the command the side times, an untimed check of its answer.
   *
   * @param name the case's name in the results, such as {@code "SDK, 20 ms"}
   */
  record Case(String name, Side side, ObjectNode command, Runnable before, Consumer<JsonNode> check) {}

  /** What the runs of one case gave. */
  static final class Outcome {
    final String name;
    final List<Double> millis = new ArrayList<>();
    final List<Double> heapPeaksMb = new ArrayList<>();
    final List<Double> rssPeaksMb = new ArrayList<>();
    final List<Double> rssStartsMb = new ArrayList<>();
    final Set<String> strategies = new LinkedHashSet<>();
    final List<Double> requests = new ArrayList<>();
    Long timedOutAtSeconds;

    Outcome(String name) {
      this.name = name;
    }

    /** The median of the timed runs, or null without any. */
    Double median() {
      return median(millis);
    }

    static Double median(List<Double> values) {
      if (values.isEmpty()) {
        return null;
      }
      double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      return Harness.median(sorted);
    }

    /** The median and the 90th percentile in ms, or why there is none. */
    String time() {
      if (timedOutAtSeconds != null) {
        return "timed out at " + timedOutAtSeconds + " s";
      }
      if (millis.isEmpty()) {
        return "-";
      }
      double[] sorted = millis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      return sorted.length < 3 ? String.format(Locale.ROOT, "%.0f", Harness.median(sorted))
          : String.format(Locale.ROOT, "%.0f (%.0f)", Harness.median(sorted), Harness.percentile(sorted, 0.9));
    }

    /** The planners' counters of one call, as every timed run had them; "-" when none moved. */
    String strategies() {
      return strategies.isEmpty() ? "-" : String.join(" or ", strategies);
    }
  }

  /** Extra numbers a case's answer may carry, recorded into its outcome. */
  @FunctionalInterface
  interface Extra {
    void record(Case current, JsonNode answer, Outcome outcome);
  }

  /** Operations that failed, for the harness to print at the end and exit with status 1. */
  static final List<String> FAILURES = new ArrayList<>();

  /**
   * Runs the cases of one operation in turn, {@code warmup} runs untimed and then {@code runs} timed.
   *
   * @param limit the limit of one call where the side can be stopped (PyIceberg's), or null
   * @param extra what else to record from an answer, or null
   * @return the outcome of each case by name, in the cases' order; empty if the operation failed (the
   *     failure is printed and kept in {@link #FAILURES})
   */
  static Map<String, Outcome> measure(String operation, int warmup, int runs, List<Case> cases, Duration limit,
      Extra extra) {
    Map<String, Outcome> outcomes = new LinkedHashMap<>();
    cases.forEach(c -> outcomes.put(c.name(), new Outcome(c.name())));
    try {
      for (int run = -warmup; run < runs; run++) {
        for (int turn = 0; turn < cases.size(); turn++) {
          Case current = cases.get(Math.floorMod(run + turn, cases.size()));
          Outcome outcome = outcomes.get(current.name());
          if (outcome.timedOutAtSeconds != null) {
            continue;
          }
          current.before().run();
          Optional<JsonNode> answer = current.side().call(current.command(), limit);
          if (answer.isEmpty()) {
            outcome.timedOutAtSeconds = limit.toSeconds();
            System.err.printf(Locale.ROOT, "%s: %s timed out at %d s%n", operation, current.name(), limit.toSeconds());
            continue;
          }
          if (run >= 0) {
            if (extra != null) { // before the check, which may read the table
              extra.record(current, answer.get(), outcome);
            }
            outcome.millis.add(answer.get().get("ms").asDouble());
            record(answer.get(), outcome);
          }
          current.check().accept(answer.get());
        }
      }
    } catch (RuntimeException | AssertionError failure) {
      System.err.println("FAILED: " + operation + ": " + failure);
      failure.printStackTrace();
      FAILURES.add(operation + ": " + failure);
      return Map.of();
    }
    StringBuilder line = new StringBuilder("done: " + operation + " (load " + PyIcebergBenchmark.loadAverage() + ")");
    outcomes.values().forEach(o -> line.append("; ").append(o.name).append(' ').append(o.time())
        .append(o.timedOutAtSeconds == null ? " ms" : ""));
    System.err.println(line);
    return outcomes;
  }

  private static void record(JsonNode answer, Outcome outcome) {
    if (answer.hasNonNull("heap_peak_mb")) {
      outcome.heapPeaksMb.add(answer.get("heap_peak_mb").asDouble());
    }
    if (answer.hasNonNull("rss_peak_mb")) {
      outcome.rssPeaksMb.add(answer.get("rss_peak_mb").asDouble());
    }
    if (answer.hasNonNull("rss_start_mb")) {
      outcome.rssStartsMb.add(answer.get("rss_start_mb").asDouble());
    }
    JsonNode strategies = answer.get("strategies");
    if (strategies != null) {
      List<String> moved = new ArrayList<>();
      strategies.fields().forEachRemaining(e -> moved.add(e.getKey() + " x" + e.getValue().asLong()));
      outcome.strategies.add(moved.isEmpty() ? "none counted" : String.join(", ", moved));
    }
  }

  /** "1.23x": PyIceberg's median over the SDK's (above 1: the SDK is faster); "-" without both. */
  static String ratio(Outcome pyIceberg, Outcome sdk) {
    if (pyIceberg == null || sdk == null || sdk.median() == null) {
      return "-";
    }
    if (pyIceberg.timedOutAtSeconds != null) {
      return String.format(Locale.ROOT, "> %.1fx", pyIceberg.timedOutAtSeconds * 1000.0 / sdk.median());
    }
    return pyIceberg.median() == null ? "-" : String.format(Locale.ROOT, "%.2fx", pyIceberg.median() / sdk.median());
  }

  /** The median of some numbers as whole units, or "-". */
  static String medianOf(List<Double> values) {
    Double median = Outcome.median(values);
    return median == null ? "-" : String.format(Locale.ROOT, "%.0f", median);
  }

  /** A Markdown table. */
  static String table(List<String> header, List<List<String>> rows) {
    StringBuilder out = new StringBuilder();
    out.append("| ").append(String.join(" | ", header)).append(" |\n|");
    header.forEach(h -> out.append("---|"));
    out.append('\n');
    for (List<String> row : rows) {
      out.append("| ").append(String.join(" | ", row)).append(" |\n");
    }
    return out.toString();
  }

  /**
   * Reads {@code --name value} and {@code --flag} arguments.
   *
   * @param flags the arguments without a value
   * @param valued the arguments with one
   * @return the value of each argument given ({@code "true"} for a flag), by its name without dashes
   * @throws IllegalArgumentException for an unknown argument or a missing value
   */
  static Map<String, String> options(String[] args, Set<String> flags, Set<String> valued) {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String name = arg.startsWith("--") ? arg.substring(2) : arg;
      if (flags.contains(name)) {
        options.put(name, "true");
      } else if (valued.contains(name) && i + 1 < args.length) {
        options.put(name, args[++i]);
      } else {
        throw new IllegalArgumentException((valued.contains(name) ? arg + " needs a value" : "unknown argument '"
            + arg + "'") + " (known: " + Stream.concat(flags.stream().map(f -> "--" + f),
            valued.stream().map(v -> "--" + v + " VALUE")).collect(Collectors.joining(", ")) + ")");
      }
    }
    return options;
  }
}
