package dev.transforms.runtime.internal.config;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.config.ConfigValues;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The {@code duckdb.*} keys: {@code duckdb.memory-limit} and {@code duckdb.threads}, the memory limit
 * (DuckDB's syntax, such as {@code 4GB} or {@code 50%}) and the threads of the DuckDB session a single-node
 * transform opens with {@code ctx.sql()} (defaults: DuckDB's own, 80% of the machine's memory and one thread
 * per core); {@code duckdb.parquet} (default {@code true}): whether the single-node engine lets DuckDB (when
 * on the classpath) read and write Parquet files itself where the result is the same. Reading: an input
 * whose pinned snapshot has no delete files and lives on the local file system is read straight from its
 * Parquet files, in the SQL session and in {@code arrow()}. Writing: a {@code writeTable} to an
 * unpartitioned local table whose column types DuckDB writes as Iceberg's spec asks, and copy-on-write
 * rewrites of large files by row edits, have their Parquet files written by DuckDB (faster, same column
 * metrics). {@code false} sends every row through the engine's reader and Iceberg's Java writer.
 *
 * @param properties the keys with their values, trimmed
 */
public record DuckDbSettings(Map<String, String> properties) {

  /** The prefix of the keys. */
  public static final String PREFIX = "duckdb.";

  /** The keys that may be set. */
  public static final Set<String> KEYS = Set.of("duckdb.memory-limit", "duckdb.threads", "duckdb.parquet");

  /**
   * Reads and checks the settings.
   *
   * @param values the configuration's values
   * @return the settings
   * @throws ConfigurationException naming the key and where it was set, for an unknown key, an empty value,
   *     a {@code duckdb.parquet} that is not true or false, or threads that are not a positive number
   */
  public static DuckDbSettings of(ConfigValues values) {
    Map<String, String> properties = new TreeMap<>();
    values.withPrefix(PREFIX).forEach((key, value) -> properties.put(key, checked(key, value, values.origin(key))));
    return new DuckDbSettings(Collections.unmodifiableMap(properties));
  }

  private static String checked(String key, String value, String origin) {
    if (!KEYS.contains(key)) {
      throw new ConfigurationException("Unknown configuration key '" + key + "' (set by " + origin
          + "); the DuckDB session keys are " + new TreeSet<>(KEYS));
    }
    String trimmed = value.strip();
    if (trimmed.isEmpty()) {
      throw new ConfigurationException("Configuration key '" + key + "' (set by " + origin + ") is empty");
    }
    if (key.equals("duckdb.parquet") && !trimmed.equalsIgnoreCase("true") && !trimmed.equalsIgnoreCase("false")) {
      throw new ConfigurationException("Configuration key '" + key + "' (set by " + origin
          + ") must be true or false, not '" + trimmed + "'");
    }
    if (key.equals("duckdb.threads") && !positive(trimmed)) {
      throw new ConfigurationException("Configuration key '" + key + "' (set by " + origin
          + ") must be a positive whole number of threads, not '" + trimmed + "'");
    }
    return trimmed;
  }

  private static boolean positive(String number) {
    try {
      return Integer.parseInt(number) > 0;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
