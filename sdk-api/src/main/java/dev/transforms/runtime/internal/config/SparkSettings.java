package dev.transforms.runtime.internal.config;

import dev.transforms.runtime.config.ConfigValues;
import java.util.Map;

/**
 * The {@code spark.*} keys, passed as they are to the Spark session ({@code spark.master}...). Spark
 * checks them itself when the session starts.
 *
 * @param properties the keys with their values, sorted
 */
public record SparkSettings(Map<String, String> properties) {

  /** The prefix of the keys. */
  public static final String PREFIX = "spark.";

  /**
   * Reads the settings.
   *
   * @param values the configuration's values
   * @return the settings
   */
  public static SparkSettings of(ConfigValues values) {
    return new SparkSettings(values.withPrefix(PREFIX));
  }
}
