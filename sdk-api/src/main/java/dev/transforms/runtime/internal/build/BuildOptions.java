package dev.transforms.runtime.internal.build;

import java.util.Set;

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

  /** Copies the sets. */
  public BuildOptions {
    full = Set.copyOf(full);
    forced = Set.copyOf(forced);
  }
}
