package dev.transforms.runtime;

import dev.transforms.api.ConfigurationException;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.runtime.AdvisorySettings;
import dev.transforms.runtime.CatalogKeys;
import dev.transforms.runtime.LayeredValues;
import dev.transforms.runtime.MountKeys;
import dev.transforms.runtime.config.ConfigValues;
import dev.transforms.runtime.internal.config.BuildSettings;
import dev.transforms.runtime.internal.config.DuckDbSettings;
import dev.transforms.runtime.internal.config.EnvironmentOverrides;
import dev.transforms.runtime.internal.config.PropertiesFile;
import dev.transforms.runtime.internal.config.SingleNodeSettings;
import dev.transforms.runtime.internal.config.SparkSettings;
import dev.transforms.runtime.secrets.SecretMasker;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The configuration of a build: which catalogs exist, which path prefixes they hold, where the local
 * warehouse is, and the settings of each concern (engines, builds, advisories, lineage, maintenance).
 *
 * <p>It comes from one properties file, {@value #FILE_NAME} in the working directory or a file named on
 * the command line, layered as: embedded defaults, then the file, then environment variables, then
 * command-line options. This class reads the core keys: {@code warehouse} (default {@code ./warehouse}),
 * {@code files.root} (where plain file datasets live, default {@code WAREHOUSE/files}),
 * {@code catalog.NAME.PROPERTY} (Iceberg catalog properties; a catalog the file defines replaces the default
 * of the same name whole; every catalog's {@code type} or {@code catalog-impl} is checked on loading) and
 * {@code mount.PREFIX=CATALOG[:NAMESPACE]} (the datasets under {@code PREFIX} live in that catalog, under
 * the dot-separated namespace; declaring any mount drops the default {@code mount./=local}). Every other key
 * belongs to a concern, which reads and checks it from {@link #values()}: {@code spark.*},
 * {@code duckdb.*}, {@code singlenode.memory-limit}, {@code build.threads}, {@code build.on-schema-change},
 * {@code advisories[.OPTION]}, {@code openlineage.*} and {@code maintain.PREFIX.OPTION}
 * ({@code docs/configuration.md} describes them all). They are checked when the configuration loads, so
 * that {@code plan} refuses what a build would; an unknown key is an error.
 *
 * <p>An environment variable {@code TRANSFORMS_KEY} overrides key {@code KEY} (upper case, every character
 * other than a letter or digit as {@code _}: {@code TRANSFORMS_CATALOG_PROD_URI} overrides
 * {@code catalog.prod.uri}) when the file or the embedded defaults define that key: the file's keys,
 * {@code warehouse}, {@code files.root}, the embedded catalog's properties (unless the file defines
 * catalog {@code local}) and the default mount (unless the file declares mounts). A value may reference
 * environment variables as {@code ${VAR}} or {@code ${VAR:-default}}, which keeps secrets out of the
 * file; a <code>${</code> that starts no valid reference is an error. Secrets are masked by
 * {@link #masker()} in every error, and by {@link SecretMasker#allLoaded()} in log lines.
 *
 * <p>With no file at all the embedded default applies: catalog {@code local}, an Iceberg
 * {@code JdbcCatalog} on SQLite in the warehouse folder, mounted at {@code /}.
 */
public final class TransformsConfig {

  /** The name of the configuration file looked up in the working directory. */
  public static final String FILE_NAME = "transforms.properties";

  /** The name of the embedded default catalog. */
  public static final String DEFAULT_CATALOG = CatalogKeys.DEFAULT_CATALOG;

  /** The key of the Arrow memory the single-node transforms of a build share ({@code 8g}, {@code 40%}). */
  public static final String SINGLE_NODE_MEMORY = SingleNodeSettings.MEMORY_LIMIT;

  /** The prefix of the maintenance keys ({@code maintain.PREFIX.OPTION}), which {@code transforms maintain} reads. */
  public static final String MAINTENANCE_PREFIX = "maintain.";

  /** The prefix of environment variables that override configuration keys. */
  public static final String ENV_PREFIX = EnvironmentOverrides.PREFIX;

  private final ConfigValues values;
  private final Path warehouse;
  private final Path filesRoot;
  private final Map<String, Map<String, String>> catalogs;
  private final List<Mount> mounts;

  private TransformsConfig(ConfigValues values, Path warehouse, Path filesRoot,
      Map<String, Map<String, String>> catalogs, List<Mount> mounts) {
    this.values = values;
    this.warehouse = warehouse;
    this.filesRoot = filesRoot;
    this.catalogs = catalogs;
    this.mounts = mounts;
  }

  /**
   * The embedded default for a warehouse folder, with no file and no environment.
   *
   * @param warehouse the warehouse folder; created on first use
   * @return the configuration
   */
  public static TransformsConfig embedded(Path warehouse) {
    return load(Optional.empty(), Optional.of(warehouse), Map.of(), warehouse.toAbsolutePath().getParent());
  }

  /**
   * Loads the configuration the way the command line does.
   *
   * @param file the file named on the command line; when empty, {@value #FILE_NAME} in
   *     {@code workingDirectory} is used if it exists, and the embedded default otherwise
   * @param warehouse a warehouse folder that overrides every other source, if present
   * @param environment the environment variables ({@code System.getenv()} in production)
   * @param workingDirectory the folder relative paths are resolved against
   * @return the configuration
   * @throws ConfigurationException if the file cannot be read, a reference is unset, a catalog lacks a
   *     type, or a mount names an unknown catalog
   */
  public static TransformsConfig load(
      Optional<Path> file, Optional<Path> warehouse, Map<String, String> environment, Path workingDirectory) {
    Optional<Path> source = PropertiesFile.locate(file, workingDirectory, FILE_NAME);
    Map<String, String> fileKeys = source.map(PropertiesFile::read).orElseGet(TreeMap::new);
    LayeredValues layers = LayeredValues.of(fileKeys, source.map(s -> "file " + s).orElse(""), warehouse,
        environment, Set.copyOf(ConfigConcerns.OVERRIDABLE));
    Map<String, String> keys = layers.values();
    Map<String, String> origins = layers.origins();
    if (keys.get("warehouse").isBlank()) {
      throw new ConfigurationException("The warehouse folder is empty (set by " + origins.get("warehouse")
          + "); name a folder, such as ./warehouse");
    }
    Path warehousePath = workingDirectory.resolve(keys.get("warehouse")).toAbsolutePath().normalize();
    Path filesRoot = Optional.ofNullable(keys.get("files.root"))
        .map(f -> {
          if (f.isBlank()) {
            throw new ConfigurationException("Configuration key 'files.root' is empty (set by "
                + origins.get("files.root") + "); name a folder, or leave it out for WAREHOUSE/files");
          }
          return workingDirectory.resolve(f).toAbsolutePath().normalize();
        })
        .orElse(warehousePath.resolve("files"));
    ConfigConcerns.checkKnown(keys, source);
    Map<String, Map<String, String>> catalogs = CatalogKeys.read(keys, warehousePath, layers.embeddedOverrides(),
        origins);
    List<Mount> mounts = MountKeys.read(keys, catalogs.keySet());

    Set<String> secrets = new HashSet<>(layers.secrets());
    secrets.addAll(ConfigConcerns.secrets(keys));
    secrets.addAll(CatalogKeys.secrets(catalogs));
    SecretMasker.register(secrets);
    ConfigValues values = new ConfigValues(keys, origins, new SecretMasker(secrets), source,
        pipelineName(source, workingDirectory));
    ConfigConcerns.check(values);
    return new TransformsConfig(values, warehousePath, filesRoot, catalogs, mounts);
  }

  /** The folder holding the configuration file, or the working directory without one: the pipeline's name. */
  private static String pipelineName(Optional<Path> source, Path workingDirectory) {
    Path folder = source.map(s -> s.toAbsolutePath().normalize().getParent()).orElse(null);
    if (folder == null) {
      folder = workingDirectory.toAbsolutePath().normalize();
    }
    Path name = folder.getFileName();
    return name == null || name.toString().isBlank() ? "transforms" : name.toString();
  }

  /**
   * Every key of this configuration with its value, where it was set and the masker of its secrets: what
   * the settings of each concern are read from ({@code AdvisorySettings.of(config.values())}).
   *
   * @return the values
   */
  public ConfigValues values() {
    return values;
  }

  /**
   * The file this configuration was read from.
   *
   * @return the file, or empty for the embedded default
   */
  public Optional<Path> source() {
    return values.source();
  }

  /**
   * The local warehouse folder, absolute.
   *
   * @return the warehouse folder
   */
  public Path warehouse() {
    return warehouse;
  }

  /**
   * Where plain file datasets ({@code @Input}/{@code @Output}) live, absolute.
   *
   * @return the root folder of file datasets
   */
  public Path filesRoot() {
    return filesRoot;
  }

  /**
   * Every catalog by name, with its Iceberg properties (secrets unmasked: never print them, use
   * {@link #masker()}).
   *
   * @return catalogs by name
   */
  public Map<String, Map<String, String>> catalogs() {
    return catalogs;
  }

  /**
   * The mounts, deepest prefix first (the order they are matched in).
   *
   * @return the mounts
   */
  public List<Mount> mounts() {
    return mounts;
  }

  /**
   * The {@code spark.*} keys, passed as they are to the Spark session.
   *
   * @return Spark properties
   */
  public Map<String, String> sparkProperties() {
    return SparkSettings.of(values).properties();
  }

  /**
   * The {@code duckdb.*} keys ({@code duckdb.memory-limit}, {@code duckdb.threads},
   * {@code duckdb.parquet}): the settings of the
   * DuckDB session of single-node transforms ({@code SingleNodeTransformContext.sql()}), and for
   * {@code duckdb.parquet} also whether the single-node engine's {@code writeTable} lets DuckDB write
   * Parquet files.
   *
   * @return the keys with their values, trimmed
   */
  public Map<String, String> duckdbProperties() {
    return DuckDbSettings.of(values).properties();
  }

  /**
   * The {@code advisories} key (the level: {@code off}, {@code warn} or {@code error}) and the
   * {@code advisories.OPTION} keys (the rules' thresholds), as the file and environment set them; checked
   * when the configuration loads.
   *
   * @return the keys with their values, sorted
   */
  public Map<String, String> advisoryProperties() {
    return values.withPrefix(AdvisorySettings.LEVEL);
  }

  /**
   * The {@code maintain.PREFIX.OPTION} keys: the maintenance policies {@code transforms maintain --all}
   * applies ({@link dev.transforms.runtime.maintenance.MaintenancePolicies}).
   *
   * @return the keys with their values, sorted
   */
  public Map<String, String> maintenanceProperties() {
    return values.withPrefix(MAINTENANCE_PREFIX);
  }

  /**
   * The {@code openlineage.*} keys, as the file and environment set them (secrets unmasked: never print
   * them, use {@link #masker()}); checked when the configuration loads ({@code docs/lineage.md}).
   *
   * @return the keys with their values
   */
  public Map<String, String> lineageProperties() {
    return LineageSettings.properties(values);
  }

  /**
   * The schema-change policy of incremental builds for table outputs that declare none
   * ({@code build.on-schema-change}): {@link SchemaChangePolicy#FAIL} unless set.
   *
   * @return the policy, never {@link SchemaChangePolicy#CONFIGURED}
   */
  public SchemaChangePolicy onSchemaChange() {
    return BuildSettings.of(values).onSchemaChange();
  }

  /**
   * The pipeline's name, the default OpenLineage namespace of its jobs: the name of the folder holding
   * the configuration file, or of the working directory when there is none.
   *
   * @return the name, never empty
   */
  public String pipelineName() {
    return values.pipelineName();
  }

  /**
   * How many transforms a build runs at once, at most ({@code build.threads}): the machine's cores, at
   * most 8, unless set. {@code 1} runs them one by one, in plan order.
   *
   * @return the number of threads, at least 1
   */
  public int buildThreads() {
    return BuildSettings.of(values).threads();
  }

  /**
   * The Arrow memory the single-node transforms of one build share, however many run at once
   * ({@code singlenode.memory-limit}): half the machine's memory unless set. A transform that needs more
   * than is left fails, naming the limit; the others go on.
   *
   * @return the limit in bytes
   */
  public long singleNodeMemoryLimit() {
    return SingleNodeSettings.of(values).memoryLimit();
  }

  /**
   * Where a key's value was set, as errors name it: {@code file PATH}, {@code environment variable NAME},
   * {@code --warehouse}, {@code the default} or {@code the embedded default}.
   *
   * @param key a configuration key, such as {@code advisories} or {@code maintain./Shop.older-than}
   * @return the origin, or empty for a key that is not set
   */
  public String origin(String key) {
    return values.origin(key);
  }

  /**
   * The masker that hides this configuration's secrets.
   *
   * @return the secret masker
   */
  public SecretMasker masker() {
    return values.masker();
  }

  /**
   * A printable description: every key, with secrets masked.
   *
   * @return a multi-line description
   */
  public String describe() {
    StringBuilder out = new StringBuilder();
    SecretMasker masker = masker();
    out.append("source: ").append(source().map(Path::toString).orElse("embedded default")).append('\n');
    out.append("warehouse: ").append(warehouse).append('\n');
    catalogs.forEach((name, props) -> masker.maskAll(new TreeMap<>(props))
        .forEach((k, v) -> out.append("catalog.").append(name).append('.').append(k).append(" = ").append(v)
            .append('\n')));
    mounts.forEach(m -> out.append("mount.").append(m.prefix()).append(" = ").append(m.catalog())
        .append(m.namespace().isEmpty() ? "" : ":" + String.join(".", m.namespace())).append('\n'));
    for (Map<String, String> keys : List.of(masker.maskAll(sparkProperties()), duckdbProperties(),
        masker.maskAll(LineageSettings.properties(values)))) {
      new TreeMap<>(keys).forEach((k, v) -> out.append(k).append(" = ").append(v).append('\n'));
    }
    SingleNodeSettings singleNode = SingleNodeSettings.of(values);
    if (singleNode.configuredMemory() > 0) {
      out.append(SingleNodeSettings.MEMORY_LIMIT).append(" = ").append(singleNode.configuredMemory() >> 20).append("m\n");
    }
    BuildSettings build = BuildSettings.of(values);
    if (build.configuredThreads() > 0) {
      out.append(BuildSettings.THREADS).append(" = ").append(build.configuredThreads()).append('\n');
    }
    if (build.onSchemaChange() != SchemaChangePolicy.FAIL) {
      out.append(BuildSettings.ON_SCHEMA_CHANGE).append(" = ")
          .append(build.onSchemaChange().name().toLowerCase(Locale.ROOT)).append('\n');
    }
    return out.toString();
  }

  @Override
  public String toString() {
    return describe();
  }
}
