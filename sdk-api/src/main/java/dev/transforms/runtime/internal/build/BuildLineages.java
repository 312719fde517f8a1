package dev.transforms.runtime.internal.build;

import dev.transforms.runtime.LineageSettings;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.config.EnvironmentOverrides;
import dev.transforms.runtime.secrets.CauseChain;
import dev.transforms.runtime.secrets.SecretMasker;
import dev.transforms.runtime.spi.BuildLineage;
import dev.transforms.runtime.spi.LineageProvider;
import dev.transforms.runtime.spi.LineageStart;
import dev.transforms.runtime.spi.TransformSpec;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a build's lineage: off unless {@code openlineage.enabled} is true, else through the
 * {@link LineageProvider} on the classpath ({@code sdk-lineage}'s). Lineage never fails a build: a
 * configuration that sets {@code openlineage.} keys but not the switch, a missing provider, and a provider
 * that cannot start are each the build's one lineage warning, and the build runs without lineage.
 */
public final class BuildLineages {

  private static final Logger LOG = LoggerFactory.getLogger(BuildLineages.class);

  private BuildLineages() {
  }

  /**
   * The lineage of a build that starts, its warnings logged (masked).
   *
   * @param config the configuration
   * @param resolver resolves dataset paths
   * @param transforms the transforms of the build, in plan order
   * @param buildId the build's identifier
   * @param branch the branch the build reads and publishes; {@code main} for an ordinary build
   * @param loader where the providers are looked up; {@code null} for this class's own loader
   * @return the build's lineage, {@link BuildLineage#OFF} when lineage is off
   */
  public static BuildLineage start(TransformsConfig config, TableResolver resolver, List<TransformSpec> transforms,
      String buildId, String branch, ClassLoader loader) {
    return start(config, resolver, transforms, buildId, branch,
        message -> LOG.warn("{}", SecretMasker.allLoaded().mask(message)),
        loader == null ? BuildLineages.class.getClassLoader() : loader);
  }

  /**
   * As {@link #start(TransformsConfig, TableResolver, List, String, String, ClassLoader)}, with the
   * warnings going elsewhere, for tests.
   *
   * @param config the configuration
   * @param resolver resolves dataset paths
   * @param transforms the transforms of the build, in plan order
   * @param buildId the build's identifier
   * @param branch the branch the build reads and publishes
   * @param warnings takes the build's one warning
   * @param loader where the providers are looked up
   * @return the build's lineage
   */
  public static BuildLineage start(TransformsConfig config, TableResolver resolver, List<TransformSpec> transforms,
      String buildId, String branch, Consumer<String> warnings, ClassLoader loader) {
    LineageSettings settings = LineageSettings.of(config.values());
    if (!settings.enabled()) {
      // Transport settings without the switch: the build's one lineage warning, so that silence is not taken
      // for events sent.
      LineageSettings.offWithSettings(config.values(), buildId).ifPresent(warnings);
      return BuildLineage.OFF;
    }
    UnaryOperator<String> mask = text -> text == null ? null
        : SecretMasker.allLoaded().mask(config.masker().mask(text));
    try {
      Iterator<LineageProvider> providers = ServiceLoader.load(LineageProvider.class, loader).iterator();
      if (!providers.hasNext()) {
        warnings.accept("OpenLineage: build " + buildId + " emits no events: " + LineageSettings.ENABLED
            + " is true, but no lineage provider is on the classpath. Add the dependency dev.transforms:sdk-lineage "
            + "(docs/lineage.md), or set " + LineageSettings.ENABLED + "=false (or the environment variable "
            + EnvironmentOverrides.variable(LineageSettings.ENABLED) + "=false). The build is not affected.");
        return BuildLineage.OFF;
      }
      LineageProvider provider = providers.next();
      List<String> ignored = new ArrayList<>();
      providers.forEachRemaining(other -> ignored.add(other.getClass().getName()));
      if (!ignored.isEmpty()) {
        warnings.accept("OpenLineage: build " + buildId + " found " + (ignored.size() + 1) + " lineage providers on the "
            + "classpath; it uses " + provider.getClass().getName() + " and ignores " + String.join(", ", ignored)
            + ". Keep one provider on the classpath.");
      }
      return provider.start(new LineageStart(settings, config, resolver, transforms, buildId, branch, warnings, mask,
          error -> CauseChain.of(error, config.masker()).format("", "  ").strip()));
    } catch (RuntimeException | ServiceConfigurationError | LinkageError e) {
      // A provider whose classes are missing (a build that skipped packaging: the client is shaded into the
      // module's jar only), or that broke its promise not to throw.
      warnings.accept("OpenLineage: build " + buildId + " emits no events: its lineage could not start ("
          + mask.apply(String.valueOf(e)) + "). The build is not affected.");
      return BuildLineage.OFF;
    }
  }
}
