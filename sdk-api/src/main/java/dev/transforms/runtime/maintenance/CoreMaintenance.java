package dev.transforms.runtime.maintenance;

import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/** Maintenance steps done with Iceberg core alone, shared by the engines. */
final class CoreMaintenance {
  private CoreMaintenance() {}

  /** Rewrites the current snapshot's data manifests, one group per partition; returns how many were replaced. */
  static int rewriteManifests(Table table) {
    table.refresh();
    if (table.currentSnapshot() == null) {
      return 0;
    }
    Map<Integer, PartitionSpec> specs = table.specs();
    table.rewriteManifests()
        .clusterBy(file -> file.specId() + "/" + specs.get(file.specId()).partitionToPath(file.partition()))
        .commit();
    Snapshot snapshot = table.currentSnapshot();
    return Integer.parseInt(snapshot.summary().getOrDefault("manifests-replaced", "0"));
  }
}
