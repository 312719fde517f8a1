package dev.transforms.runtime;

import dev.transforms.api.ConfigurationException;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.api.InvalidPathException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.internal.catalog.Locations;
import dev.transforms.runtime.internal.catalog.Mount;
import dev.transforms.runtime.internal.catalog.SecretMasker;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.CatalogUtil;

/**
 * The configuration of a build: which catalogs exist, which path prefixes they hold, where the local
 * warehouse is, and what Spark settings apply.
 *
 * <p>It comes from one properties file, {@value #FILE_NAME} in the working directory or a file named on
 * the command line, layered as: embedded defaults, then the file, then environment variables, then
 * command-line options. Keys:
 * <ul>
 *   <li>{@code warehouse}: the local warehouse folder (default {@code ./warehouse});
 *   <li>{@code catalog.NAME.PROPERTY}: Iceberg catalog properties of catalog {@code NAME}
 *       ({@code type=jdbc|rest|hadoop|hive} or {@code catalog-impl}, {@code uri}, ...). A catalog the
 *       file defines replaces the default of the same name whole;
 *   <li>{@code mount.PREFIX=CATALOG[:NAMESPACE]}: the datasets under {@code PREFIX} live in that
 *       catalog, under the dot-separated namespace. If the file declares any mount, the default
 *       {@code mount./=local} is dropped;
 *   <li>{@code spark.*}: passed to the Spark session as they are ({@code spark.master}...);
 *   <li>{@code files.root}: where plain file datasets live (default {@code WAREHOUSE/files});
 *   <li>{@code maintain.PREFIX.OPTION}: maintenance policies;
 *   <li>{@code advisories=off|warn|error} (default {@code warn}) and {@code advisories.OPTION}: what the
 *       engines do with the review guide's patterns they see a transform execute, and the rules'
 *       thresholds ({@link #advisoryProperties()});
 *   <li>{@code duckdb.memory-limit} and {@code duckdb.threads}: the memory limit (DuckDB's syntax, such as
 *       {@code 4GB} or {@code 50%}) and the number of threads of the DuckDB session a single-node
 *       transform opens with {@code ctx.sql()} (defaults: DuckDB's own, 80% of the machine's memory and
 *       one thread per core);
 *   <li>{@code duckdb.parquet} (default {@code true}): whether the single-node engine lets DuckDB (when
 *       on the classpath) read and write Parquet files itself where the result is the same. Reading: an
 *       input whose pinned snapshot has no delete files and lives on the local file system is read
 *       straight from its Parquet files, in the SQL session and in {@code arrow()}. Writing: a
 *       {@code writeTable} to an unpartitioned local table whose column types DuckDB writes as Iceberg's
 *       spec asks, and copy-on-write rewrites of large files by row edits, have their Parquet files
 *       written by DuckDB (faster, same column metrics). {@code false} sends every row through the
 *       engine's reader and Iceberg's Java writer.
 *   <li>{@code openlineage.*}: OpenLineage events of every build ({@link #lineageProperties()}), off unless
 *       {@code openlineage.enabled=true}: {@code openlineage.namespace} (default {@link #pipelineName()}),
 *       {@code openlineage.timeout}, and the client's transport keys under {@code openlineage.transport.}
 *       ({@code type=http|file|console|kafka}, {@code url}, {@code auth.apiKey}, {@code headers.NAME}...).
 * </ul>
 * An environment variable {@code TRANSFORMS_KEY} overrides key {@code KEY} (upper case, every character
 * other than a letter or digit as {@code _}: {@code TRANSFORMS_CATALOG_PROD_URI} overrides
 * {@code catalog.prod.uri}) when the file or the embedded defaults define that key: the file's keys,
 * {@code warehouse}, {@code files.root}, the embedded catalog's properties (unless the file defines
 * catalog {@code local}) and the default mount (unless the file declares mounts). A value may reference
 * environment variables as {@code ${VAR}} or {@code ${VAR:-default}}, which keeps secrets out of the
 * file; a <code>${</code> that starts no valid reference is an error. Secrets are masked by
 * {@link #masker()} in every error, and by {@link SecretMasker#allLoaded()} in log lines.
 *
 * <p>Every catalog's {@code type} (or {@code catalog-impl} class) is checked on loading, so that a
 * command that starts no catalog refuses what a build would.
 *
 * <p>With no file at all the embedded default applies: catalog {@code local}, an Iceberg
 * {@code JdbcCatalog} on SQLite in the warehouse folder, mounted at {@code /}.
 */
public final class TransformsConfig {

  /** The name of the configuration file looked up in the working directory. */
  public static final String FILE_NAME = "transforms.properties";

  /** Prefix of the keys of maintenance policies. */
  public static final String MAINTAIN_PREFIX = "maintain.";

  /**
   * The key of the advisory level ({@code off}, {@code warn}, {@code error}); its thresholds are keys
   * under {@code advisories.}.
   */
  public static final String ADVISORIES = "advisories";

  /** The name of the embedded default catalog. */
  public static final String DEFAULT_CATALOG = "local";

  /**
   * Prefix of the keys of the single-node SQL session ({@code duckdb.memory-limit}, {@code duckdb.threads},
   * {@code duckdb.parquet}).
   */
  public static final String DUCKDB_PREFIX = "duckdb.";

