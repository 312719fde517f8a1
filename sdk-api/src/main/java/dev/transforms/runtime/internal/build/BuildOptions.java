package dev.transforms.runtime.internal.build;

import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.spec.TransformSpec;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a build is asked to do beyond its plan: transforms to build in full whatever their state
 * ({@code --full}), and transforms to run even when they are up to date ({@code --force}).
 *
 * @param full the names of the transforms that build in full
 * @param forced the names of the transforms that run even when up to date
 */
public record BuildOptions(Set<String> full, Set<String> forced) {

  /** Nothing asked: every transform runs as its state says, up-to-date ones are skipped. */
  public static final BuildOptions NONE = new BuildOptions(Set.of(), Set.of());

  /**
   * Every transform of a plan runs, up to date or not (benchmarks and tests that rebuild unchanged inputs).
   *
   * @param plan the plan
   * @return options forcing each of its transforms
   */
  public static BuildOptions forcing(BuildPlan plan) {
    return new BuildOptions(Set.of(), plan.transforms().stream().map(TransformSpec::name).collect(Collectors.toSet()));
  }

  /** Copies the sets. */
  public BuildOptions {
    full = Set.copyOf(full);
    forced = Set.copyOf(forced);
  }
}
