package dev.transforms.runtime.internal.publish;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.iceberg.TableMetadata;

/**
 * The table-level changes a running build made to an existing output, held back until it publishes:
 * the schema, partition spec and sort order its writes use, and its property changes.
 *
 * <p>Iceberg keeps these per table, not per branch, so the build cannot commit them where readers of
 * {@code main} would see them. It commits the new schemas, specs and sort orders as additions that no
 * reader uses (so that the snapshots on its staging branch can name them), and records here which of
 * them are current for the build, as the table property {@code transforms.shape.BUILD}. The staged
 * table ({@link StagedShapeOperations}) shows the build its shape; the publishing commit makes it the
 * table's; a discard or the recovery of a dead build removes the property and the additions no
 * snapshot uses.
 *
 * @param schemaId the current schema for the build
 * @param specId the default partition spec for the build
 * @param sortOrderId the default sort order for the build
 * @param set properties the build sets (other than the SDK's own {@code transforms.*})
 * @param removed properties the build removes
 * @param addedSchemas schema ids this build added to the table
 * @param addedSpecs partition spec ids this build added
 * @param addedSortOrders sort order ids this build added
 */
record StagedShape(int schemaId, int specId, int sortOrderId, Map<String, String> set, Set<String> removed,
    Set<Integer> addedSchemas, Set<Integer> addedSpecs, Set<Integer> addedSortOrders) {

  /** Prefix of the property that holds a build's staged shape. */
  static final String PREFIX = StagingMarks.SHAPE_PREFIX;
  /** Prefix of the SDK's own properties, which are bookkeeping and never part of a shape. */
  static final String OWN_PREFIX = "transforms.";

  StagedShape {
    set = Map.copyOf(new TreeMap<>(set));
    removed = Set.copyOf(new TreeSet<>(removed));
    addedSchemas = Set.copyOf(addedSchemas);
    addedSpecs = Set.copyOf(addedSpecs);
    addedSortOrders = Set.copyOf(addedSortOrders);
  }

  /**
   * The property key of a build's shape.
   *
   * @param buildId the build
   * @return the key
   */
  static String key(String buildId) {
    return PREFIX + buildId;
  }

  /** The shape a table has on its own: what a build that changed nothing stages. */
  static StagedShape of(TableMetadata table) {
    return new StagedShape(table.currentSchemaId(), table.defaultSpecId(), table.defaultSortOrderId(), Map.of(),
        Set.of(), Set.of(), Set.of(), Set.of());
  }

  /**
   * The shape a build staged on a table, if it staged one.
   *
   * @param table the table's metadata
   * @param buildId the build
   * @return the shape; empty when the build changed nothing beyond rows (or its mark is unreadable)
   */
  static Optional<StagedShape> staged(TableMetadata table, String buildId) {
    return decode(table.properties().get(key(buildId)));
  }

  /** Whether this shape leaves the table as it is and added nothing to it. */
  boolean isNoChangeTo(TableMetadata table) {
    return equals(of(table));
  }

  /**
   * The table's metadata as this shape shows it: its current schema, spec, sort order and properties,
   * with nothing else changed. The result keeps the table's metadata location and carries no pending
   * changes, so that a writer's commit built on it lists only the writer's own changes.
   *
   * @param table the table's committed metadata
   * @return the metadata the build sees
   */
  TableMetadata overlay(TableMetadata table) {
    if (isNoChangeTo(table) || !appliesTo(table)) {
      return table;
    }
    TableMetadata.Builder builder = TableMetadata.buildFrom(table);
    applyTo(builder, table);
    builder.discardChanges();
    if (table.metadataFileLocation() != null) {
      builder.withMetadataLocation(table.metadataFileLocation());
    }
    return builder.build();
  }

  /** Whether the table still has this shape's schema, spec and sort order. */
  boolean appliesTo(TableMetadata table) {
    return table.schemasById().containsKey(schemaId) && table.specsById().containsKey(specId)
        && table.sortOrdersById().containsKey(sortOrderId);
  }

  /**
   * Adds to a metadata update what makes this shape the table's: current schema, default spec and
   * sort order, property changes.
   *
   * @param builder the update, built from {@code table}
   * @param table the metadata the update starts from
   */
  void applyTo(TableMetadata.Builder builder, TableMetadata table) {
    if (table.currentSchemaId() != schemaId) {
      builder.setCurrentSchema(schemaId);
    }
    if (table.defaultSpecId() != specId) {
      builder.setDefaultPartitionSpec(specId);
    }
    if (table.defaultSortOrderId() != sortOrderId) {
      builder.setDefaultSortOrder(sortOrderId);
    }
    Map<String, String> changed = new LinkedHashMap<>();
    set.forEach((key, value) -> {
      if (!value.equals(table.properties().get(key))) {
        changed.put(key, value);
      }
    });
    if (!changed.isEmpty()) {
      builder.setProperties(changed);
    }
    Set<String> gone = removed.stream().filter(table.properties()::containsKey).collect(Collectors.toSet());
    if (!gone.isEmpty()) {
      builder.removeProperties(gone);
    }
  }

  /**
   * The shape a writer asked for: its metadata's schema, spec, sort order and properties against the
   * table's committed metadata, with this shape's additions and the writer's new ones.
   *
   * @param committed the table's committed metadata the writer's changes are applied to
   * @param base the metadata the writer started from (as this build saw the table)
   * @param wanted the writer's metadata
   * @return the new staged shape
   */
  StagedShape followedBy(TableMetadata committed, TableMetadata base, TableMetadata wanted) {
    Map<String, String> setNow = new LinkedHashMap<>();
    Set<String> removedNow = new LinkedHashSet<>();
    Map<String, String> own = ownProperties(wanted.properties());
    own.forEach((key, value) -> {
      if (!value.equals(committed.properties().get(key))) {
        setNow.put(key, value);
      }
    });
    ownProperties(committed.properties()).keySet().forEach(key -> {
      if (!own.containsKey(key)) {
        removedNow.add(key);
      }
    });
    return new StagedShape(wanted.currentSchemaId(), wanted.defaultSpecId(), wanted.defaultSortOrderId(), setNow,
        removedNow, union(addedSchemas, newKeys(base.schemasById().keySet(), wanted.schemasById().keySet())),
        union(addedSpecs, newKeys(base.specsById().keySet(), wanted.specsById().keySet())),
        union(addedSortOrders, newKeys(base.sortOrdersById().keySet(), wanted.sortOrdersById().keySet())));
  }

  private static Map<String, String> ownProperties(Map<String, String> properties) {
    Map<String, String> own = new LinkedHashMap<>();
    properties.forEach((key, value) -> {
      if (!key.startsWith(OWN_PREFIX)) {
        own.put(key, value);
      }
    });
    return own;
  }

  private static Set<Integer> newKeys(Set<Integer> before, Set<Integer> after) {
    Set<Integer> added = new LinkedHashSet<>(after);
    added.removeAll(before);
    return added;
  }

  private static Set<Integer> union(Set<Integer> a, Set<Integer> b) {
    Set<Integer> all = new LinkedHashSet<>(a);
    all.addAll(b);
    return all;
  }

  /**
   * The shape as stored in the table property.
   *
   * @return one line
   */
  String encode() {
    return "schema=" + schemaId + ";spec=" + specId + ";sort-order=" + sortOrderId
        + ";added-schemas=" + ids(addedSchemas) + ";added-specs=" + ids(addedSpecs)
        + ";added-sort-orders=" + ids(addedSortOrders)
        + ";set=" + set.entrySet().stream().map(e -> escape(e.getKey()) + "=" + escape(e.getValue()))
            .collect(Collectors.joining("&"))
        + ";removed=" + removed.stream().map(StagedShape::escape).collect(Collectors.joining("&"));
  }

  /**
   * Reads a stored shape.
   *
   * @param encoded the property's value, possibly null
   * @return the shape, or empty when missing or unreadable
   */
  static Optional<StagedShape> decode(String encoded) {
    if (encoded == null) {
      return Optional.empty();
    }
    Map<String, String> fields = new LinkedHashMap<>();
    for (String part : encoded.split(";", -1)) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        fields.put(part.substring(0, eq), part.substring(eq + 1));
      }
    }
    try {
      Map<String, String> set = new LinkedHashMap<>();
      for (String pair : parts(fields.get("set"), "&")) {
        int eq = pair.indexOf('=');
        set.put(unescape(pair.substring(0, eq)), unescape(pair.substring(eq + 1)));
      }
      Set<String> removed = new LinkedHashSet<>();
      parts(fields.get("removed"), "&").forEach(key -> removed.add(unescape(key)));
      return Optional.of(new StagedShape(Integer.parseInt(fields.get("schema")), Integer.parseInt(fields.get("spec")),
          Integer.parseInt(fields.get("sort-order")), set, removed, parseIds(fields.get("added-schemas")),
          parseIds(fields.get("added-specs")), parseIds(fields.get("added-sort-orders"))));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Set<String> parts(String text, String separator) {
    Set<String> parts = new LinkedHashSet<>();
    if (text != null && !text.isEmpty()) {
      for (String part : text.split(java.util.regex.Pattern.quote(separator))) {
        parts.add(part);
      }
    }
    return parts;
  }

  private static String ids(Set<Integer> ids) {
    return ids.stream().sorted().map(String::valueOf).collect(Collectors.joining(","));
  }

  private static Set<Integer> parseIds(String text) {
    Set<Integer> ids = new LinkedHashSet<>();
    parts(text, ",").forEach(id -> ids.add(Integer.parseInt(id.trim())));
    return ids;
  }

  private static String escape(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static String unescape(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }
}
