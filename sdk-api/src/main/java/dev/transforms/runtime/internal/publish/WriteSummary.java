package dev.transforms.runtime.internal.publish;

import dev.transforms.runtime.OutputWrites;
import dev.transforms.runtime.internal.schema.SchemaDiff;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;

/**
 * What a publication wrote to one output, for the build report: rows added and deleted, files, snapshots
 * and the published snapshot, summed over the snapshot summaries of the run's snapshots; and how its
 * schema changed.
 */
final class WriteSummary {

  private WriteSummary() {}

  /** What the publication wrote to an output; remembers what the output became on it for lineage. */
  static OutputWrites of(RunOutput entry) {
    String identifier = entry.output.resolved().toString();
    if (!entry.published) {
      // An output the transform never wrote, new or (in a full build) existing: nothing was published.
      return new OutputWrites(entry.output.path(), identifier, 0, 0, 0, 0,
          entry.base == null ? OptionalLong.empty() : OptionalLong.of(entry.base), false, List.of(), false);
    }
    TableMetadata metadata = entry.created != null ? entry.created.current()
        : ((HasTableOperations) entry.table).operations().current();
    long added = 0;
    long deleted = 0;
    long files = 0;
    long bytes = 0;
    int count = 0;
    Snapshot snapshot = metadata.currentSnapshot();
    while (snapshot != null && (entry.base == null || snapshot.snapshotId() != entry.base)) {
      Map<String, String> summary = snapshot.summary();
      added += PublishedMetadata.number(summary, "added-records");
      deleted += PublishedMetadata.number(summary, "deleted-records");
      files += PublishedMetadata.number(summary, "added-data-files");
      bytes += PublishedMetadata.number(summary, "added-files-size");
      count++;
      snapshot = snapshot.parentId() == null ? null : metadata.snapshot(snapshot.parentId());
    }
    Snapshot current = metadata.currentSnapshot();
    List<String> schemaChanges = entry.created != null ? List.of()
        : SchemaDiff.between(entry.baseSchema, metadata.schema()).describe();
    entry.summary = new OutputPublisher.Published(metadata.schema(), bytes);
    return new OutputWrites(entry.output.path(), identifier, added, deleted, files, count,
        current == null ? OptionalLong.empty() : OptionalLong.of(current.snapshotId()), entry.created != null,
        schemaChanges);
  }
}
