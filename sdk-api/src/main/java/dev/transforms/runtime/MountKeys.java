package dev.transforms.runtime;

import dev.transforms.api.ConfigurationException;
import dev.transforms.api.InvalidPathException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.Mount;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code mount.PREFIX=CATALOG[:NAMESPACE]} keys: the datasets under {@code PREFIX} live in that
 * catalog, under the dot-separated namespace. Without any, everything is mounted at {@code /} in the
 * embedded catalog.
 */
final class MountKeys {

  /** The prefix of the keys of mounts. */
  public static final String PREFIX = "mount.";

  /** The key of the default mount, dropped when the file declares any mount. */
  public static final String DEFAULT_MOUNT_KEY = PREFIX + "/";

  private MountKeys() {
  }

  /**
   * The mounts, checked against the catalogs.
   *
   * @param values the layered keys
   * @param catalogs the names of the defined catalogs
   * @return the mounts, deepest prefix first (the order they are matched in)
   * @throws ConfigurationException for a prefix that is not a path, a value naming no catalog or an
   *     undefined one, or a prefix mounted twice
   */
  public static List<Mount> read(Map<String, String> values, Set<String> catalogs) {
    List<Mount> mounts = new ArrayList<>();
    values.forEach((key, value) -> {
      if (key.startsWith(PREFIX)) {
        mounts.add(parse(key.substring(PREFIX.length()), value));
      }
    });
    if (mounts.isEmpty()) {
      mounts.add(parse("/", CatalogKeys.DEFAULT_CATALOG));
    }
    Set<String> prefixes = new HashSet<>();
    for (Mount mount : mounts) {
      if (!catalogs.contains(mount.catalog())) {
        throw new ConfigurationException("Mount '" + mount.prefix() + "' names catalog '" + mount.catalog()
            + "', which is not defined; define catalog." + mount.catalog() + ".type, or use one of " + catalogs);
      }
      if (!prefixes.add(mount.prefix())) {
        throw new ConfigurationException("Mount '" + mount.prefix() + "' is declared twice");
      }
    }
    mounts.sort(Comparator.comparingInt(Mount::depth).reversed());
    return List.copyOf(mounts);
  }

  private static Mount parse(String prefix, String value) {
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
}
