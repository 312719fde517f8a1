package dev.transforms.runtime.maintenance;

import dev.transforms.runtime.catalog.Catalogs;
import dev.transforms.runtime.catalog.Mount;
import dev.transforms.runtime.incremental.IncrementalState;
import dev.transforms.runtime.path.DatasetPath;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * The incremental transforms downstream of a table: outputs, in any mounted catalog, whose stored
 * build state ({@link IncrementalState}) records a snapshot of the table as the input their last build
 * consumed. Expiring such a snapshot makes the next build of that transform a full rebuild.
 */
final class DownstreamStates {

  /**
   * An output whose state records a snapshot of the maintained table.
   *
   * @param output the output's dataset path
   * @param transform the transform that published it
   * @param snapshotId the snapshot of the maintained table it consumed
   */
  record Dependent(String output, String transform, long snapshotId) {}

  private DownstreamStates() {}

  /** Every output whose state records a snapshot of {@code input}. */
  static List<Dependent> of(Catalogs catalogs, DatasetPath input) {
    String key = IncrementalState.INPUT_PREFIX + input;
    List<Dependent> found = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Mount mount : catalogs.config().mounts()) {
      Optional<Catalog> catalog = catalogs.existingCatalog(mount.catalog());
      if (catalog.isEmpty() || !(catalog.get() instanceof SupportsNamespaces namespaces)) {
        continue;
      }
      Namespace root = Namespace.of(mount.namespace().toArray(new String[0]));
      walk(catalog.get(), namespaces, root, mount, mount.catalog(), key, seen, found);
    }
    return found;
  }

  private static void walk(Catalog catalog, SupportsNamespaces namespaces, Namespace namespace, Mount mount,
      String catalogName, String key, Set<String> seen, List<Dependent> found) {
    List<TableIdentifier> tables;
    List<Namespace> children;
    try {
      tables = namespace.isEmpty() ? List.of() : catalog.listTables(namespace);
      children = namespaces.listNamespaces(namespace);
    } catch (NoSuchNamespaceException e) {
      return;
    }
    for (TableIdentifier identifier : tables) {
      if (!seen.add(catalogName + "." + identifier)) {
        continue;
      }
      Table table;
      try {
        table = catalog.loadTable(identifier);
      } catch (NoSuchTableException e) {
        continue;
      }
      Map<String, String> properties = table.properties();
      String value = properties.get(key);
      if (value == null || value.equals(IncrementalState.NO_SNAPSHOT)) {
        continue;
      }
      try {
        found.add(new Dependent(pathOf(mount, identifier), properties.getOrDefault(IncrementalState.TRANSFORM, "?"),
            Long.parseLong(value)));
      } catch (NumberFormatException e) {
        // an unreadable state is no state: its transform rebuilds in full anyway
      }
    }
    for (Namespace child : children) {
      walk(catalog, namespaces, child, mount, catalogName, key, seen, found);
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
