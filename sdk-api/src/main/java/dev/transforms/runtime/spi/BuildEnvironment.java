package dev.transforms.runtime.spi;

import dev.transforms.runtime.TransformsConfig;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/**
 * What one build shares with its engines.
 *
 * <p>Engine SPI: it changes only as the {@linkplain dev.transforms.runtime.spi package} promises.
 *
 * @param buildId the build's identifier, unique per build
 * @param config the configuration
 * @param threads how many transforms the build runs at once, at most: engines share their memory and
 *     threads among that many runs ({@link TransformRun#lane()} says which one a run is)
 * @param cancellation cancels the build: engines register what stops a running transform's work
 * @param lineage the OpenLineage of a running transform, by its name, where engines send their own events
 *     (Spark jobs'); empty when the build emits no lineage
 * @param folders stages a file output ({@code @Output}) of this build, by the dataset's folder: recovers
 *     what dead builds left there and claims a version folder for this build's files
 */
public record BuildEnvironment(String buildId, TransformsConfig config, int threads,
    dev.transforms.runtime.BuildCancellation cancellation, Function<String, Optional<RunLineage>> lineage,
    Function<Path, StagedFolder> folders) {

  /** Checks the number of threads. */
  public BuildEnvironment {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1: " + threads);
    }
  }
}
