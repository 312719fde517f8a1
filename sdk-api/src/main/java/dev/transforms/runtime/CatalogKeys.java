package dev.transforms.runtime;

import dev.transforms.api.ConfigurationException;
import dev.transforms.runtime.Locations;
import dev.transforms.runtime.secrets.SecretMasker;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;

/**
 * The {@code catalog.NAME.PROPERTY} keys: Iceberg catalog properties by catalog, over the embedded
 * default catalog {@code local}. A catalog the file defines replaces the default of the same name whole.
 * Every catalog's {@code type} (or {@code catalog-impl} class) is checked, so that a command that starts
 * no catalog refuses what a build would.
 */
final class CatalogKeys {

  /** The name of the embedded default catalog. */
  public static final String DEFAULT_CATALOG = "local";

  /** The prefix of the keys of catalogs. */
  public static final String PREFIX = "catalog.";

  /** The prefix of the keys of the embedded default catalog. */
  public static final String EMBEDDED_PREFIX = PREFIX + DEFAULT_CATALOG + ".";

  /** The catalog types Iceberg's {@code CatalogUtil} knows, with the class each one builds. */
  private static final Map<String, String> CATALOG_TYPES = catalogTypes();

  private CatalogKeys() {
  }

  /**
   * Every catalog by name, checked.
   *
   * @param values the layered keys
   * @param warehouse the warehouse folder, where the embedded catalog lives
   * @param embeddedOverrides the embedded catalog's properties the environment overrides
   * @param origins where each key was set; the embedded catalog's keys are added
   * @return the catalogs by name, sorted, with their properties; unmodifiable
   * @throws ConfigurationException for a key not of the form {@code catalog.NAME.PROPERTY}, or a catalog
   *     without a type Iceberg knows
   */
  public static Map<String, Map<String, String>> read(Map<String, String> values, Path warehouse,
      Map<String, String> embeddedOverrides, Map<String, String> origins) {
    Map<String, Map<String, String>> catalogs = new TreeMap<>();
    Map<String, String> embedded = embedded(warehouse);
    embedded.keySet().forEach(k -> origins.putIfAbsent(EMBEDDED_PREFIX + k, "the embedded default"));
    embeddedOverrides.forEach((key, value) -> embedded.put(key.substring(EMBEDDED_PREFIX.length()), value));
    catalogs.put(DEFAULT_CATALOG, embedded);
    Map<String, Map<String, String>> declared = new TreeMap<>();
    values.forEach((key, value) -> {
      if (!key.startsWith(PREFIX)) {
        return;
      }
      int dot = key.indexOf('.', PREFIX.length());
      if (dot < 0 || dot == key.length() - 1) {
        throw new ConfigurationException("Configuration key '" + key
            + "' must have the form catalog.NAME.PROPERTY, such as catalog.prod.uri");
      }
      declared.computeIfAbsent(key.substring(PREFIX.length(), dot), n -> new TreeMap<>()).put(key.substring(dot + 1),
          value);
    });
    catalogs.putAll(declared);
    catalogs.forEach((name, props) -> {
      checkImplementation(name, props, origins);
      checkUri(name, props);
      checkEndpoints(name, props, origins);
    });
    Map<String, Map<String, String>> frozen = new LinkedHashMap<>();
    catalogs.forEach((name, props) -> frozen.put(name, Map.copyOf(props)));
    return Collections.unmodifiableMap(frozen);
  }

  /**
   * The secrets among catalog properties: the values of properties named like secrets, and credentials
   * written inside values (the password of a URI).
   *
   * @param catalogs the catalogs by name
   * @return the secret values
   */
  public static Set<String> secrets(Map<String, Map<String, String>> catalogs) {
    Set<String> secrets = new HashSet<>();
    catalogs.forEach((name, props) -> props.forEach((property, value) -> {
      if (SecretMasker.isSecretKey(property)) {
        secrets.add(value);
      }
      secrets.addAll(SecretMasker.secretsInside(value));
    }));
    return secrets;
  }

  /**
   * The properties of the embedded default catalog: Iceberg's {@code JdbcCatalog} on SQLite, tuned so
   * that concurrent writers in one or several processes all land.
   *
   * @param warehouse the warehouse folder
   * @return Iceberg catalog properties
   */
  public static Map<String, String> embedded(Path warehouse) {
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

  /**
   * Checks that a catalog of a type that is reached at a URI ({@code rest}, {@code jdbc}) has one: without it
   * Iceberg fails to start it with "Invalid uri for http client: null".
   */
  private static void checkUri(String name, Map<String, String> props) {
    String type = String.valueOf(props.get("type")).strip().toLowerCase(Locale.ROOT);
    if ((type.equals("rest") || type.equals("jdbc")) && String.valueOf(props.getOrDefault("uri", "")).isBlank()) {
      throw new ConfigurationException("Catalog '" + name + "' has type " + type + " but no " + PREFIX + name
          + ".uri; set it to " + (type.equals("rest") ? "the REST catalog's address, such as http://127.0.0.1:8181"
          : "the database's JDBC URL, such as jdbc:postgresql://db:5432/iceberg"));
    }
  }

  /**
   * Checks that a catalog's object-store endpoints ({@code s3.endpoint} and the like) are URLs with their
   * scheme: {@code 127.0.0.1:9000} is read as a URI with the scheme {@code 127.0.0.1}, and fails only when a
   * transform first writes, as "Illegal character in scheme name", naming neither key nor catalog.
   */
  private static void checkEndpoints(String name, Map<String, String> props, Map<String, String> origins) {
    props.forEach((property, value) -> {
      if (!property.endsWith(".endpoint")) {
        return;
      }
      String key = PREFIX + name + "." + property;
      String endpoint = value.strip();
      boolean absolute;
      try {
        java.net.URI uri = new java.net.URI(endpoint);
        absolute = uri.getScheme() != null && uri.getHost() != null
            && (uri.getScheme().equalsIgnoreCase("http") || uri.getScheme().equalsIgnoreCase("https"));
      } catch (java.net.URISyntaxException e) {
        absolute = false;
      }
      if (!absolute) {
        throw new ConfigurationException("Catalog '" + name + "': " + key + " is '" + value + "' (set by "
            + origins.get(key) + "), which is not a URL with its scheme and host; write it as http://HOST:PORT or "
            + "https://HOST:PORT" + (endpoint.contains("://") ? "" : ", such as http://" + endpoint));
      }
    });
  }

  /**
   * Checks that a catalog names an implementation Iceberg can build, the way {@code CatalogUtil} picks
   * it: a known {@code type}, or a {@code catalog-impl} class on the classpath, not both.
   */
  private static void checkImplementation(String name, Map<String, String> props, Map<String, String> origins) {
    String type = props.get("type");
    String impl = props.get("catalog-impl");
    String key = PREFIX + name + ".";
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
        .orElse(CatalogKeys.class.getClassLoader());
    Class<?> implementation;
    try {
      implementation = Class.forName(className.strip(), false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ConfigurationException("Catalog '" + name + "' needs class " + className + " ("
          + (impl != null ? key + "catalog-impl" : "type " + type) + ", set by "
          + origins.get(key + (impl != null ? "catalog-impl" : "type")) + "), which is not on the classpath", e);
    }
    if (!Catalog.class.isAssignableFrom(implementation)) {
      throw new ConfigurationException("Catalog '" + name + "': class " + className + " (" + key
          + "catalog-impl, set by " + origins.get(key + "catalog-impl") + ") is not an Iceberg catalog "
          + "(org.apache.iceberg.catalog.Catalog)");
    }
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
}