  /** The keys of the single-node SQL session that may be set. */
  private static final Set<String> DUCKDB_KEYS = Set.of("duckdb.memory-limit", "duckdb.threads", "duckdb.parquet");

  /**
   * The key of the schema-change policy of table outputs that do not declare one
   * ({@code fail}, {@code append_new_columns}, {@code sync_all_columns}).
   */
  public static final String ON_SCHEMA_CHANGE = "build.on-schema-change";

  /**
   * The key of how many transforms a build runs at once ({@code transforms build --threads} overrides
   * it): the machine's cores, at most {@value #DEFAULT_MAX_THREADS}, unless set.
   */
  public static final String BUILD_THREADS = "build.threads";

  /** The most transforms a build runs at once by default, however many cores the machine has. */
  public static final int DEFAULT_MAX_THREADS = 8;

  /**
   * The key of the Arrow memory the single-node transforms of a build share, however many run at once
   * ({@code 8g}, {@code 512m}, {@code 40%} of the machine's memory): half the machine's memory unless set.
   */
  public static final String SINGLE_NODE_MEMORY = "singlenode.memory-limit";

  /**
   * Prefix of the OpenLineage keys ({@code openlineage.enabled}, {@code openlineage.namespace},
   * {@code openlineage.timeout}, {@code openlineage.transport.*}).
   */
  public static final String OPENLINEAGE_PREFIX = "openlineage.";

  /** The prefix of environment variables that override configuration keys. */
  public static final String ENV_PREFIX = "TRANSFORMS_";

