/**
 * How the runtime finds engines ({@code EngineRegistry}, over {@link dev.transforms.runtime.spi.EngineProvider}).
 * The engines' settings are in {@code runtime.internal.config}; the engine SPI itself is
 * {@link dev.transforms.runtime.spi}.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. What users may import is listed in
 * {@code docs/architecture.md}.
 */
package dev.transforms.runtime.internal.engine;
