package dev.transforms.runtime.catalog;

import dev.transforms.api.ConfigurationException;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.exceptions.AlreadyExistsException;

/**
 * The Iceberg catalogs of one configuration, each built on first use and closed with this object.
 * Thread-safe.
 */
public final class Catalogs implements Closeable {

  private final TransformsConfig config;
  private final Configuration hadoopConf;
  private final Map<String, Catalog> loaded = new LinkedHashMap<>();

  /**
   * Creates the catalogs of a configuration; none is built yet.
   *
   * @param config the configuration that defines them
   */
  public Catalogs(TransformsConfig config) {
    this.config = config;
    this.hadoopConf = new Configuration();
    // Local warehouses: no chmod fork per file, no .crc side files (see LocalWarehouseFileSystem).
    this.hadoopConf.set("fs.file.impl", LocalWarehouseFileSystem.class.getName());
  }

  /**
   * The catalog of a name, built on first use.
   *
   * @param name a catalog name from the configuration
   * @return the Iceberg catalog
   * @throws ConfigurationException if the catalog is not defined or cannot be built; the message has
   *     secrets masked
   */
  public synchronized Catalog catalog(String name) {
    Catalog catalog = loaded.get(name);
    if (catalog != null) {
      return catalog;
    }
    Map<String, String> props = config.catalogs().get(name);
    if (props == null) {
      throw new ConfigurationException("Catalog '" + name + "' is not defined; defined catalogs: "
          + config.catalogs().keySet());
    }
    String uri = props.getOrDefault("uri", "");
    if (uri.startsWith("jdbc:sqlite:") && !uri.contains(":memory:")) {
      // SQLite creates the database file but not its folder (the warehouse, on first use).
      Path database = Path.of(uri.substring("jdbc:sqlite:".length()).replaceFirst("\\?.*$", ""));
      try {
        Path folder = database.toAbsolutePath().getParent();
        if (folder != null) {
          Files.createDirectories(folder);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot create the folder of catalog '" + name + "' database " + database, e);
      }
    }
    try {
      catalog = CatalogUtil.buildIcebergCatalog(name, props, hadoopConf);
    } catch (RuntimeException e) {
      throw new ConfigurationException("Cannot start catalog '" + name + "': "
          + config.masker().mask(String.valueOf(e.getMessage())), e);
    }
    loaded.put(name, catalog);
    return catalog;
  }

  /**
   * Creates a namespace and every parent level that is missing, for catalogs that manage namespaces
   * (others are left alone). Safe against a concurrent creator.
   *
   * @param catalog the catalog
   * @param namespace the namespace, such as {@code Examples.iceberg}
   */
  public static void createNamespaceIfMissing(Catalog catalog, Namespace namespace) {
    if (!(catalog instanceof SupportsNamespaces namespaces)) {
      return;
    }
    String[] levels = namespace.levels();
    for (int depth = 1; depth <= levels.length; depth++) {
      Namespace level = Namespace.of(Arrays.copyOf(levels, depth));
      if (!namespaces.namespaceExists(level)) {
        try {
          namespaces.createNamespace(level);
        } catch (AlreadyExistsException e) {
          // Another writer created it first.
        }
      }
    }
  }

  /**
   * The configuration the catalogs come from.
   *
   * @return the configuration
   */
  public TransformsConfig config() {
    return config;
  }

  /**
   * The Hadoop configuration shared by the catalogs' file IO.
   *
   * @return the Hadoop configuration
   */
  public Configuration hadoopConf() {
    return hadoopConf;
  }

  @Override
  public synchronized void close() {
    for (Catalog catalog : loaded.values()) {
      if (catalog instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception e) {
          // Closing releases connections; a failure here must not hide the build's own result.
        }
      }
    }
    loaded.clear();
  }
}