  private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?}");

  /** What can be quoted of a broken reference: its start, up to the variable name. */
  private static final Pattern BROKEN_REFERENCE = Pattern.compile("\\$\\{[A-Za-z0-9_]{0,40}");

  /** The key of the default mount, dropped when the file declares any mount. */
  private static final String DEFAULT_MOUNT_KEY = "mount./";

  private static final String EMBEDDED_PREFIX = "catalog." + DEFAULT_CATALOG + ".";

  /** The catalog types Iceberg's {@code CatalogUtil} knows, with the class each one builds. */
  private static final Map<String, String> CATALOG_TYPES = catalogTypes();

  private final Optional<Path> source;
  private final Path warehouse;
  private final Path filesRoot;
  private final Map<String, Map<String, String>> catalogs;
  private final List<Mount> mounts;
  private final Map<String, String> sparkProperties;
  private final Map<String, String> maintenanceProperties;
  private final Map<String, String> advisoryProperties;
  private final Map<String, String> duckdbProperties;
  private final SchemaChangePolicy onSchemaChange;
  private final int buildThreads;
  private final long singleNodeMemory;
  private final Map<String, String> lineageProperties;
  private final String pipelineName;
  private final SecretMasker masker;
  /** Where each key's value came from, as errors name it. */
  private final Map<String, String> origins;

  private TransformsConfig(
      Optional<Path> source,
      Path warehouse,
      Path filesRoot,
      Map<String, Map<String, String>> catalogs,
      List<Mount> mounts,
      Map<String, String> sparkProperties,
      Map<String, String> maintenanceProperties,
      Map<String, String> advisoryProperties,
      Map<String, String> duckdbProperties,
      SchemaChangePolicy onSchemaChange,
      int buildThreads,
      long singleNodeMemory,
      Map<String, String> lineageProperties,
      String pipelineName,
      SecretMasker masker,
      Map<String, String> origins) {
    this.source = source;
    this.warehouse = warehouse;
    this.filesRoot = filesRoot;
    this.catalogs = catalogs;
    this.mounts = mounts;
    this.sparkProperties = sparkProperties;
    this.maintenanceProperties = maintenanceProperties;
    this.advisoryProperties = advisoryProperties;
    this.duckdbProperties = duckdbProperties;
    this.onSchemaChange = onSchemaChange;
    this.buildThreads = buildThreads;
    this.singleNodeMemory = singleNodeMemory;
    this.lineageProperties = lineageProperties;
    this.pipelineName = pipelineName;
    this.masker = masker;
    this.origins = origins;
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
    Optional<Path> source = file.map(workingDirectory::resolve);
    if (source.isPresent() && Files.isDirectory(source.get())) {
      throw new ConfigurationException("Configuration file " + source.get() + " is a folder; name a properties file, "
          + "such as " + source.get().resolve(FILE_NAME));
    }
    if (source.isPresent() && !Files.isRegularFile(source.get())) {
      // /dev/null, a named pipe (reading it waits for a writer) or a socket: there, but not a file of keys.
      throw new ConfigurationException("Configuration file " + source.get() + (Files.exists(source.get())
          ? " exists but is not a regular file (a device, a pipe or a socket); name a properties file"
          : " does not exist"));
    }
    if (source.isEmpty()) {
      Path candidate = workingDirectory.resolve(FILE_NAME);
      if (Files.isRegularFile(candidate)) {
        source = Optional.of(candidate);
      }
    }

    Map<String, String> fileKeys = source.map(TransformsConfig::read).orElseGet(LinkedHashMap::new);
    String fileOrigin = source.map(s -> "file " + s).orElse("");
    Set<String> secretValues = new HashSet<>();

    // Layer: defaults < file < environment < command line. Where each value came from goes into errors.
    Map<String, String> merged = new LinkedHashMap<>();
    Map<String, String> origins = new HashMap<>();
    merged.put("warehouse", "warehouse");
    origins.put("warehouse", "the default");
    merged.putAll(fileKeys);
    fileKeys.keySet().forEach(k -> origins.put(k, fileOrigin));
    // The environment overrides the defaults too; a default the file replaces is no longer there to override.
    boolean fileMounts = fileKeys.keySet().stream().anyMatch(k -> k.startsWith("mount."));
    boolean fileLocal = fileKeys.keySet().stream().anyMatch(k -> k.startsWith("catalog." + DEFAULT_CATALOG + "."));
    Set<String> overridable = new LinkedHashSet<>(merged.keySet());
    overridable.add("files.root");
    overridable.add(ON_SCHEMA_CHANGE);
    // The switch and the namespace, so that a deployment turns lineage on without editing the file.
    overridable.add(OPENLINEAGE_PREFIX + "enabled");
    overridable.add(OPENLINEAGE_PREFIX + "namespace");
    if (!fileMounts) {
      overridable.add(DEFAULT_MOUNT_KEY);
    }
    if (!fileLocal) {
      embeddedCatalog(Path.of("warehouse")).keySet().forEach(k -> overridable.add(EMBEDDED_PREFIX + k));
    }
    Map<String, String> fromEnvironment = environmentOverrides(overridable, environment, origins);
    Map<String, String> embeddedOverrides = new TreeMap<>();
    fromEnvironment.forEach((key, value) -> {
      if (!fileLocal && key.startsWith(EMBEDDED_PREFIX)) {
        embeddedOverrides.put(key, value);
      } else {
        merged.put(key, value);
      }
    });
    warehouse.ifPresent(w -> {
      merged.put("warehouse", w.toString());
      origins.put("warehouse", "--warehouse");
    });
    for (Map.Entry<String, String> entry : merged.entrySet()) {
      entry.setValue(interpolate(entry.getKey(), origins.get(entry.getKey()), entry.getValue(), environment,
          secretValues));
    }
    embeddedOverrides.replaceAll((key, value) -> interpolate(key, origins.get(key), value, environment, secretValues));

    if (merged.get("warehouse").isBlank()) {
      throw new ConfigurationException("The warehouse folder is empty (set by " + origins.get("warehouse")
          + "); name a folder, such as ./warehouse");
    }
    Path warehousePath = workingDirectory.resolve(merged.get("warehouse")).toAbsolutePath().normalize();
    Path filesRoot = Optional.ofNullable(merged.remove("files.root"))
        .map(f -> {
          if (f.isBlank()) {
            throw new ConfigurationException("Configuration key 'files.root' is empty (set by "
                + origins.get("files.root") + "); name a folder, or leave it out for WAREHOUSE/files");
          }
          return workingDirectory.resolve(f).toAbsolutePath().normalize();
        })
        .orElse(warehousePath.resolve("files"));

    Map<String, Map<String, String>> catalogs = new TreeMap<>();
    Map<String, String> embedded = embeddedCatalog(warehousePath);
    embedded.keySet().forEach(k -> origins.putIfAbsent(EMBEDDED_PREFIX + k, "the embedded default"));
    embeddedOverrides.forEach((key, value) -> embedded.put(key.substring(EMBEDDED_PREFIX.length()), value));
    catalogs.put(DEFAULT_CATALOG, embedded);
    Map<String, Map<String, String>> declared = new TreeMap<>();
    List<Mount> mounts = new ArrayList<>();
    Map<String, String> spark = new TreeMap<>();
    Map<String, String> maintenance = new TreeMap<>();
    Map<String, String> advisories = new TreeMap<>();
    Map<String, String> duckdb = new TreeMap<>();
    Map<String, String> lineage = new TreeMap<>();
    SchemaChangePolicy onSchemaChange = SchemaChangePolicy.FAIL;
    int buildThreads = 0;
    long singleNodeMemory = 0;
    for (Map.Entry<String, String> entry : merged.entrySet()) {
      String key = entry.getKey();
      String value = entry.getValue();
      if (key.startsWith("catalog.")) {
        int dot = key.indexOf('.', "catalog.".length());
        if (dot < 0 || dot == key.length() - 1) {
          throw new ConfigurationException("Configuration key '" + key
              + "' must have the form catalog.NAME.PROPERTY, such as catalog.prod.uri");
        }
        String name = key.substring("catalog.".length(), dot);
        declared.computeIfAbsent(name, n -> new TreeMap<>()).put(key.substring(dot + 1), value);
      } else if (key.startsWith("mount.")) {
        mounts.add(parseMount(key.substring("mount.".length()), value));
      } else if (key.startsWith("spark.")) {
        spark.put(key, value);
      } else if (key.startsWith(MAINTAIN_PREFIX)) {
        maintenance.put(key, value);
      } else if (key.equals(ADVISORIES) || key.startsWith(ADVISORIES + ".")) {
        advisories.put(key, value);
      } else if (key.startsWith(OPENLINEAGE_PREFIX)) {
        lineage.put(key, value.strip());
        if (SecretMasker.isSecretKey(key)) {
          secretValues.add(value.strip());
        }
      } else if (key.startsWith(DUCKDB_PREFIX)) {
        duckdb.put(key, checkDuckdbKey(key, value, origins.get(key)));
      } else if (key.equals(ON_SCHEMA_CHANGE)) {
        onSchemaChange = schemaChangePolicy(value, origins.get(key));
      } else if (key.equals(BUILD_THREADS)) {
        buildThreads = threads(value, origins.get(key));
      } else if (key.equals(SINGLE_NODE_MEMORY)) {
        singleNodeMemory = memory(value, origins.get(key));
      } else if (!key.equals("warehouse")) {
        throw new ConfigurationException("Unknown configuration key '" + key + "' in "
            + source.map(Path::toString).orElse("the environment")
            + "; keys are warehouse, files.root, catalog.NAME.PROPERTY, mount.PREFIX, maintain.PREFIX.OPTION, advisories, advisories.OPTION, duckdb.memory-limit, duckdb.threads, duckdb.parquet, " + ON_SCHEMA_CHANGE + ", " + BUILD_THREADS + ", " + SINGLE_NODE_MEMORY + ", openlineage.* and spark.*");
      }
    }
    catalogs.putAll(declared);
    if (mounts.isEmpty()) {
      String value = Optional.ofNullable(fromEnvironment.get(DEFAULT_MOUNT_KEY))
          .map(v -> interpolate(DEFAULT_MOUNT_KEY, origins.get(DEFAULT_MOUNT_KEY), v, environment, secretValues))
          .orElse(DEFAULT_CATALOG);
      mounts.add(parseMount("/", value));
    }
    catalogs.forEach((name, props) -> props.forEach((property, value) -> {
      if (SecretMasker.isSecretKey(property)) {
        secretValues.add(value);
      }
      secretValues.addAll(SecretMasker.secretsInside(value));
    }));
    SecretMasker masker = new SecretMasker(secretValues);
    SecretMasker.register(secretValues);

    for (Map.Entry<String, Map<String, String>> catalog : catalogs.entrySet()) {
      checkImplementation(catalog.getKey(), catalog.getValue(), origins);
    }
    Set<String> prefixes = new HashSet<>();
    for (Mount mount : mounts) {
      if (!catalogs.containsKey(mount.catalog())) {
        throw new ConfigurationException("Mount '" + mount.prefix() + "' names catalog '" + mount.catalog()
            + "', which is not defined; define catalog." + mount.catalog() + ".type, or use one of "
            + catalogs.keySet());
      }
      if (!prefixes.add(mount.prefix())) {
        throw new ConfigurationException("Mount '" + mount.prefix() + "' is declared twice");
      }
    }
    mounts.sort(Comparator.comparingInt(Mount::depth).reversed());

    Map<String, Map<String, String>> frozen = new LinkedHashMap<>();
    catalogs.forEach((name, props) -> frozen.put(name, Map.copyOf(props)));
    TransformsConfig config = new TransformsConfig(source, warehousePath, filesRoot,
        java.util.Collections.unmodifiableMap(frozen), List.copyOf(mounts), Map.copyOf(spark), Map.copyOf(maintenance),
        Map.copyOf(advisories), Map.copyOf(duckdb), onSchemaChange, buildThreads, singleNodeMemory,
        java.util.Collections.unmodifiableMap(lineage), pipelineName(source, workingDirectory), masker,
        Map.copyOf(origins));
    // The advisory and lineage keys are checked now, so that plan refuses what a build would.
    try {
      dev.transforms.runtime.internal.advice.AdvisorySettings.of(config);
      dev.transforms.runtime.internal.lineage.LineageSettings.of(config);
    } catch (ConfigurationException e) {
      throw withOrigin(e, config);
    }
    return config;
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

  /** A {@code build.threads} value: a whole number from 1 to 256. */
  private static int threads(String value, String origin) {
    String trimmed = value.strip();
    try {
      int threads = Integer.parseInt(trimmed);
      if (threads >= 1 && threads <= 256) {
        return threads;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new ConfigurationException("Configuration key '" + BUILD_THREADS + "' (set by " + origin
        + ") must be a whole number from 1 to 256, not '" + trimmed + "'");
  }

  /** A {@code singlenode.memory-limit} value in bytes: {@code 512m}, {@code 8g}, {@code 40%} of the machine's. */
  private static long memory(String value, String origin) {
    String trimmed = value.strip().toLowerCase(java.util.Locale.ROOT);
    Matcher size = Pattern.compile("(\\d{1,7})\\s*(%|k|m|g|t|kb|mb|gb|tb)").matcher(trimmed);
    if (size.matches()) {
      long amount = Long.parseLong(size.group(1));
      String unit = size.group(2).substring(0, 1);
      long bytes = switch (unit) {
        case "%" -> amount >= 1 && amount <= 100 ? physicalMemory() / 100 * amount : 0;
        case "k" -> amount << 10;
        case "m" -> amount << 20;
        case "g" -> amount << 30;
        default -> amount << 40;
      };
      if (bytes >= 16L << 20) {
        return bytes;
      }
    }
    throw new ConfigurationException("Configuration key '" + SINGLE_NODE_MEMORY + "' (set by " + origin
        + ") must be a size of at least 16m, such as 512m, 8g or 40% (of the machine's memory), not '"
        + value.strip() + "'");
  }

  /** The machine's memory, or 8 GiB where the JVM cannot tell. */
  private static long physicalMemory() {
    if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getTotalMemorySize();
    }
    return 8L << 30;
  }

  /** The policy a {@code build.on-schema-change} value names: dbt's names, in any case, with - or _. */
  private static SchemaChangePolicy schemaChangePolicy(String value, String origin) {
    String name = value.strip().toUpperCase(java.util.Locale.ROOT).replace('-', '_');
    for (SchemaChangePolicy policy : SchemaChangePolicy.values()) {
      if (policy != SchemaChangePolicy.CONFIGURED && policy.name().equals(name)) {
        return policy;
      }
    }
    throw new ConfigurationException("Configuration key '" + ON_SCHEMA_CHANGE + "' (set by " + origin
        + ") must be fail, append_new_columns or sync_all_columns, not '" + value.strip() + "'");
  }

  /** Refuses an unknown {@code duckdb.} key or a thread count that is not a positive number. */
  private static String checkDuckdbKey(String key, String value, String origin) {
    if (!DUCKDB_KEYS.contains(key)) {
      throw new ConfigurationException("Unknown configuration key '" + key + "' (set by " + origin
          + "); the DuckDB session keys are " + new TreeSet<>(DUCKDB_KEYS));
    }
    String trimmed = value.strip();
    if (trimmed.isEmpty()) {
      throw new ConfigurationException("Configuration key '" + key + "' (set by " + origin + ") is empty");
    }
    if (key.equals("duckdb.parquet") && !trimmed.equalsIgnoreCase("true") && !trimmed.equalsIgnoreCase("false")) {
      throw new ConfigurationException("Configuration key '" + key + "' (set by " + origin
          + ") must be true or false, not '" + trimmed + "'");
    }
    if (key.equals("duckdb.threads")) {
      boolean positive;
      try {
        positive = Integer.parseInt(trimmed) > 0;
      } catch (NumberFormatException e) {
        positive = false;
      }
      if (!positive) {
        throw new ConfigurationException("Configuration key '" + key + "' (set by " + origin
            + ") must be a positive whole number of threads, not '" + trimmed + "'");
      }
    }
    return trimmed;
  }

  /**
   * Checks that a catalog names an implementation Iceberg can build, the way {@code CatalogUtil} picks
   * it: a known {@code type}, or a {@code catalog-impl} class on the classpath, not both. Commands that
   * never start a catalog ({@code plan}) then refuse what a build would refuse.
   */
  private static void checkImplementation(String name, Map<String, String> props, Map<String, String> origins) {
    String type = props.get("type");
    String impl = props.get("catalog-impl");
    String key = "catalog." + name + ".";
    if (type == null && impl == null) {
      throw new ConfigurationException("Catalog '" + name + "' has neither catalog." + name
          + ".type (jdbc, rest, hadoop, hive) nor catalog." + name + ".catalog-impl");
    }
    if (type != null && impl != null) {
      throw new ConfigurationException("Catalog '" + name + "' sets both " + key + "type (set by "
          + origins.get(key + "type") + ") and " + key + "catalog-impl (set by " + origins.get(key + "catalog-impl")
          + "); keep one");
    }
    String className = impl;
    if (type != null) {
      className = CATALOG_TYPES.get(type.strip().toLowerCase(Locale.ROOT));
      if (className == null) {
        throw new ConfigurationException("Catalog '" + name + "' has type '" + type + "' (set by "
            + origins.get(key + "type") + "), which Iceberg does not know; use one of "
            + String.join(", ", CATALOG_TYPES.keySet()) + ", or name a class with " + key + "catalog-impl");
      }
    }
    ClassLoader loader = Optional.ofNullable(Thread.currentThread().getContextClassLoader())
        .orElse(TransformsConfig.class.getClassLoader());
    Class<?> implementation;
    try {
      implementation = Class.forName(className.strip(), false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ConfigurationException("Catalog '" + name + "' needs class " + className + " ("
          + (impl != null ? key + "catalog-impl" : "type " + type) + ", set by "
          + origins.get(key + (impl != null ? "catalog-impl" : "type")) + "), which is not on the classpath", e);
    }
    if (!org.apache.iceberg.catalog.Catalog.class.isAssignableFrom(implementation)) {
      throw new ConfigurationException("Catalog '" + name + "': class " + className + " (" + key
          + "catalog-impl, set by " + origins.get(key + "catalog-impl") + ") is not an Iceberg catalog "
          + "(org.apache.iceberg.catalog.Catalog)");
    }
  }

  /**
   * The properties of the embedded default catalog: Iceberg's {@code JdbcCatalog} on SQLite, tuned so
   * that concurrent writers in one or several processes all land.
   *
   * @param warehouse the warehouse folder
   * @return Iceberg catalog properties
   */
  public static Map<String, String> embeddedCatalog(Path warehouse) {
    Map<String, String> props = new TreeMap<>();
    props.put("type", "jdbc");
    props.put("uri", "jdbc:sqlite:" + warehouse.resolve("catalog.db"));
    props.put("warehouse", Locations.of(warehouse)); // the folder as it is: no URI escapes
    // V1 stores views and supports renames; without it MERGE into a missing table fails misleadingly.
    props.put("jdbc.schema-version", "V1");
    // Reach the SQLite driver: readers never block the writer, and a locked database is waited for,
    // since Iceberg does not retry SQLITE_BUSY.
    props.put("jdbc.journal_mode", "WAL");
    props.put("jdbc.busy_timeout", "30000");
    // Optimistic commits race on one row; with Iceberg's default of 4 retries, 8 writers lose commits.
    props.put("table-default.commit.retry.num-retries", "40");
    props.put("table-default.commit.retry.min-wait-ms", "10");
    props.put("table-default.commit.retry.max-wait-ms", "2000");
    return props;
  }

  private static Map<String, String> catalogTypes() {
    Map<String, String> types = new LinkedHashMap<>();
    types.put(CatalogUtil.ICEBERG_CATALOG_TYPE_JDBC, CatalogUtil.ICEBERG_CATALOG_JDBC);
    types.put(CatalogUtil.ICEBERG_CATALOG_TYPE_REST, CatalogUtil.ICEBERG_CATALOG_REST);
    types.put(CatalogUtil.ICEBERG_CATALOG_TYPE_HADOOP, CatalogUtil.ICEBERG_CATALOG_HADOOP);
    types.put(CatalogUtil.ICEBERG_CATALOG_TYPE_HIVE, CatalogUtil.ICEBERG_CATALOG_HIVE);
    types.put(CatalogUtil.ICEBERG_CATALOG_TYPE_GLUE, CatalogUtil.ICEBERG_CATALOG_GLUE);
    types.put(CatalogUtil.ICEBERG_CATALOG_TYPE_NESSIE, CatalogUtil.ICEBERG_CATALOG_NESSIE);
    types.put(CatalogUtil.ICEBERG_CATALOG_TYPE_BIGQUERY, CatalogUtil.ICEBERG_CATALOG_BIGQUERY);
    return types;
  }

  private static Map<String, String> read(Path file) {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file)) {
      properties.load(reader);
    } catch (AccessDeniedException e) {
      throw new ConfigurationException("Cannot read configuration file " + file + ": permission denied", e);
    } catch (CharacterCodingException e) {
      // The decoder's own message ("Input length = 1") says nothing a user can act on: not kept as a cause.
      throw new ConfigurationException("Cannot read configuration file " + file + ": it is not UTF-8 text"
          + firstBadByte(file).orElse("") + "; save it as UTF-8");
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException("Cannot read configuration file " + file + malformedEscape(file).orElse("")
          + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw new ConfigurationException("Cannot read configuration file " + file + ": " + e.getMessage(), e);
    }
    refuseKeysSetTwice(file);
    Map<String, String> keys = new TreeMap<>();
    properties.stringPropertyNames().forEach(k -> keys.put(k.trim(), properties.getProperty(k).trim()));
    return keys;
  }

  /**
   * Refuses a key set twice in the file ({@code build.threads=2}, later {@code build.threads=3}):
   * {@link Properties} keeps the last value without a word, and which one was meant is anyone's guess.
   * Each entry is read by {@link Properties} itself, one logical line at a time (a line ending with an odd
   * number of backslashes goes on on the next), so that keys are compared as it reads them, escapes
   * included; the lines are counted as written.
   */
  private static void refuseKeysSetTwice(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      return; // read once already; nothing more to find
    }
    Map<String, Integer> firstLine = new HashMap<>();
    int n = 0;
    while (n < lines.size()) {
      int start = n;
      String first = lines.get(n).replaceFirst("^[ \\t\\f]+", "");
      n++;
      if (first.isEmpty() || first.startsWith("#") || first.startsWith("!")) {
        continue;
      }
      StringBuilder entry = new StringBuilder(lines.get(start));
      while (continues(lines.get(n - 1)) && n < lines.size()) {
        entry.append('\n').append(lines.get(n));
        n++;
      }
      Properties one = new Properties();
      try {
        one.load(new java.io.StringReader(entry.toString()));
      } catch (IOException | IllegalArgumentException e) {
        continue; // the whole file loaded; a line cannot fail alone
      }
      for (String key : one.stringPropertyNames()) {
        Integer before = firstLine.putIfAbsent(key.trim(), start + 1);
        if (before != null) {
          throw new ConfigurationException("Configuration key '" + key.trim() + "' is set twice in file " + file
              + ", on line " + before + " and line " + (start + 1) + "; keep one");
        }
      }
    }
  }

  /** Whether a line of a properties file goes on on the next: it ends with an odd number of backslashes. */
  private static boolean continues(String line) {
    int backslashes = 0;
    for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
      backslashes++;
    }
    return backslashes % 2 == 1;
  }

  /**
   * Where a properties file holds a backslash-u escape that is not followed by four hexadecimal digits, the
   * one error {@link Properties#load(Reader)} reports without a line: {@code ", line N ('FRAGMENT')"}.
   */
  private static Optional<String> malformedEscape(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      return Optional.empty();
    }
    for (int n = 0; n < lines.size(); n++) {
      String line = lines.get(n);
      for (int i = 0; i < line.length(); i++) {
        if (line.charAt(i) != '\\') {
          continue;
        }
        if (i + 1 < line.length() && line.charAt(i + 1) == 'u'
            && !(i + 6 <= line.length() && line.substring(i + 2, i + 6).matches("[0-9a-fA-F]{4}"))) {
          return Optional.of(", line " + (n + 1) + " ('" + line.substring(i, Math.min(line.length(), i + 6)) + "')");
        }
        i++; // the escaped character
      }
    }
    return Optional.empty();
  }

  /** Where the first byte of a file that is not UTF-8 sits: {@code " (line N, byte B of the line: 0xHH)"}. */
  private static Optional<String> firstBadByte(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      return Optional.empty();
    }
    java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(bytes);
    java.nio.charset.CoderResult result = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
        .decode(in, java.nio.CharBuffer.allocate(bytes.length), true);
    if (!result.isError()) {
      return Optional.empty();
    }
    int at = in.position();
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < at; i++) {
      if (bytes[i] == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return Optional.of(String.format(Locale.ROOT, " (line %d, byte %d of the line: 0x%02X)", line, at - lineStart + 1,
        bytes[at] & 0xff));
  }

  /**
   * An error about a key of the configuration, with where the key was set appended: the checks of other
   * classes ({@code AdvisorySettings}) name the key but cannot know its origin.
   */
  private static ConfigurationException withOrigin(ConfigurationException e, TransformsConfig config) {
    Matcher key = Pattern.compile("[Cc]onfiguration key '([^']+)'").matcher(String.valueOf(e.getMessage()));
    if (!key.find() || e.getMessage().contains("(set by ")) {
      return e;
    }
    String origin = config.origin(key.group(1));
    return origin.isEmpty() ? e : new ConfigurationException(e.getMessage() + " (set by " + origin + ")", e);
  }

  /** The values that environment variables give to keys they may override, recording their origin. */
  private static Map<String, String> environmentOverrides(Set<String> keys, Map<String, String> environment,
      Map<String, String> origins) {
    Map<String, String> byEnvName = new LinkedHashMap<>();
    keys.forEach(k -> byEnvName.putIfAbsent(environmentName(k), k));
    Map<String, String> overrides = new LinkedHashMap<>();
    for (Map.Entry<String, String> variable : new TreeMap<>(environment).entrySet()) {
      String key = byEnvName.get(variable.getKey());
      if (key != null) {
        overrides.put(key, variable.getValue());
        origins.put(key, "environment variable " + variable.getKey());
      }
    }
    return overrides;
  }

  /**
   * The environment variable that overrides a key.
   *
   * @param key a configuration key, such as {@code catalog.prod.uri}
   * @return the variable name, such as {@code TRANSFORMS_CATALOG_PROD_URI}
   */
  public static String environmentName(String key) {
    return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
  }

  private static String interpolate(String key, String origin, String value, Map<String, String> env,
      Set<String> secrets) {
    Matcher matcher = REFERENCE.matcher(value);
    StringBuilder out = new StringBuilder();
    int end = 0;
    while (matcher.find()) {
      checkNoBrokenReference(key, origin, value.substring(end, matcher.start()));
      end = matcher.end();
      String variable = matcher.group(1);
      String replacement = env.get(variable);
      if (replacement == null) {
        replacement = matcher.group(3);
      }
      if (replacement == null) {
        throw new ConfigurationException("Configuration key '" + key + "' (set by " + origin + ") references ${"
            + variable + "}, which is not set; export " + variable + " or give a default as ${" + variable
            + ":-value}");
      }
      if (SecretMasker.isSecretKey(key)) {
        secrets.add(replacement);
      }
      matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    checkNoBrokenReference(key, origin, value.substring(end));
    matcher.appendTail(out);
    return out.toString();
  }

  /**
   * Refuses a {@code ${} that starts no valid reference in text between references: left as it is, the
   * value would reach the catalog with the {@code ${} in it. Only the variable name is quoted, never
   * the rest of the value, which may be a secret.
   */
  private static void checkNoBrokenReference(String key, String origin, String text) {
    int start = text.indexOf("${");
    if (start < 0) {
      return;
    }
    Matcher name = BROKEN_REFERENCE.matcher(text.substring(start));
    String fragment = name.lookingAt() ? name.group() : "${";
    String where = "Configuration key '" + key + "' (set by " + origin + ")";
    if (text.indexOf('}', start) < 0) {
      throw new ConfigurationException(where + " has an unterminated reference '" + fragment
          + "'; close it with '}': ${VAR} or ${VAR:-default}");
    }
    throw new ConfigurationException(where + " has an invalid reference starting '" + fragment
        + "'; a reference is ${VAR} or ${VAR:-default}, VAR made of letters, digits and _, not starting with a digit");
  }

  private static Mount parseMount(String prefix, String value) {
    if (!prefix.equals("/")) {
      try {
        DatasetPath.of(prefix);
      } catch (InvalidPathException e) {
        throw new ConfigurationException("Mount prefix of 'mount." + prefix + "' is not a valid path: "
            + e.getMessage(), e);
      }
    }
    String catalog = value;
    List<String> namespace = List.of();
    int colon = value.indexOf(':');
    if (colon >= 0) {
      catalog = value.substring(0, colon);
      String ns = value.substring(colon + 1);
      namespace = ns.isEmpty() ? List.of() : List.of(ns.split("\\.", -1));
      if (namespace.stream().anyMatch(String::isEmpty)) {
        throw new ConfigurationException("Mount 'mount." + prefix + "=" + value
            + "' has an empty namespace level; write CATALOG:level1.level2");
      }
    }
    if (catalog.isEmpty()) {
      throw new ConfigurationException("Mount 'mount." + prefix + "' names no catalog; write CATALOG or CATALOG:NAMESPACE");
    }
    return new Mount(prefix, catalog, namespace);
  }

  /**
   * The file this configuration was read from.
   *
   * @return the file, or empty for the embedded default
   */
  public Optional<Path> source() {
    return source;
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
    return sparkProperties;
  }

  /**
   * The {@code maintain.PREFIX.OPTION} keys: maintenance policies by path prefix, as
   * {@code transforms maintain --all} applies them ({@code dev.transforms.runtime.maintenance.MaintenancePolicies}).
   *
   * @return the keys with their values
   */
  public Map<String, String> maintenanceProperties() {
    return maintenanceProperties;
  }

  /**
   * The {@code advisories} key (the level: {@code off}, {@code warn} or {@code error}) and the
   * {@code advisories.OPTION} keys (the rules' thresholds), as the file and environment set them. The
   * values are checked when the configuration is loaded.
   *
   * @return the keys with their values
   */
  public Map<String, String> advisoryProperties() {
    return advisoryProperties;
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
    return duckdbProperties;
  }

  /**
   * The {@code openlineage.*} keys, as the file and environment set them (secrets unmasked: never print
   * them, use {@link #masker()}): {@code openlineage.enabled} (the switch, {@code false} unless set),
   * {@code openlineage.namespace}, {@code openlineage.timeout} and the transport's keys under
   * {@code openlineage.transport.}. They are checked when the configuration is loaded; what a build emits
   * is described in {@code docs/lineage.md}.
   *
   * @return the keys with their values, trimmed
   */
  public Map<String, String> lineageProperties() {
    return lineageProperties;
  }

  /**
   * The pipeline's name, the default OpenLineage namespace of its jobs: the name of the folder holding
   * the configuration file, or of the working directory when there is none.
   *
   * @return the name, never empty
   */
  public String pipelineName() {
    return pipelineName;
  }

  /**
   * The schema-change policy of incremental builds for table outputs that declare none
   * ({@code build.on-schema-change}): {@link SchemaChangePolicy#FAIL} unless set.
   *
   * @return the policy, never {@link SchemaChangePolicy#CONFIGURED}
   */
  public SchemaChangePolicy onSchemaChange() {
    return onSchemaChange;
  }

  /**
   * How many transforms a build runs at once, at most ({@code build.threads}): the machine's cores, at
   * most {@value #DEFAULT_MAX_THREADS}, unless set. {@code 1} runs them one by one, in plan order.
   *
   * @return the number of threads, at least 1
   */
  public int buildThreads() {
    return buildThreads > 0 ? buildThreads
        : Math.max(1, Math.min(DEFAULT_MAX_THREADS, Runtime.getRuntime().availableProcessors()));
  }

  /**
   * The Arrow memory the single-node transforms of one build share, however many run at once
   * ({@code singlenode.memory-limit}): half the machine's memory unless set. A transform that needs more
   * than is left fails, naming the limit; the others go on.
   *
   * @return the limit in bytes
   */
  public long singleNodeMemoryLimit() {
    return singleNodeMemory > 0 ? singleNodeMemory : physicalMemory() / 2;
  }

  /**
   * Where a key's value was set, as errors name it: {@code file PATH}, {@code environment variable NAME},
   * {@code --warehouse}, {@code the default} or {@code the embedded default}.
   *
   * @param key a configuration key, such as {@code advisories} or {@code maintain./Shop.older-than}
   * @return the origin, or empty for a key that is not set
   */
  public String origin(String key) {
    return origins.getOrDefault(key, "");
  }

  /**
   * The masker that hides this configuration's secrets.
   *
   * @return the secret masker
   */
  public SecretMasker masker() {
    return masker;
  }

  /**
   * A printable description: every key, with secrets masked.
   *
   * @return a multi-line description
   */
  public String describe() {
    StringBuilder out = new StringBuilder();
    out.append("source: ").append(source.map(Path::toString).orElse("embedded default")).append('\n');
    out.append("warehouse: ").append(warehouse).append('\n');
    catalogs.forEach((name, props) -> masker.maskAll(new TreeMap<>(props))
        .forEach((k, v) -> out.append("catalog.").append(name).append('.').append(k).append(" = ").append(v)
            .append('\n')));
    mounts.forEach(m -> out.append("mount.").append(m.prefix()).append(" = ").append(m.catalog())
        .append(m.namespace().isEmpty() ? "" : ":" + String.join(".", m.namespace())).append('\n'));
    masker.maskAll(sparkProperties).forEach((k, v) -> out.append(k).append(" = ").append(v).append('\n'));
    new TreeMap<>(duckdbProperties).forEach((k, v) -> out.append(k).append(" = ").append(v).append('\n'));
    masker.maskAll(new TreeMap<>(lineageProperties)).forEach((k, v) -> out.append(k).append(" = ").append(v)
        .append('\n'));
    if (singleNodeMemory > 0) {
      out.append(SINGLE_NODE_MEMORY).append(" = ").append(singleNodeMemory >> 20).append("m\n");
    }
    if (buildThreads > 0) {
      out.append(BUILD_THREADS).append(" = ").append(buildThreads).append('\n');
    }
    if (onSchemaChange != SchemaChangePolicy.FAIL) {
      out.append(ON_SCHEMA_CHANGE).append(" = ").append(onSchemaChange.name().toLowerCase(java.util.Locale.ROOT))
          .append('\n');
    }
    return out.toString();
  }

  @Override
  public String toString() {
    return describe();
  }
}
