package dev.transforms.runtime.internal.publish;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.iceberg.Table;

/**
 * The table-level metadata readers of an output's {@code main} see: the current schema, the default
 * partition spec and sort order, and the table properties (except the SDK's own {@code transforms.*}
 * bookkeeping).
 *
 * <p>A build changes these only through its staged table, which holds its changes back until it
 * publishes ({@link StagedShape}). The publisher compares the shape before and after the run to catch a
 * change made around the build (someone's {@code ALTER TABLE}, the Iceberg API on the catalog's own
 * table): publishing over it would undo it, so the build fails instead and leaves it as it is.
 *
 * @param schemaId the current schema's id
 * @param specId the default partition spec's id
 * @param sortOrderId the default sort order's id
 * @param properties the table properties, without {@code transforms.*}
 */
record TableShape(int schemaId, int specId, int sortOrderId, Map<String, String> properties) {

  private static final String OWN_PREFIX = "transforms.";

  TableShape {
    properties = Map.copyOf(properties);
  }

  /** The shape of a table as loaded. */
  static TableShape of(Table table) {
    Map<String, String> properties = new LinkedHashMap<>();
    table.properties().forEach((key, value) -> {
      if (!key.startsWith(OWN_PREFIX)) {
        properties.put(key, value);
      }
    });
    return new TableShape(table.schema().schemaId(), table.spec().specId(), table.sortOrder().orderId(), properties);
  }

  /**
   * What differs in {@code now} from this shape, one line per difference.
   *
   * @param table the table the shapes belong to, to describe schemas
   * @param now the shape after the run
   * @return the differences; empty if none
   */
  List<String> differences(Table table, TableShape now) {
    List<String> lines = new ArrayList<>();
    if (schemaId != now.schemaId) {
      lines.add("schema: " + describe(table, schemaId) + " became " + describe(table, now.schemaId));
    }
    if (specId != now.specId) {
      lines.add("partition spec: " + table.specs().get(specId) + " became " + table.specs().get(now.specId));
    }
    if (sortOrderId != now.sortOrderId) {
      lines.add("sort order: " + table.sortOrders().get(sortOrderId) + " became " + table.sortOrders().get(now.sortOrderId));
    }
    Set<String> keys = new HashSet<>(properties.keySet());
    keys.addAll(now.properties.keySet());
    keys.stream().sorted().forEach(key -> {
      String before = properties.get(key);
      String after = now.properties.get(key);
      if (!Objects.equals(before, after)) {
        lines.add("property " + key + ": " + (before == null ? "(unset)" : before) + " became "
            + (after == null ? "(unset)" : after));
      }
    });
    return lines;
  }

  private static String describe(Table table, int schemaId) {
    return table.schemas().containsKey(schemaId)
        ? "columns " + table.schemas().get(schemaId).columns().stream().map(c -> c.name() + " " + c.type()).toList()
        : "schema " + schemaId;
  }
}
