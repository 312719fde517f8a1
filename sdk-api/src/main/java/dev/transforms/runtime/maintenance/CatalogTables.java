package dev.transforms.runtime.maintenance;

import dev.transforms.runtime.Mount;
import dev.transforms.runtime.internal.catalog.Catalogs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;

/** The tables that exist under a path prefix, found by walking the namespaces of the mounted catalogs. */
final class CatalogTables {

  /**
   * A table found, with its dataset path.
   *
   * @param path the dataset path the mounts give it
   * @param table the table
   */
  record Found(String path, Table table) {}

  private CatalogTables() {}

  /** Every table of every mounted catalog that already exists, each once. */
  static List<Found> all(Catalogs catalogs) {
    List<Found> found = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Mount mount : catalogs.config().mounts()) {
      walk(catalogs, mount, mount.prefix(), seen, found);
    }
    return found;
  }

  /**
   * The tables under a prefix: a folder of datasets, or a dataset path itself.
   *
   * @param prefix {@code /} or a path
   */
  static List<Found> under(Catalogs catalogs, String prefix) {
    List<Found> found = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Mount mount : catalogs.config().mounts()) {
      if (mount.prefix().equals("/") || prefix.equals(mount.prefix()) || prefix.startsWith(mount.prefix() + "/")) {
        walk(catalogs, mount, prefix, seen, found);
        return found;
      }
    }
    return found;
  }

  private static void walk(Catalogs catalogs, Mount mount, String prefix, Set<String> seen, List<Found> found) {
    Optional<Catalog> catalog = catalogs.existingCatalog(mount.catalog());
    if (catalog.isEmpty()) {
      return;
    }
    List<String> levels = new ArrayList<>(mount.namespace());
    String below = prefix.equals(mount.prefix()) ? "" : prefix.substring(mount.prefix().equals("/") ? 1
        : mount.prefix().length() + 1);
    if (!below.isEmpty()) {
      levels.addAll(Arrays.asList(below.split("/")));
    }
    if (!below.isEmpty() && levels.size() >= 2) {
      // the prefix may name a table itself
      add(catalog.get(), mount, TableIdentifier.of(
          Namespace.of(levels.subList(0, levels.size() - 1).toArray(new String[0])), levels.get(levels.size() - 1)),
          seen, found);
    }
    if (catalog.get() instanceof SupportsNamespaces namespaces) {
      walkNamespace(catalog.get(), namespaces, Namespace.of(levels.toArray(new String[0])), mount, seen, found);
    }
  }

  private static void walkNamespace(Catalog catalog, SupportsNamespaces namespaces, Namespace namespace, Mount mount,
      Set<String> seen, List<Found> found) {
    List<TableIdentifier> tables;
    List<Namespace> children;
    try {
      tables = namespace.isEmpty() ? List.of() : catalog.listTables(namespace);
      children = namespaces.listNamespaces(namespace);
    } catch (NoSuchNamespaceException e) {
      return;
    }
    for (TableIdentifier identifier : tables) {
      add(catalog, mount, identifier, seen, found);
    }
    for (Namespace child : children) {
      walkNamespace(catalog, namespaces, child, mount, seen, found);
    }
  }

  private static void add(Catalog catalog, Mount mount, TableIdentifier identifier, Set<String> seen,
      List<Found> found) {
    if (!seen.add(mount.catalog() + "." + identifier)) {
      return;
    }
    try {
      found.add(new Found(pathOf(mount, identifier), catalog.loadTable(identifier)));
    } catch (NoSuchTableException e) {
      seen.remove(mount.catalog() + "." + identifier);
    }
  }

  private static String pathOf(Mount mount, TableIdentifier identifier) {
    StringBuilder path = new StringBuilder(mount.prefix().equals("/") ? "" : mount.prefix());
    String[] levels = identifier.namespace().levels();
    for (int i = mount.namespace().size(); i < levels.length; i++) {
      path.append('/').append(levels[i]);
    }
    return path.append('/').append(identifier.name()).toString();
  }
}
