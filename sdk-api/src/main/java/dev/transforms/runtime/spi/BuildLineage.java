package dev.transforms.runtime.spi;

import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.TransformResult;
import java.util.List;
import java.util.Optional;

/**
 * The lineage of one build, as the build runner and the engines see it. A {@link LineageProvider} starts
 * one for each build when {@code openlineage.enabled} is true; the {@code sdk-lineage} module's provider
 * sends OpenLineage events. With lineage off every method does nothing.
 *
 * <p>What the build reports, and when: each transform's inputs once they are loaded ({@link #started}),
 * its outputs once they are published or found up to date ({@link #published}), each transform's end
 * through the {@link #listener}, and the build's end ({@link #finish}), after which the build waits for
 * the events still queued at most {@code openlineage.timeout}. An engine sends the events of its own jobs
 * (Spark's) through the transform's {@link #run}. See {@code docs/lineage.md} for the events.
 *
 * <p>Thread-safe: workers report what they loaded and published, the coordinator what finished.
 * Implementations never throw from these methods: lineage never fails a build.
 */
public interface BuildLineage {

  /** Lineage off: nothing is emitted. */
  BuildLineage OFF = new BuildLineage() {};

  /**
   * Whether events are emitted.
   *
   * @return false for {@link #OFF}
   */
  default boolean enabled() {
    return false;
  }

  /**
   * The listener that emits each transform's final event, around the build's own listener.
   *
   * @param progress the build's listener, called after lineage has queued its event
   * @return the listener to hand the scheduler
   */
  default BuildListener listener(BuildListener progress) {
    return progress;
  }

  /**
   * A transform's inputs are loaded: its {@code START} event.
   *
   * @param transform the transform's name
   * @param inputs its inputs, with the snapshots it reads
   * @param outputs its outputs as they are before the run
   */
  default void started(String transform, List<DatasetFacts> inputs, List<DatasetFacts> outputs) {}

  /**
   * A transform's outputs are published, or found up to date: what its {@code COMPLETE} event says of them.
   *
   * @param transform the transform's name
   * @param outputs its outputs, with the snapshots published and their schemas
   * @param bytesAdded bytes of data files added per output path; empty when unknown
   */
  default void published(String transform, List<DatasetFacts> outputs,
      java.util.Map<dev.transforms.runtime.DatasetPath, Long> bytesAdded) {}

  /**
   * The lineage of a running transform, for its engine.
   *
   * @param transform the transform's name
   * @return its job and run, and where the engine's own events go; empty when lineage is off
   */
  default Optional<RunLineage> run(String transform) {
    return Optional.empty();
  }

  /**
   * The build ended: its run's final event is queued, and the events still waiting are sent, waiting at
   * most {@code openlineage.timeout}.
   *
   * @param results every transform's result
   */
  default void finish(List<TransformResult> results) {}
}
