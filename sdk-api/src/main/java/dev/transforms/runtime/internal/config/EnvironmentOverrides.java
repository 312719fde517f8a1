package dev.transforms.runtime.internal.config;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Environment variables that override configuration keys: {@code TRANSFORMS_KEY} overrides {@code KEY},
 * upper case, every character other than a letter or digit as {@code _}.
 */
public final class EnvironmentOverrides {

  /** The prefix of environment variables that override configuration keys. */
  public static final String PREFIX = "TRANSFORMS_";

  private EnvironmentOverrides() {
  }

  /**
   * The environment variable that overrides a key.
   *
   * @param key a configuration key, such as {@code catalog.prod.uri}
   * @return the variable name, such as {@code TRANSFORMS_CATALOG_PROD_URI}
   */
  public static String variable(String key) {
    return PREFIX + key.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
  }

  /**
   * The values environment variables give to the keys they may override.
   *
   * @param keys the keys that may be overridden
   * @param environment the environment variables
   * @param origins where the origin of each overridden key is recorded
   * @return the overridden keys with their new values, in the order of the variables' names
   */
  public static Map<String, String> of(Set<String> keys, Map<String, String> environment,
      Map<String, String> origins) {
    Map<String, String> byVariable = new LinkedHashMap<>();
    keys.forEach(k -> byVariable.putIfAbsent(variable(k), k));
    Map<String, String> overrides = new LinkedHashMap<>();
    for (Map.Entry<String, String> variable : new TreeMap<>(environment).entrySet()) {
      String key = byVariable.get(variable.getKey());
      if (key != null) {
        overrides.put(key, variable.getValue());
        origins.put(key, "environment variable " + variable.getKey());
      }
    }
    return overrides;
  }
}
