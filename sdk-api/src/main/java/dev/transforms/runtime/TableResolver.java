package dev.transforms.runtime;

import dev.transforms.api.ConfigurationException;
import dev.transforms.api.InvalidPathException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.jdbc.JdbcCatalog;

/**
 * Turns dataset paths into catalog tables through the configuration's mounts.
 *
 * <p>The deepest mount whose prefix holds the path wins. The segments below the prefix, but the last,
 * become namespace levels after the mount's own; the last segment is the table name.
 */
public final class TableResolver {

  private final TransformsConfig config;

  /**
   * Creates a resolver over a configuration.
   *
   * @param config the configuration whose mounts apply
   */
  public TableResolver(TransformsConfig config) {
    this.config = config;
  }

  /**
   * Resolves a path.
   *
   * @param path a dataset path
   * @return the table it names
   * @throws ConfigurationException if no mount holds the path
   * @throws InvalidPathException if the path leaves no namespace, or a namespace level contains a dot
   *     in a JDBC catalog (which stores namespaces dot-joined), whether declared by {@code type} or by
   *     {@code catalog-impl}
   */
  public ResolvedTable resolve(DatasetPath path) {
    for (Mount mount : config.mounts()) {
      if (!path.isUnder(mount.prefix())) {
        continue;
      }
      List<String> below = path.segments().subList(mount.depth(), path.segments().size());
      if (below.isEmpty()) {
        throw new InvalidPathException("Dataset path '" + path + "' is the mount prefix itself; a dataset lies below '"
            + mount.prefix() + "'");
      }
      List<String> namespace = new ArrayList<>(mount.namespace());
      namespace.addAll(below.subList(0, below.size() - 1));
      if (namespace.isEmpty()) {
        throw new InvalidPathException("Dataset path '" + path + "' resolves to no namespace in catalog '"
            + mount.catalog() + "'; put the dataset in a folder, like /" + mount.catalog() + "-data" + path
            + ", or mount '" + mount.prefix() + "' with a namespace (mount." + mount.prefix() + "=" + mount.catalog()
            + ":NAMESPACE)");
      }
      if (storesNamespacesDotJoined(config.catalogs().get(mount.catalog()))) {
        for (String level : namespace) {
          if (level.contains(".")) {
            throw new InvalidPathException("Dataset path '" + path + "' has the folder '" + level
                + "' with a '.', which the JDBC catalog '" + mount.catalog()
                + "' cannot store in a namespace; rename the folder");
          }
        }
      }
      return new ResolvedTable(path, mount.catalog(), namespace, path.name());
    }
    throw new ConfigurationException("No mount holds dataset path '" + path + "'; add mount.PREFIX=CATALOG for it to "
        + config.source().map(Object::toString).orElse(TransformsConfig.FILE_NAME));
  }

  /**
   * Whether a catalog is Iceberg's {@code JdbcCatalog}, which stores a namespace as its levels joined by
   * dots: declared by {@code type=jdbc} (in any case), or by a {@code catalog-impl} naming that class or
   * a subclass of it.
   *
   * @param properties the catalog's properties
   * @return whether a namespace level of the catalog must not contain a dot
   */
  static boolean storesNamespacesDotJoined(Map<String, String> properties) {
    String type = properties.get("type");
    if (type != null) {
      return type.strip().equalsIgnoreCase("jdbc");
    }
    String implementation = properties.get("catalog-impl");
    if (implementation == null) {
      return false;
    }
    ClassLoader loader = Optional.ofNullable(Thread.currentThread().getContextClassLoader())
        .orElse(TableResolver.class.getClassLoader());
    try {
      return JdbcCatalog.class.isAssignableFrom(Class.forName(implementation.strip(), false, loader));
    } catch (ClassNotFoundException | LinkageError e) {
      return implementation.strip().equals(JdbcCatalog.class.getName());
    }
  }
}
