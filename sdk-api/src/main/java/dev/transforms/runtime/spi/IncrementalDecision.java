package dev.transforms.runtime.spi;

/**
 * Whether a build of a transform runs incrementally, and the reason when it does not.
 *
 * @param incremental whether the build reads only rows added since the last successful build
 * @param reason why the build is full ("first build", "semantic version changed from 1 to 2", ...), or
 *     a short note for an incremental build
 */
public record IncrementalDecision(boolean incremental, String reason) {

  /**
   * An incremental build.
   *
   * @return the decision
   */
  public static IncrementalDecision incrementalBuild() {
    return new IncrementalDecision(true, "inputs changed only by appends");
  }

  /**
   * A full build.
   *
   * @param reason why the build cannot be incremental
   * @return the decision
   */
  public static IncrementalDecision full(String reason) {
    return new IncrementalDecision(false, reason);
  }
}
