/**
 * A loaded configuration's keys as its concerns read them: {@link dev.transforms.runtime.config.ConfigValues}
 * holds each key with its value after layering and {@code ${VAR}} references, where it was set, and the masker
 * of the configuration's secrets. The settings of each concern (advisories, lineage, maintenance policies, and
 * the runtime's own) are read from it, and so may an engine's; {@code TransformsConfig.values()} gives it. It
 * imports nothing of the runtime but {@link dev.transforms.runtime.secrets}.
 *
 * <p><b>Compatibility.</b> Published, with the promise of {@link dev.transforms.runtime.spi}: a minor release
 * may add, and removes or changes a signature only after deprecating it.
 */
package dev.transforms.runtime.config;
