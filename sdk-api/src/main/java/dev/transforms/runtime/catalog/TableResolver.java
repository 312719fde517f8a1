package dev.transforms.runtime.catalog;

import dev.transforms.api.ConfigurationException;
import dev.transforms.api.InvalidPathException;
import dev.transforms.runtime.path.DatasetPath;
import java.util.ArrayList;
import java.util.List;

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
   *     in a JDBC catalog (which stores namespaces dot-joined)
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
      if ("jdbc".equals(config.catalogs().get(mount.catalog()).get("type"))) {
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
}
