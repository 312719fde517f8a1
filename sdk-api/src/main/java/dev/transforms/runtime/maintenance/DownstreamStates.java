package dev.transforms.runtime.maintenance;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
    for (CatalogTables.Found table : CatalogTables.all(catalogs)) {
      Map<String, String> properties = table.table().properties();
      String value = properties.get(key);
      if (value == null || value.equals(IncrementalState.NO_SNAPSHOT)) {
        continue;
      }
      try {
        found.add(new Dependent(table.path(), properties.getOrDefault(IncrementalState.TRANSFORM, "?"),
            Long.parseLong(value)));
      } catch (NumberFormatException e) {
        // an unreadable state is no state: its transform rebuilds in full anyway
      }
    }
    return found;
  }
}
