package dev.transforms.runtime.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.ConfigurationException;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.runtime.config.ConfigValues;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BuildSettingsTest {

  private static BuildSettings settings(Map<String, String> keys) {
    return BuildSettings.of(ConfigValues.of(keys, "file conf.properties"));
  }

  @Test
  void unsetKeysGiveTheDefaults() {
    BuildSettings settings = settings(Map.of());
    assertThat(settings.configuredThreads()).isZero();
    assertThat(settings.threads()).isBetween(1, BuildSettings.DEFAULT_MAX_THREADS);
    assertThat(settings.onSchemaChange()).isEqualTo(SchemaChangePolicy.FAIL);
  }

  @Test
  void threadsAndPolicyAreRead() {
    BuildSettings settings = settings(Map.of("build.threads", " 3 ", "build.on-schema-change", "Append-New-Columns"));
    assertThat(settings.threads()).isEqualTo(3);
    assertThat(settings.onSchemaChange()).isEqualTo(SchemaChangePolicy.APPEND_NEW_COLUMNS);
  }

  @Test
  void badValuesAreRefusedNamingTheKeyAndWhereItWasSet() {
    assertThatThrownBy(() -> settings(Map.of("build.threads", "257"))).isInstanceOf(ConfigurationException.class)
        .hasMessage("Configuration key 'build.threads' (set by file conf.properties) must be a whole number from 1 "
            + "to 256, not '257'");
    assertThatThrownBy(() -> settings(Map.of("build.threads", "many"))).hasMessageContaining("not 'many'");
    assertThatThrownBy(() -> settings(Map.of("build.on-schema-change", "configured")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessage("Configuration key 'build.on-schema-change' (set by file conf.properties) must be fail, "
            + "append_new_columns or sync_all_columns, not 'configured'");
  }
}
