package dev.transforms.runtime.internal.publish;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;

/**
 * The table-level metadata of an output that a build must not change behind its staging branch: the
 * current schema, the default partition spec and sort order, and the table properties (except the
 * SDK's own {@code transforms.*} bookkeeping).
 *
 * <p>Iceberg keeps these per table, not per branch: a schema change is visible on {@code main} the
 * moment it commits. So the engines refuse such changes on outputs that existed before the run, and
 * the publisher compares the shape before and after the run to catch any path they did not see (a
 * write with schema merging, the Iceberg API on the base table), failing the build and putting the
 * shape back.
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

  /**
   * Puts a table's schema, spec, sort order and properties back to this shape, in one metadata commit
   * that changes nothing else (data, snapshots and branches stay). Does nothing if the table already
   * has this shape.
   *
   * @param table the table
   */
  void restore(Table table) {
    table.refresh();
    if (TableShape.of(table).equals(this)) {
      return;
    }
    TableOperations ops = ((HasTableOperations) table).operations();
    TableMetadata base = ops.refresh();
    TableMetadata.Builder builder = TableMetadata.buildFrom(base);
    if (base.currentSchemaId() != schemaId) {
      builder.setCurrentSchema(schemaId);
    }
    if (base.defaultSpecId() != specId) {
      builder.setDefaultPartitionSpec(specId);
    }
    if (base.defaultSortOrderId() != sortOrderId) {
      builder.setDefaultSortOrder(sortOrderId);
    }
    Set<String> removed = new HashSet<>();
    base.properties().forEach((key, value) -> {
      if (!key.startsWith(OWN_PREFIX) && !properties.containsKey(key)) {
        removed.add(key);
      }
    });
    Map<String, String> changed = new LinkedHashMap<>();
    properties.forEach((key, value) -> {
      if (!value.equals(base.properties().get(key))) {
        changed.put(key, value);
      }
    });
    if (!removed.isEmpty()) {
      builder.removeProperties(removed);
    }
    if (!changed.isEmpty()) {
      builder.setProperties(changed);
    }
    ops.commit(base, builder.build());
    table.refresh();
  }
}
