package dev.transforms.runtime.spi;

import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.catalog.TableResolver;

/**
 * What one build shares with its engines.
 *
 * <p>Engine SPI: it changes only as the {@linkplain dev.transforms.runtime.spi package} promises.
 *
 * @param buildId the build's identifier, unique per build
 * @param config the configuration
 * @param catalogs the Iceberg catalogs, built on first use
 * @param resolver turns dataset paths into tables
 * @param threads how many transforms the build runs at once, at most: engines share their memory and
 *     threads among that many runs ({@link TransformRun#lane()} says which one a run is)
 * @param cancellation cancels the build: engines register what stops a running transform's work
 * @param lineage the build's OpenLineage events: engines send their own through it (Spark jobs')
 */
public record BuildEnvironment(String buildId, TransformsConfig config, Catalogs catalogs, TableResolver resolver,
    int threads, dev.transforms.runtime.BuildCancellation cancellation,
    dev.transforms.runtime.internal.lineage.BuildLineage lineage) {

  /** Checks the number of threads. */
  public BuildEnvironment {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1: " + threads);
    }
  }
}
