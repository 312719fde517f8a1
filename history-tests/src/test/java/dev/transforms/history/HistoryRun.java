package dev.transforms.history;

import dev.transforms.testing.TestWarehouse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Runs a history on a warehouse: makes the input, runs each step, and after each build checks it
 * ({@link BuildCheck}). Stops at the first check that fails.
 */
final class HistoryRun {

  private HistoryRun() {}

  /**
   * A history that failed a check.
   *
   * @param history the history
   * @param step the index of the step that failed (its check ran after it); -1 for the set-up
   * @param check what was checked, without details
   * @param told what each step did, in words, up to the one that failed
   * @param error the failure
   */
  record Failure(History history, int step, String check, List<String> told, Throwable error) {

    /** The history as it ran, one step a line, and what failed. */
    String describe() {
      return history.name() + ": " + history.setup().describe() + "\n"
          + IntStream.range(0, told.size()).mapToObj(i -> "  " + (i + 1) + ". " + told.get(i))
              .collect(Collectors.joining("\n"))
          + "\nfailed after step " + (step + 1) + ": " + error.getMessage();
    }
  }

  /**
   * Runs a history.
   *
   * @param history the history
   * @param warehouse an empty warehouse
   * @return the failure, if a check failed
   */
  static Optional<Failure> run(History history, TestWarehouse warehouse) {
    List<String> told = new ArrayList<>();
    InputSteps input;
    try {
      input = InputSteps.create(warehouse, history.setup());
    } catch (Mismatch e) {
      return Optional.of(new Failure(history, -1, e.check(), told, e));
    }
    BuildCheck builds = new BuildCheck(warehouse, input, history.spark());
    for (int i = 0; i < history.steps().size(); i++) {
      Step step = history.steps().get(i);
      try {
        if (step instanceof Step.FailingBuild failing) {
          told.add(builds.build(Optional.of(failing.transform())));
        } else if (step instanceof Step.KilledBuild) {
          told.add(builds.killedBuild());
        } else if (step instanceof Step.Build) {
          told.add(builds.build(Optional.empty()));
        } else {
          told.add(input.apply(step));
        }
      } catch (Mismatch e) {
        told.add(step.words() + ": FAILED");
        return Optional.of(new Failure(history, i, e.check(), told, e));
      } catch (RuntimeException e) {
        told.add(step.words() + ": FAILED");
        return Optional.of(new Failure(history, i, step.getClass().getSimpleName() + " throws "
            + e.getClass().getSimpleName(), told, e));
      }
    }
    return Optional.empty();
  }

  /**
   * Runs a history on a warehouse of its own, in a temporary folder deleted afterwards.
   *
   * @param history the history
   * @return the failure, if a check failed
   */
  static Optional<Failure> runAlone(History history) {
    Path folder;
    try {
      folder = Files.createTempDirectory("history-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (TestWarehouse warehouse = new TestWarehouse(folder.resolve("warehouse"))) {
      return run(history, warehouse);
    } finally {
      delete(folder);
    }
  }

  private static void delete(Path folder) {
    try (Stream<Path> paths = Files.walk(folder)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // A temporary folder left behind harms nothing.
    }
  }
}
