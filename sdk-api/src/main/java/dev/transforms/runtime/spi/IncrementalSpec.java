package dev.transforms.runtime.spi;

import dev.transforms.runtime.DatasetPath;
import java.util.Set;

/**
 * The validated {@code @Incremental} options of a transform.
 *
 * @param semanticVersion the version of the transform's logic; a change forces a full build
 * @param snapshotInputs inputs always read whole, whose changes never force a full build
 * @param requireIncremental whether a build that cannot be incremental fails
 * @param readsChanges whether the transform reads its inputs' changes, so edited inputs keep builds
 *     incremental
 */
public record IncrementalSpec(
    int semanticVersion, Set<DatasetPath> snapshotInputs, boolean requireIncremental, boolean readsChanges) {

  /**
   * Copies the set so the spec stays immutable.
   *
   * @param semanticVersion the semantic version
   * @param snapshotInputs the snapshot inputs
   * @param requireIncremental whether to fail instead of running a full build
   * @param readsChanges whether the transform reads its inputs' changes
   */
  public IncrementalSpec {
    snapshotInputs = Set.copyOf(snapshotInputs);
  }
}
