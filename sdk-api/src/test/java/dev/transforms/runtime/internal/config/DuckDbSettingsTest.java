package dev.transforms.runtime.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.config.ConfigValues;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DuckDbSettingsTest {

  private static DuckDbSettings settings(Map<String, String> keys) {
    return DuckDbSettings.of(ConfigValues.of(keys, "environment variable X"));
  }

  @Test
  void onlyTheDuckDbKeysAreReadAndTrimmed() {
    assertThat(settings(Map.of("duckdb.threads", " 2 ", "duckdb.parquet", "FALSE", "spark.master", "local"))
        .properties()).containsExactly(Map.entry("duckdb.parquet", "FALSE"), Map.entry("duckdb.threads", "2"));
  }

  @Test
  void badKeysAndValuesAreRefusedNamingTheKey() {
    assertThatThrownBy(() -> settings(Map.of("duckdb.colour", "red"))).isInstanceOf(ConfigurationException.class)
        .hasMessage("Unknown configuration key 'duckdb.colour' (set by environment variable X); the DuckDB session "
            + "keys are [duckdb.memory-limit, duckdb.parquet, duckdb.threads]");
    assertThatThrownBy(() -> settings(Map.of("duckdb.threads", "0")))
        .hasMessage("Configuration key 'duckdb.threads' (set by environment variable X) must be a positive whole "
            + "number of threads, not '0'");
    assertThatThrownBy(() -> settings(Map.of("duckdb.parquet", "maybe")))
        .hasMessage("Configuration key 'duckdb.parquet' (set by environment variable X) must be true or false, "
            + "not 'maybe'");
    assertThatThrownBy(() -> settings(Map.of("duckdb.memory-limit", " ")))
        .hasMessage("Configuration key 'duckdb.memory-limit' (set by environment variable X) is empty");
  }
}
