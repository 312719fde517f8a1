package dev.transforms.runtime.internal.lineage;

import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.config.LineageSettings;
import dev.transforms.runtime.spi.RunLineage;
import dev.transforms.runtime.spi.TransformSpec;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The OpenLineage events of one build, as the build runner and the engines see them. With lineage off
 * ({@code openlineage.enabled} unset or false) every method does nothing and the OpenLineage client is
 * never loaded; a build whose configuration has {@code openlineage.} keys but leaves the switch unset
 * logs one warning saying so.
 *
 * <p>What is emitted (see {@code docs/lineage.md}): a run of the build's own job (the pipeline), and under
 * it one run per transform, a {@code START} once its inputs are loaded and one of {@code COMPLETE} (after
 * its outputs were published, or when it was up to date), {@code FAIL} (with the error) or {@code ABORT}
 * (skipped, or cancelled) when it finished. Events are queued and sent on threads of the build's own;
 * the build's end waits for them at most {@code openlineage.timeout}. A branch build's runs carry the tag
 * {@code transforms.branch}, and each table its events name the {@code iceberg.branch} it was read at or
 * published to.
 *
 * <p>Thread-safe: workers report what they loaded and published, the coordinator what finished.
 */
public interface BuildLineage {

  /** Lineage off: nothing is emitted. */
  BuildLineage OFF = new BuildLineage() {};

  /**
   * The lineage of a build that starts: its settings are read from the configuration, and, when lineage is
   * on, the build's run starts (its {@code START} event is queued). A transport that cannot be built is
   * the build's one lineage warning, and the build runs without lineage. So are {@code openlineage.}
   * settings without {@code openlineage.enabled} ({@link LineageSettings#offWithSettings}).
   *
   * @param config the configuration
   * @param resolver resolves dataset paths
   * @param transforms the transforms of the build, in plan order
   * @param buildId the build's identifier
   * @param branch the branch the build reads and publishes; {@code main} for an ordinary build
   * @return the build's lineage, {@link #OFF} when lineage is off
   */
  static BuildLineage start(TransformsConfig config, TableResolver resolver, List<TransformSpec> transforms,
      String buildId, String branch) {
    return start(config, resolver, transforms, buildId, branch, LineageEmitter.logWarnings());
  }

  /**
   * As {@link #start(TransformsConfig, TableResolver, List, String, String)}, with the warnings going
   * elsewhere, for tests.
   *
   * @param config the configuration
   * @param resolver resolves dataset paths
   * @param transforms the transforms of the build, in plan order
   * @param buildId the build's identifier
   * @param branch the branch the build reads and publishes; {@code main} for an ordinary build
   * @param warnings takes the build's one warning
   * @return the build's lineage
   */
  static BuildLineage start(TransformsConfig config, TableResolver resolver, List<TransformSpec> transforms,
      String buildId, String branch, Consumer<String> warnings) {
    LineageSettings settings = LineageSettings.of(config.values());
    if (!settings.enabled()) {
      // Transport settings without the switch: the build's one lineage warning, so that silence is not taken
      // for events sent.
      LineageSettings.offWithSettings(config.values(), buildId).ifPresent(warnings);
      return OFF;
    }
    try {
      return OpenLineageBuild.start(settings, config, resolver, transforms, buildId, branch, warnings);
    } catch (LinkageError e) {
      // The classes of a build that skipped packaging (the client is shaded into the jar only).
      warnings.accept("OpenLineage: build " + buildId + " emits no events: the OpenLineage client is not on the "
          + "classpath (" + e + "). The build is not affected.");
      return OFF;
    }
  }

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
