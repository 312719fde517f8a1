package dev.transforms.architecture.cycle.first;

import dev.transforms.architecture.cycle.second.Second;

/** One half of a package cycle, for the cycle rule to report. */
public final class First {

  /**
   * Reaches the other package.
   *
   * @return a class of the other package
   */
  public Second other() {
    return new Second();
  }
}
