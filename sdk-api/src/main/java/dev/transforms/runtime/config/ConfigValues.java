package dev.transforms.runtime.config;

import dev.transforms.runtime.secrets.SecretMasker;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The keys of a loaded configuration with their values, what the settings of each concern (advisories,
 * lineage, DuckDB, builds...) are read from: after layering and {@code ${VAR}} references, with where
 * each key was set, the masker of the configuration's secrets, its file and the pipeline's name. Values
 * are as written; a concern trims and checks its own.
 *
 * @param values the keys with their values, in the order errors about them are reported
 * @param origins where each key was set, as errors name it: {@code file PATH},
 *     {@code environment variable NAME}, {@code --warehouse}, {@code the default} or {@code the embedded default}
 * @param masker the masker that hides the configuration's secrets
 * @param source the file the keys were read from, empty for the embedded default
 * @param pipelineName the pipeline's name: the folder holding the file, or the working directory
 */
public record ConfigValues(Map<String, String> values, Map<String, String> origins, SecretMasker masker,
    Optional<Path> source, String pipelineName) {

  /** Copies the maps. */
  public ConfigValues {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    origins = Map.copyOf(origins);
  }

  /**
   * Values with no file, no secrets, every key set by the same origin: for settings built in code.
   *
   * @param values the keys with their values
   * @param origin how errors name where the keys were set
   * @return the values, of pipeline {@code transforms}
   */
  public static ConfigValues of(Map<String, String> values, String origin) {
    Map<String, String> origins = new LinkedHashMap<>();
    values.keySet().forEach(k -> origins.put(k, origin));
    return new ConfigValues(values, origins, new SecretMasker(List.of()), Optional.empty(), "transforms");
  }

  /**
   * The value of a key.
   *
   * @param key a configuration key, such as {@code build.threads}
   * @return the value as written, or empty when the key is not set
   */
  public Optional<String> get(String key) {
    return Optional.ofNullable(values.get(key));
  }

  /**
   * The keys that start with a prefix, with their values.
   *
   * @param prefix such as {@code duckdb.}
   * @return the keys, whole, sorted; unmodifiable
   */
  public Map<String, String> withPrefix(String prefix) {
    Map<String, String> found = new TreeMap<>();
    values.forEach((key, value) -> {
      if (key.startsWith(prefix)) {
        found.put(key, value);
      }
    });
    return Collections.unmodifiableMap(found);
  }

  /**
   * Where a key's value was set.
   *
   * @param key a configuration key
   * @return the origin, or empty for a key that is not set
   */
  public String origin(String key) {
    return origins.getOrDefault(key, "");
  }
}
