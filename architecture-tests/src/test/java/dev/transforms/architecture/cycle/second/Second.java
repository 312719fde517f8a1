package dev.transforms.architecture.cycle.second;

import dev.transforms.architecture.cycle.first.First;

/** The other half of a package cycle, for the cycle rule to report. */
public final class Second {

  /**
   * Reaches back to the first package.
   *
   * @return a class of the first package
   */
  public First back() {
    return new First();
  }
}
