package dev.transforms.runtime.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.config.ConfigValues;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SingleNodeSettingsTest {

  private static SingleNodeSettings settings(String limit) {
    return SingleNodeSettings.of(ConfigValues.of(Map.of("singlenode.memory-limit", limit), "file t.properties"));
  }

  @Test
  void sizesAreReadInBytes() {
    assertThat(settings("512m").memoryLimit()).isEqualTo(512L << 20);
    assertThat(settings(" 2 GB ").memoryLimit()).isEqualTo(2L << 30);
    assertThat(settings("40%").memoryLimit()).isPositive();
    assertThat(SingleNodeSettings.of(ConfigValues.of(Map.of(), "")).configuredMemory()).isZero();
    assertThat(SingleNodeSettings.of(ConfigValues.of(Map.of(), "")).memoryLimit()).isPositive();
  }

  @Test
  void aSizeWithoutUnitOrUnder16mIsRefusedNamingTheKey() {
    assertThatThrownBy(() -> settings("4096")).isInstanceOf(ConfigurationException.class)
        .hasMessage("Configuration key 'singlenode.memory-limit' (set by file t.properties) must be a size of at "
            + "least 16m, such as 512m, 8g or 40% (of the machine's memory), not '4096'");
    assertThatThrownBy(() -> settings("15m")).hasMessageContaining("not '15m'");
    assertThatThrownBy(() -> settings("101%")).hasMessageContaining("not '101%'");
  }
}
