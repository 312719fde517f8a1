package dev.transforms.testing.archfixture;

import dev.transforms.cli.TransformsCli;

/** A class in the testing kit's package that uses the command line: what the boundary rule must report. */
public final class UsesCommandLine {

  /**
   * Names the command line's class.
   *
   * @return its name
   */
  public String commandLineName() {
    return TransformsCli.class.getName();
  }
}
