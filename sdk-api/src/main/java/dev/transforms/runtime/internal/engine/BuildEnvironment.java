package dev.transforms.runtime.internal.engine;

import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.catalog.TableResolver;

/**
 * What one build shares with its engines.
 *
 * @param buildId the build's identifier, unique per build
 * @param config the configuration
 * @param catalogs the Iceberg catalogs, built on first use
 * @param resolver turns dataset paths into tables
 */
public record BuildEnvironment(String buildId, TransformsConfig config, Catalogs catalogs, TableResolver resolver) {}
