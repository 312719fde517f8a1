package dev.transforms.runtime;

import dev.transforms.runtime.internal.config.EnvironmentOverrides;
import dev.transforms.runtime.internal.config.VariableReferences;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The keys of a configuration layered as embedded defaults, then the file, then environment variables,
 * then {@code --warehouse}, with their {@code ${VAR}} references filled in, and where each value came
 * from, as errors name it.
 *
 * <p>An environment variable overrides a key the file or the embedded defaults define ({@code warehouse},
 * {@code files.root}, the embedded catalog's properties unless the file defines catalog {@code local},
 * the default mount unless the file declares mounts) and the keys the caller names.
 *
 * @param values the keys with their values, the embedded catalog's overrides left out
 * @param origins where each key was set: {@code file PATH}, {@code environment variable NAME},
 *     {@code --warehouse} or {@code the default}
 * @param embeddedOverrides the properties of the embedded catalog that the environment overrides, as
 *     {@code catalog.local.PROPERTY} keys; empty when the file defines that catalog itself
 * @param secrets the values of environment variables referenced by keys named like secrets
 */
record LayeredValues(Map<String, String> values, Map<String, String> origins,
    Map<String, String> embeddedOverrides, Set<String> secrets) {

  /**
   * Layers the sources of a configuration.
   *
   * @param fileKeys the file's keys, empty without a file
   * @param fileOrigin how errors name the file ({@code file PATH})
   * @param warehouse the {@code --warehouse} folder, if given
   * @param environment the environment variables
   * @param overridable keys the environment may set although neither the file nor the defaults do
   * @return the layered values, mutable for the steps that follow
   * @throws dev.transforms.api.ConfigurationException for a broken or unset {@code ${VAR}} reference
   */
  public static LayeredValues of(Map<String, String> fileKeys, String fileOrigin, Optional<Path> warehouse,
      Map<String, String> environment, Set<String> overridable) {
    Map<String, String> merged = new LinkedHashMap<>();
    Map<String, String> origins = new HashMap<>();
    merged.put("warehouse", "warehouse");
    origins.put("warehouse", "the default");
    merged.putAll(fileKeys);
    fileKeys.keySet().forEach(k -> origins.put(k, fileOrigin));
    // The environment overrides the defaults too; a default the file replaces is no longer there to override.
    boolean fileMounts = fileKeys.keySet().stream().anyMatch(k -> k.startsWith(MountKeys.PREFIX));
    boolean fileLocal = fileKeys.keySet().stream().anyMatch(k -> k.startsWith(CatalogKeys.EMBEDDED_PREFIX));
    Set<String> keys = new LinkedHashSet<>(merged.keySet());
    keys.add("files.root");
    keys.addAll(overridable);
    if (!fileMounts) {
      keys.add(MountKeys.DEFAULT_MOUNT_KEY);
    }
    if (!fileLocal) {
      CatalogKeys.embedded(Path.of("warehouse")).keySet().forEach(k -> keys.add(CatalogKeys.EMBEDDED_PREFIX + k));
    }
    Map<String, String> embeddedOverrides = new TreeMap<>();
    EnvironmentOverrides.of(keys, environment, origins).forEach((key, value) -> {
      if (!fileLocal && key.startsWith(CatalogKeys.EMBEDDED_PREFIX)) {
        embeddedOverrides.put(key, value);
      } else {
        merged.put(key, value);
      }
    });
    warehouse.ifPresent(w -> {
      merged.put("warehouse", w.toString());
      origins.put("warehouse", "--warehouse");
    });
    Set<String> secrets = new HashSet<>();
    merged.replaceAll((key, value) -> VariableReferences.fill(key, origins.get(key), value, environment, secrets));
    embeddedOverrides.replaceAll((key, value) -> VariableReferences.fill(key, origins.get(key), value, environment,
        secrets));
    return new LayeredValues(merged, origins, embeddedOverrides, secrets);
  }
}
