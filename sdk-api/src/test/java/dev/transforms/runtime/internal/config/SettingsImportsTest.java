package dev.transforms.runtime.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The configuration's layers stay free of circles: {@code TransformsConfig} reads the concerns' settings, so
 * no settings class, and nothing in this package, may read {@code TransformsConfig}.
 */
class SettingsImportsTest {

  private static final Path MAIN = Path.of("src/main/java/dev/transforms/runtime");

  @Test
  void noSettingsClassImportsTransformsConfig() throws IOException {
    List<Path> files = new ArrayList<>(List.of(MAIN.resolve("spi/AdvisorySettings.java"),
        MAIN.resolve("internal/lineage/LineageSettings.java"), MAIN.resolve("internal/build/BuildSettings.java"),
        MAIN.resolve("internal/engine/DuckDbSettings.java"), MAIN.resolve("internal/engine/SparkSettings.java"),
        MAIN.resolve("internal/engine/SingleNodeSettings.java"), MAIN.resolve("maintenance/MaintenancePolicies.java")));
    try (Stream<Path> config = Files.list(MAIN.resolve("internal/config"))) {
      config.forEach(files::add);
    }
    assertThat(files).hasSizeGreaterThan(10);
    for (Path file : files) {
      assertThat(Files.readString(file)).as(file.toString()).doesNotContain("import dev.transforms.runtime.TransformsConfig;");
    }
  }
}
