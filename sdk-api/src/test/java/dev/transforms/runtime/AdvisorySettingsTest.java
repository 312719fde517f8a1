package dev.transforms.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import dev.transforms.api.AdvisoryException;
import dev.transforms.api.AdvisoryLevel;
import dev.transforms.api.ConfigurationException;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.spi.AdvisoryRule;
import dev.transforms.runtime.spi.RunAdvisories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The advisory keys of transforms.properties, the level of one transform, and what each level does. */
class AdvisorySettingsTest {

  @TempDir Path dir;

  private AdvisorySettings settings(String lines) throws IOException {
    Path file = dir.resolve(TransformsConfig.FILE_NAME);
    Files.writeString(file, lines);
    return AdvisorySettings.of(TransformsConfig.load(Optional.of(file), Optional.empty(), Map.of(), dir).values());
  }

  @Test
  void defaultsApplyWithoutKeys() throws IOException {
    assertThat(settings("")).isEqualTo(AdvisorySettings.DEFAULTS);
    assertThat(AdvisorySettings.DEFAULTS.level()).isEqualTo(AdvisoryLevel.WARN);
  }

  @Test
  void everyKeyIsRead() throws IOException {
    AdvisorySettings read = settings("""
        advisories=ERROR
        advisories.withcolumn-loop.projections=7
        advisories.driver-collect.rows=1_000
        advisories.small-files.min-files=3
        advisories.small-files.fraction=0.5
        advisories.whole-input-in-memory.rows=9
        """);
    assertThat(read).isEqualTo(new AdvisorySettings(AdvisoryLevel.ERROR, 7, 1000, 3, 0.5, 9));
  }

  @Test
  void badKeysAndValuesAreRefusedByName() {
    assertThatThrownBy(() -> settings("advisories=loud\n")).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("'advisories' is 'loud'").hasMessageContaining("off, warn or error");
    assertThatThrownBy(() -> settings("advisories.driver-collect.rows=-3\n"))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("'advisories.driver-collect.rows' is '-3'");
    assertThatThrownBy(() -> settings("advisories.small-files.fraction=2\n"))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("'advisories.small-files.fraction'");
    assertThatThrownBy(() -> settings("advisories.colour=blue\n")).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("Unknown configuration key 'advisories.colour'");
  }

  static class Methods {
    @Transform
    public void plain() {}

    @Transform(advisories = AdvisoryLevel.OFF)
    public void off() {}

    @Transform(advisories = AdvisoryLevel.ERROR)
    public void strict() {}
  }

  private static Transform annotation(String method) throws NoSuchMethodException {
    return Methods.class.getMethod(method).getAnnotation(Transform.class);
  }

  @Test
  void theAnnotationOverridesTheConfigurationBothWays() throws Exception {
    AdvisorySettings error = settings("advisories=error\n");
    AdvisorySettings off = settings("advisories=off\n");
    assertThat(error.levelFor(annotation("plain"))).isEqualTo(AdvisoryLevel.ERROR);
    assertThat(error.levelFor(annotation("off"))).isEqualTo(AdvisoryLevel.OFF);
    assertThat(off.levelFor(annotation("plain"))).isEqualTo(AdvisoryLevel.OFF);
    assertThat(off.levelFor(annotation("strict"))).isEqualTo(AdvisoryLevel.ERROR);
  }

  @Test
  void offRecordsNothingWarnRecordsAndErrorFailsNamingEachAdvisory() {
    RunAdvisories off = new RunAdvisories("t", AdvisoryLevel.OFF, AdvisorySettings.DEFAULTS);
    off.add(AdvisoryRule.CARTESIAN_PRODUCT, "x", Optional.empty());
    assertThat(off.enabled()).isFalse();
    assertThat(off.list()).isEmpty();

    RunAdvisories warn = new RunAdvisories("t", AdvisoryLevel.WARN, AdvisorySettings.DEFAULTS);
    warn.add(AdvisoryRule.CARTESIAN_PRODUCT, "x", Optional.empty());
    warn.add(AdvisoryRule.CARTESIAN_PRODUCT, "x", Optional.empty());
    warn.judge();
    assertThat(warn.list()).singleElement().satisfies(a -> {
      assertThat(a.transform()).isEqualTo("t");
      assertThat(a.rule()).isEqualTo("cartesian-product");
      assertThat(a.describe()).startsWith("[cartesian-product] x.").contains("Fix: ");
    });

    RunAdvisories error = new RunAdvisories("t", AdvisoryLevel.ERROR, AdvisorySettings.DEFAULTS);
    error.judge();
    error.add(AdvisoryRule.V1_WRITE, "a", Optional.empty());
    error.add(AdvisoryRule.DRIVER_COLLECT, "b", Optional.empty());
    assertThatThrownBy(error::judge).isInstanceOf(AdvisoryException.class)
        .hasMessageContaining("Transform t earned 2 advisories").hasMessageContaining("[v1-write] a.")
        .hasMessageContaining("[driver-collect] b.");
  }

  @Test
  void theReportListsAdvisoriesPerTransform() {
    RunAdvisories warn = new RunAdvisories("t", AdvisoryLevel.WARN, AdvisorySettings.DEFAULTS);
    warn.add(AdvisoryRule.SMALL_FILES, "40 files", Optional.empty());
    BuildReport report = new BuildReport("b", List.of(new TransformResult("t", "spark",
        TransformResult.Status.SUCCEEDED, false, "", List.of(), Duration.ZERO, Optional.empty(), List.of(), List.of(),
        warn.list())), Duration.ZERO);
    assertThat(report.advisories()).hasSize(1);
    assertThat(report.format()).contains("advisory [small-files] 40 files.");
  }
}
