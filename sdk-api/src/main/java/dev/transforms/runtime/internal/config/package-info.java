/**
 * How a configuration is read, below {@link dev.transforms.runtime.TransformsConfig}: the properties file,
 * environment overrides, {@code ${VAR}} references, {@link dev.transforms.runtime.config.ConfigValues}
 * (the loaded keys, with where each was set), and the settings of each concern, each read and checked from
 * those values: {@code BuildSettings}, {@code DuckDbSettings},
 * {@code SingleNodeSettings}, {@code SparkSettings}, and {@code BranchNames} (the names a branch may have).
 * The lineage concern's {@code LineageSettings} is public, in {@code runtime}: {@code sdk-lineage} reads it.
 * It imports nothing of the runtime but the published {@code runtime.config} and {@code runtime.secrets}, so every
 * layer may read its settings.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.runtime.internal.config;

import dev.transforms.runtime.config.ConfigValues;
