package dev.transforms.runtime;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.AdvisorySettings;
import dev.transforms.runtime.CatalogKeys;
import dev.transforms.runtime.MountKeys;
import dev.transforms.runtime.config.ConfigValues;
import dev.transforms.runtime.internal.config.BuildSettings;
import dev.transforms.runtime.internal.config.DuckDbSettings;
import dev.transforms.runtime.internal.config.PropertiesFile;
import dev.transforms.runtime.internal.config.SingleNodeSettings;
import dev.transforms.runtime.internal.config.SparkSettings;
import dev.transforms.runtime.secrets.SecretMasker;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which concern owns each key of the configuration beyond the core ones (warehouse, files, catalogs,
 * mounts), and the concerns' checks when a configuration loads, so that {@code plan} refuses what a
 * build would. Each concern reads and checks its own keys; this class only knows them all.
 */
final class ConfigConcerns {

  /**
   * Keys the environment may set though neither the file nor the defaults do, so that a deployment
   * chooses the schema-change policy or turns lineage on without editing the file.
   */
  static final List<String> OVERRIDABLE = List.of(BuildSettings.ON_SCHEMA_CHANGE, LineageSettings.ENABLED,
      LineageSettings.NAMESPACE);

  private ConfigConcerns() {
  }

  /** Refuses a key that neither the core nor a concern owns. */
  static void checkKnown(Map<String, String> values, Optional<Path> source) {
    for (String key : values.keySet()) {
      boolean core = key.equals("warehouse") || key.equals("files.root") || key.startsWith(CatalogKeys.PREFIX)
          || key.startsWith(MountKeys.PREFIX);
      boolean owned = key.startsWith(SparkSettings.PREFIX) || key.startsWith(TransformsConfig.MAINTENANCE_PREFIX)
          || key.equals(AdvisorySettings.LEVEL) || key.startsWith(AdvisorySettings.LEVEL + ".")
          || key.startsWith(LineageSettings.PREFIX) || key.startsWith(DuckDbSettings.PREFIX)
          || key.equals(BuildSettings.THREADS) || key.equals(BuildSettings.ON_SCHEMA_CHANGE)
          || key.equals(SingleNodeSettings.MEMORY_LIMIT) || key.equals(BuildSettings.BRANCH_FALLBACKS);
      if (!core && !owned) {
        Optional<Integer> line = source.flatMap(file -> PropertiesFile.lineOf(file, key));
        throw new ConfigurationException("Unknown configuration key '" + key + "' in "
            + (line.isPresent() ? "file " + source.get() + ", line " + line.get()
                : source.map(Path::toString).orElse("the environment"))
            + "; keys are warehouse, files.root, catalog.NAME.PROPERTY, mount.PREFIX, maintain.PREFIX.OPTION, "
            + "advisories, advisories.OPTION, duckdb.memory-limit, duckdb.threads, duckdb.parquet, "
            + BuildSettings.ON_SCHEMA_CHANGE + ", " + BuildSettings.THREADS + ", " + SingleNodeSettings.MEMORY_LIMIT
            + ", " + BuildSettings.BRANCH_FALLBACKS
            + ", openlineage.* and spark.*");
      }
    }
  }

  /** The secrets among the concerns' keys: the lineage transport's credentials. */
  static Set<String> secrets(Map<String, String> values) {
    Set<String> secrets = new HashSet<>();
    values.forEach((key, value) -> {
      if (key.startsWith(LineageSettings.PREFIX) && SecretMasker.isSecretKey(key)) {
        secrets.add(value.strip());
      }
    });
    return secrets;
  }

  /**
   * Reads every concern's settings once, for their checks; an error gets where its key was set, which
   * the checks that only name the key leave out.
   */
  static void check(ConfigValues values) {
    try {
      DuckDbSettings.of(values);
      BuildSettings.of(values);
      SingleNodeSettings.of(values);
      AdvisorySettings.of(values);
      LineageSettings.of(values);
    } catch (ConfigurationException e) {
      Matcher key = Pattern.compile("[Cc]onfiguration key '([^']+)'").matcher(String.valueOf(e.getMessage()));
      if (!key.find() || e.getMessage().contains("(set by ") || values.origin(key.group(1)).isEmpty()) {
        throw e;
      }
      throw new ConfigurationException(e.getMessage() + " (set by " + values.origin(key.group(1)) + ")", e);
    }
  }
}
