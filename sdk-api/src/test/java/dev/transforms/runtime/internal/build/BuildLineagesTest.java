package dev.transforms.runtime.internal.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.spi.BuildLineage;
import dev.transforms.runtime.spi.LineageProvider;
import dev.transforms.runtime.spi.LineageStart;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a build finds its lineage: through a {@link LineageProvider} on the classpath, and never at the
 * cost of the build (no provider, or one that throws, is one warning).
 */
class BuildLineagesTest {

  @TempDir Path dir;

  /** Records what it was started with. */
  public static final class Recording implements LineageProvider {
    static final AtomicReference<LineageStart> STARTED = new AtomicReference<>();

    @Override
    public BuildLineage start(LineageStart start) {
      STARTED.set(start);
      return new BuildLineage() {
        @Override
        public boolean enabled() {
          return true;
        }
      };
    }
  }

  /** Breaks its promise not to throw, with a secret in its message. */
  public static final class Throwing implements LineageProvider {
    @Override
    public BuildLineage start(LineageStart start) {
      throw new IllegalStateException("cannot reach http://u:pw-secret-91@127.0.0.1:1");
    }
  }

  @Test
  void lineageOnWithoutAProviderIsOneWarningNamingTheModule() throws Exception {
    TransformsConfig config = lineageOn();
    List<String> warnings = new ArrayList<>();
    BuildLineage lineage = BuildLineages.start(config, null, List.of(), "b1", "main", warnings::add,
        providers());
    assertThat(lineage).isSameAs(BuildLineage.OFF);
    assertThat(warnings).containsExactly("OpenLineage: build b1 emits no events: openlineage.enabled is true, but no "
        + "lineage provider is on the classpath. Add the dependency dev.transforms:sdk-lineage (docs/lineage.md), or "
        + "set openlineage.enabled=false (or the environment variable TRANSFORMS_OPENLINEAGE_ENABLED=false). The "
        + "build is not affected.");
  }

  @Test
  void theProviderGetsTheBuildAndTheSettingsAndMasksTheConfigurationsSecrets() throws Exception {
    TransformsConfig config = lineageOn();
    List<String> warnings = new ArrayList<>();
    BuildLineage lineage = BuildLineages.start(config, null, List.of(), "b2", "try", warnings::add,
        providers(Recording.class));
    assertThat(lineage.enabled()).isTrue();
    assertThat(warnings).isEmpty();
    LineageStart start = Recording.STARTED.get();
    assertThat(start.buildId()).isEqualTo("b2");
    assertThat(start.branch()).isEqualTo("try");
    assertThat(start.settings().enabled()).isTrue();
    assertThat(start.settings().describeTarget()).isEqualTo("http transport to http://127.0.0.1:1");
    assertThat(start.mask().apply("sent with pw-secret-77")).isEqualTo("sent with ****");
    assertThat(start.describe().apply(new RuntimeException("outer pw-secret-77",
        new IllegalStateException("inner")))).contains("outer ****").contains("inner")
        .doesNotContain("pw-secret-77");
  }

  @Test
  void twoProvidersAreOneWarningNamingTheOneUsedAndTheOneIgnored() throws Exception {
    List<String> warnings = new ArrayList<>();
    BuildLineage lineage = BuildLineages.start(lineageOn(), null, List.of(), "b4", "main", warnings::add,
        providers(Recording.class, Throwing.class));
    assertThat(lineage.enabled()).isTrue();
    assertThat(warnings).containsExactly("OpenLineage: build b4 found 2 lineage providers on the classpath; it uses "
        + Recording.class.getName() + " and ignores " + Throwing.class.getName() + ". Keep one provider on the "
        + "classpath.");
  }

  @Test
  void aProviderThatThrowsIsOneMaskedWarningAndNoLineage() throws Exception {
    TransformsConfig config = lineageOn();
    List<String> warnings = new ArrayList<>();
    BuildLineage lineage = BuildLineages.start(config, null, List.of(), "b3", "main", warnings::add,
        providers(Throwing.class));
    assertThat(lineage).isSameAs(BuildLineage.OFF);
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0)).startsWith("OpenLineage: build b3 emits no events: its lineage could not start (")
        .contains("cannot reach").endsWith("The build is not affected.");
  }

  private TransformsConfig lineageOn() throws Exception {
    Files.writeString(dir.resolve(TransformsConfig.FILE_NAME), "warehouse=" + dir.resolve("warehouse") + "\n"
        + "openlineage.enabled=true\nopenlineage.transport.type=http\n"
        + "openlineage.transport.url=http://127.0.0.1:1\nopenlineage.transport.auth.type=api_key\n"
        + "openlineage.transport.auth.apiKey=${PW}\n");
    return TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of("PW", "pw-secret-77"), dir);
  }

  /** A class loader whose only lineage providers are the given classes (none: no provider at all). */
  private ClassLoader providers(Class<?>... classes) throws Exception {
    Path root = Files.createTempDirectory(dir, "providers");
    Path services = root.resolve("META-INF/services");
    Files.createDirectories(services);
    StringBuilder names = new StringBuilder();
    for (Class<?> type : classes) {
      names.append(type.getName()).append('\n');
    }
    Files.writeString(services.resolve(LineageProvider.class.getName()), names.toString());
    // The parent holds the classes but, in sdk-api's own tests, no provider: only this folder names any.
    return new URLClassLoader(new URL[] {root.toUri().toURL()}, getClass().getClassLoader());
  }
}
