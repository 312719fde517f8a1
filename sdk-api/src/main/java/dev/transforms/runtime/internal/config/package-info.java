/**
 * How a configuration is read, below {@link dev.transforms.runtime.TransformsConfig}: the properties file,
 * environment overrides, {@code ${VAR}} references, the layers with where each key was set, the catalog and
 * mount keys, and {@link dev.transforms.runtime.internal.config.ConfigValues}, the loaded keys every concern's
 * settings read.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.runtime.internal.config;
