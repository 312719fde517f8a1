package dev.transforms.runtime.internal.build;

import dev.transforms.runtime.internal.config.BuildSettings;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.publish.BuildBranch;
import dev.transforms.runtime.spi.TransformSpec;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a build is asked to do beyond its plan: transforms to build in full whatever their state
 * ({@code --full}), transforms to run even when they are up to date ({@code --force}), how many
 * transforms may run at once ({@code --threads}), and whether the first failure stops the build from
 * starting more ({@code --fail-fast}).
 *
 * @param full the names of the transforms that build in full
 * @param forced the names of the transforms that run even when up to date
 * @param threads how many transforms run at once, at most; 1 runs them one by one in plan order
 * @param failFast whether a failure stops the build from starting other transforms
 * @param branch the branch the build reads and publishes ({@link BuildBranch#MAIN} for an ordinary build)
 */
public record BuildOptions(Set<String> full, Set<String> forced, int threads, boolean failFast, BuildBranch branch) {

  /** Nothing asked: one transform at a time, as its state says; up-to-date ones are skipped. */
  public static final BuildOptions NONE = new BuildOptions(Set.of(), Set.of(), 1, false);

  /**
   * Options that run one transform at a time and go on after a failure.
   *
   * @param full the names of the transforms that build in full
   * @param forced the names of the transforms that run even when up to date
   */
  public BuildOptions(Set<String> full, Set<String> forced) {
    this(full, forced, 1, false);
  }

  /**
   * Options of an ordinary build of {@code main}.
   *
   * @param full the names of the transforms that build in full
   * @param forced the names of the transforms that run even when up to date
   * @param threads how many transforms run at once, at most
   * @param failFast whether a failure stops the build from starting other transforms
   */
  public BuildOptions(Set<String> full, Set<String> forced, int threads, boolean failFast) {
    this(full, forced, threads, failFast, BuildBranch.MAIN);
  }

  /**
   * Every transform of a plan runs, up to date or not (benchmarks and tests that rebuild unchanged inputs).
   *
   * @param plan the plan
   * @return options forcing each of its transforms
   */
  public static BuildOptions forcing(BuildPlan plan) {
    return new BuildOptions(Set.of(), plan.transforms().stream().map(TransformSpec::name).collect(Collectors.toSet()));
  }

  /** Copies the sets and checks the number of threads. */
  public BuildOptions {
    full = Set.copyOf(full);
    forced = Set.copyOf(forced);
    java.util.Objects.requireNonNull(branch, "branch");
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, not " + threads);
    }
  }

  /**
   * These options with another number of threads.
   *
   * @param count how many transforms run at once, at most
   * @return the new options
   */
  public BuildOptions withThreads(int count) {
    return new BuildOptions(full, forced, count, failFast, branch);
  }

  /**
   * These options on the branch a person named, or on {@code main}.
   *
   * @param name the branch's name; null for {@code main}
   * @param values the configuration's values, for the branch's fallbacks
   * @return the new options
   * @throws IllegalArgumentException naming the branch, if no build can use that name
   */
  public BuildOptions withBranch(String name, dev.transforms.runtime.config.ConfigValues values) {
    return withBranch(name == null ? BuildBranch.MAIN
        : BuildBranch.named(name, BuildSettings.branchFallbacks(values)));
  }


  /**
   * These options on a branch.
   *
   * @param on the branch the build reads and publishes
   * @return the new options
   */
  public BuildOptions withBranch(BuildBranch on) {
    return new BuildOptions(full, forced, threads, failFast, on);
  }

  /**
   * These options, stopping at the first failure or not.
   *
   * @param stop whether a failure stops the build from starting other transforms
   * @return the new options
   */
  public BuildOptions withFailFast(boolean stop) {
    return new BuildOptions(full, forced, threads, stop, branch);
  }
}
