package dev.transforms.runtime.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.config.ConfigValues;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SparkSettingsTest {

  @Test
  void onlyTheSparkKeysArePassedAsTheyAre() {
    ConfigValues values = ConfigValues.of(Map.of("spark.master", "local[2]", "spark.sql.shuffle.partitions", " 4",
        "sparkle", "x", "duckdb.threads", "2"), "file t.properties");
    assertThat(SparkSettings.of(values).properties()).containsExactly(Map.entry("spark.master", "local[2]"),
        Map.entry("spark.sql.shuffle.partitions", " 4"));
  }
}
