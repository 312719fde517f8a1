package dev.transforms.crash;

import java.util.List;
import java.util.Optional;

/**
 * One kind of build the crash matrix kills: the transform built, what is built before it, which
 * points of the protocol apply.
 *
 * @param name the row's name in the matrix
 * @param crashed the transform class the killed child builds
 * @param setup the transform class built (and published) before, if any: the output then exists
 * @param after the transform class the build after the kill runs (the crashed one unless it fails)
 * @param failing whether the crashed transform throws (its build never publishes)
 * @param plainFolder whether the file output starts as a plain folder written by hand
 * @param killedBefore a build killed at a point before the crashed one, to leave something to recover
 * @param points the protocol points to kill the crashed build at
 * @param branch the branch the killed build and the builds after it build ({@code main} for an ordinary
 *     build); the setup is always built on {@code main}
 */
record CrashCase(String name, Class<?> crashed, Optional<Class<?>> setup, Class<?> after, boolean failing,
    boolean plainFolder, Optional<Kill> killedBefore, List<String> points, String branch) {

  /** The branch of an ordinary build. */
  static final String MAIN = "main";

  /** A child killed at a point. */
  record Kill(Class<?> transform, String point) {}

  static CrashCase of(String name, Class<?> crashed) {
    return new CrashCase(name, crashed, Optional.empty(), crashed, false, false, Optional.empty(), List.of(), MAIN);
  }

  CrashCase setup(Class<?> transform) {
    return new CrashCase(name, crashed, Optional.of(transform), after, failing, plainFolder, killedBefore, points,
        branch);
  }

  CrashCase after(Class<?> transform) {
    return new CrashCase(name, crashed, setup, transform, failing, plainFolder, killedBefore, points, branch);
  }

  CrashCase thatFails() {
    return new CrashCase(name, crashed, setup, after, true, plainFolder, killedBefore, points, branch);
  }

  CrashCase overPlainFolder() {
    return new CrashCase(name, crashed, setup, after, failing, true, killedBefore, points, branch);
  }

  CrashCase killedBefore(Class<?> transform, String point) {
    return new CrashCase(name, crashed, setup, after, failing, plainFolder, Optional.of(new Kill(transform, point)),
        points, branch);
  }

  CrashCase points(List<String> which) {
    return new CrashCase(name, crashed, setup, after, failing, plainFolder, killedBefore, which, branch);
  }

  /** The killed build and the builds after it on a branch; {@code main} must stay exactly as set up. */
  CrashCase onBranch(String name) {
    return new CrashCase(this.name, crashed, setup, after, failing, plainFolder, killedBefore, points, name);
  }

  /** Whether the builds of the case are branch builds. */
  boolean onBranch() {
    return !branch.equals(MAIN);
  }

  /** Whether the crashed transform adds a column ({@link CrashTransforms#ADDED_COLUMN}) to its output. */
  boolean reshapes() {
    return crashed.getSimpleName().endsWith("Reshape");
  }

  /**
   * Whether the killed transform runs on Spark: a cell of the matrix's Spark rows, which also needs Spark in
   * the test JVM (to set up, or to check file outputs).
   */
  boolean spark() {
    return crashed.getSimpleName().startsWith("Spark");
  }

  @Override
  public String toString() {
    return name;
  }
}
