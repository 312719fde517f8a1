package dev.transforms.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Makes a failing history as short as it can while it still fails the same check: cuts the steps after
 * the one that failed, then removes one step at a time (the last first) and keeps each removal after
 * which a fresh run still fails that check, until no single step can go; then tries a plainer set-up.
 */
final class Shrinker {

  private Shrinker() {}

  /**
   * Shrinks a failure.
   *
   * @param failure a failure of a history
   * @param maxRuns how many runs the shrinking may take
   * @return the smallest failure found; {@code failure} itself if none is smaller
   */
  static HistoryRun.Failure shrink(HistoryRun.Failure failure, int maxRuns) {
    HistoryRun.Failure smallest = failure;
    int runs = 0;
    Optional<HistoryRun.Failure> cut = sameFailure(failure, cutAfterFailure(failure));
    runs++;
    if (cut.isPresent()) {
      smallest = cut.get();
    }
    boolean removed = true;
    while (removed && runs < maxRuns) {
      removed = false;
      for (int i = smallest.history().steps().size() - 1; i >= 0 && runs < maxRuns; i--) {
        List<Step> fewer = new ArrayList<>(smallest.history().steps());
        fewer.remove(i);
        if (fewer.stream().noneMatch(Step::builds)) {
          continue;
        }
        runs++;
        Optional<HistoryRun.Failure> again = sameFailure(failure, smallest.history().withSteps(fewer));
        if (again.isPresent()) {
          smallest = again.get();
          List<Step> upToFailure = smallest.history().steps().subList(0, smallest.step() + 1);
          if (upToFailure.size() < smallest.history().steps().size()) {
            smallest = sameFailure(failure, smallest.history().withSteps(upToFailure)).orElse(smallest);
            runs++;
          }
          removed = true;
          i = Math.min(i, smallest.history().steps().size());
        }
      }
    }
    History.Setup setup = smallest.history().setup();
    for (History.Setup plainer : List.of(
        new History.Setup(setup.formatVersion(), setup.writeMode(), setup.equalityDeletes(), false, setup.rows()),
        new History.Setup(setup.formatVersion(), setup.writeMode(), setup.equalityDeletes(), setup.partitioned(), 2))) {
      if (!plainer.equals(setup) && runs < maxRuns) {
        runs++;
        History history = new History(smallest.history().seed(), plainer, smallest.history().steps(),
            smallest.history().spark(), smallest.history().killed());
        Optional<HistoryRun.Failure> again = sameFailure(failure, history);
        if (again.isPresent()) {
          smallest = again.get();
          setup = plainer;
        }
      }
    }
    return smallest;
  }

  private static History cutAfterFailure(HistoryRun.Failure failure) {
    List<Step> steps = failure.history().steps();
    return failure.history().withSteps(steps.subList(0, Math.max(1, failure.step() + 1)));
  }

  /** Runs a history; its failure, if it fails the same check as the original. */
  private static Optional<HistoryRun.Failure> sameFailure(HistoryRun.Failure original, History history) {
    return HistoryRun.runAlone(history).filter(f -> f.check().equals(original.check()));
  }
}
