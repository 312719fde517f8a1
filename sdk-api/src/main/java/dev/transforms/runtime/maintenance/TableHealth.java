package dev.transforms.runtime.maintenance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.PropertyUtil;

/**
 * How a table's files, deletes, snapshots and metadata stand, with what to run about it: what
 * {@code transforms health} prints.
 *
 * @param path the table's dataset path
 * @param dataFiles live data files of {@code main}
 * @param dataBytes their total size
 * @param targetFileBytes the table's {@code write.target-file-size-bytes}
 * @param smallFiles data files under {@link #SMALL_SHARE} of the target size
 * @param deleteFiles delete files that apply to live data files
 * @param rows rows in the live data files, deleted ones included
 * @param deletedRows rows that position deletes and deletion vectors remove, plus the number of
 *     equality-delete keys (an estimate: a key may remove several rows, or none)
 * @param snapshots snapshots of the table, every branch and tag included
 * @param manifests manifests of the current snapshot
 * @param metadataBytes the current metadata file, manifest list and manifests, in bytes
 * @param metadataFiles metadata files the table still tracks (the current one and the previous ones kept)
 * @param oldestSnapshotAge the age of the oldest snapshot, zero for a table without one
 * @param recommendations what to do, each with its reason and the exact command
 */
public record TableHealth(
    String path,
    long dataFiles,
    long dataBytes,
    long targetFileBytes,
    long smallFiles,
    long deleteFiles,
    long rows,
    long deletedRows,
    int snapshots,
    int manifests,
    long metadataBytes,
    int metadataFiles,
    Duration oldestSnapshotAge,
    List<String> recommendations) {

  /** A data file under this share of the target size counts as small. */
  public static final double SMALL_SHARE = 0.75;
  /** Compaction is recommended from this share of small files (and at least two of them). */
  public static final double SMALL_FILES_LIMIT = 0.3;
  /** Compaction is recommended from this share of deleted rows. */
  public static final double DELETED_ROWS_LIMIT = 0.05;
  /** Compaction is recommended from this many delete files. */
  public static final int DELETE_FILES_LIMIT = 10;
  /** Expiry is recommended from this many snapshots. */
  public static final int SNAPSHOTS_LIMIT = 100;
  /** A manifest rewrite is recommended from this many manifests. */
  public static final int MANIFESTS_LIMIT = 50;

  /**
   * Copies the list so the record stays immutable.
   *
   * @param path the path
   * @param dataFiles data files
   * @param dataBytes their size
   * @param targetFileBytes the target size
   * @param smallFiles small data files
   * @param deleteFiles delete files
   * @param rows rows
   * @param deletedRows deleted rows
   * @param snapshots snapshots
   * @param manifests manifests
   * @param metadataBytes metadata size
   * @param metadataFiles metadata files tracked
   * @param oldestSnapshotAge age of the oldest snapshot
   * @param recommendations what to do
   */
  public TableHealth {
    recommendations = List.copyOf(recommendations);
  }

  /**
   * Measures a table's current snapshot of {@code main}.
   *
   * @param path the table's dataset path, for the commands recommended
   * @param table the table
   * @return its health
   */
  public static TableHealth of(String path, Table table) {
    table.refresh();
    long target = PropertyUtil.propertyAsLong(table.properties(), TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    long files = 0;
    long bytes = 0;
    long small = 0;
    long rows = 0;
    Map<String, DeleteFile> deletes = new HashMap<>();
    Snapshot current = table.currentSnapshot();
    if (current != null) {
      try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
        for (FileScanTask task : tasks) {
          files++;
          bytes += task.file().fileSizeInBytes();
          rows += task.file().recordCount();
          if (task.file().fileSizeInBytes() < target * SMALL_SHARE) {
            small++;
          }
          task.deletes().forEach(d -> deletes.putIfAbsent(d.location(), d));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot plan a scan of " + path, e);
      }
    }
    long deleted = 0;
    for (DeleteFile delete : deletes.values()) {
      deleted += delete.recordCount(); // deleted positions, or equality keys
    }
    int snapshots = 0;
    long oldest = Long.MAX_VALUE;
    for (Snapshot snapshot : table.snapshots()) {
      snapshots++;
      oldest = Math.min(oldest, snapshot.timestampMillis());
    }
    int manifests = 0;
    long metadataBytes = 0;
    int metadataFiles = 1;
    if (table instanceof HasTableOperations operations) {
      TableMetadata metadata = operations.operations().current();
      metadataFiles += metadata.previousFiles().size();
      if (metadata.metadataFileLocation() != null) {
        metadataBytes += table.io().newInputFile(metadata.metadataFileLocation()).getLength();
      }
    }
    if (current != null) {
      List<ManifestFile> all = current.allManifests(table.io());
      manifests = all.size();
      for (ManifestFile manifest : all) {
        metadataBytes += manifest.length();
      }
      if (current.manifestListLocation() != null) {
        metadataBytes += table.io().newInputFile(current.manifestListLocation()).getLength();
      }
    }
    Duration age = oldest == Long.MAX_VALUE ? Duration.ZERO
        : Duration.ofMillis(Math.max(0, System.currentTimeMillis() - oldest));

    List<String> advice = new ArrayList<>();
    double smallShare = files == 0 ? 0 : (double) small / files;
    double deletedShare = rows == 0 ? 0 : (double) deleted / rows;
    if (small >= 2 && smallShare >= SMALL_FILES_LIMIT) {
      advice.add(String.format(Locale.ROOT, "%d of %d data files are under %d%% of the target size: every read "
          + "opens them all; compact them: transforms maintain %s --compact", small, files,
          Math.round(SMALL_SHARE * 100), path));
    }
    if (!deletes.isEmpty() && (deletedShare >= DELETED_ROWS_LIMIT || deletes.size() >= DELETE_FILES_LIMIT)) {
      advice.add(String.format(Locale.ROOT, "%s %s %.1f%% of the rows: every read applies %s "
          + "again; compaction writes the live rows and drops %s: transforms maintain %s --compact",
          dev.transforms.runtime.Counts.of(deletes.size(), "delete file"), deletes.size() == 1 ? "removes" : "remove",
          deletedShare * 100, deletes.size() == 1 ? "it" : "them", deletes.size() == 1 ? "it" : "them", path));
    }
    boolean oldSnapshots = snapshots > 1 && age.compareTo(MaintenanceOptions.DEFAULT_OLDER_THAN) > 0;
    if (snapshots >= SNAPSHOTS_LIMIT || oldSnapshots) {
      advice.add(String.format(Locale.ROOT, "%d snapshots, the oldest %s old: each keeps its files; expire "
          + "those older than %d days (branches, tags and the last one stay): transforms maintain %s --expire",
          snapshots, dev.transforms.runtime.Counts.of(age.toDays(), "day"),
          MaintenanceOptions.DEFAULT_OLDER_THAN.toDays(), path));
    }
    if (manifests >= MANIFESTS_LIMIT) {
      advice.add(String.format(Locale.ROOT, "%d manifests: planning reads them all; regroup them: transforms "
          + "maintain %s --rewrite-manifests", manifests, path));
    }
    boolean pruned = PropertyUtil.propertyAsBoolean(table.properties(),
        TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED_DEFAULT);
    if (!pruned && metadataFiles > TableProperties.METADATA_PREVIOUS_VERSIONS_MAX_DEFAULT) {
      advice.add(String.format(Locale.ROOT, "%d metadata files are tracked and none is ever deleted; let commits "
          + "delete the old ones: transforms maintain %s --metadata-delete-after-commit true", metadataFiles, path));
    }
    return new TableHealth(path, files, bytes, target, small, deletes.size(), rows, deleted, snapshots, manifests,
        metadataBytes, metadataFiles, age, advice);
  }

  /**
   * The share of data files that are small.
   *
   * @return between 0 and 1
   */
  public double smallShare() {
    return dataFiles == 0 ? 0 : (double) smallFiles / dataFiles;
  }

  /**
   * The share of rows that deletes remove.
   *
   * @return between 0 and 1 (equality deletes counted by key)
   */
  public double deletedShare() {
    return rows == 0 ? 0 : Math.min(1.0, (double) deletedRows / rows);
  }

  /**
   * The report's lines, as {@code transforms health} prints them.
   *
   * @return the lines
   */
  public List<String> lines() {
    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, "data files: %d, %s in all, average %s; %d small (%.0f%%) against a "
        + "target of %s", dataFiles, bytes(dataBytes), bytes(dataFiles == 0 ? 0 : dataBytes / dataFiles), smallFiles,
        smallShare() * 100, bytes(targetFileBytes)));
    lines.add(String.format(Locale.ROOT, "delete files: %d, removing %.1f%% of %d rows", deleteFiles,
        deletedShare() * 100, rows));
    lines.add(String.format(Locale.ROOT, "snapshots: %d, the oldest %s old", snapshots, age(oldestSnapshotAge)));
    lines.add(String.format(Locale.ROOT, "manifests: %d; metadata: %s, %d metadata files tracked", manifests,
        bytes(metadataBytes), metadataFiles));
    if (recommendations.isEmpty()) {
      lines.add("recommendations: none");
    } else {
      lines.add("recommendations:");
      recommendations.forEach(r -> lines.add("  - " + r));
    }
    return lines;
  }

  /**
   * One line for {@code transforms show}.
   *
   * @return the summary
   */
  public String summary() {
    return String.format(Locale.ROOT, "%s (%.0f%% small), %s (%.1f%% of rows), %s, %s; %s",
        dev.transforms.runtime.Counts.of(dataFiles, "data file"), smallShare() * 100, dev.transforms.runtime.Counts.of(deleteFiles, "delete file"),
        deletedShare() * 100, dev.transforms.runtime.Counts.of(snapshots, "snapshot"), dev.transforms.runtime.Counts.of(manifests, "manifest"),
        recommendations.isEmpty() ? "nothing to do"
            : dev.transforms.runtime.Counts.of(recommendations.size(), "recommendation") + ": transforms health " + path);
  }

  private static String bytes(long bytes) {
    if (bytes >= 1L << 30) {
      return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
    if (bytes >= 1L << 20) {
      return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
    }
    if (bytes >= 1L << 10) {
      return String.format(Locale.ROOT, "%.1f KiB", bytes / (double) (1L << 10));
    }
    return bytes + " B";
  }

  private static String age(Duration age) {
    if (age.toDays() >= 1) {
      return dev.transforms.runtime.Counts.of(age.toDays(), "day");
    }
    if (age.toHours() >= 1) {
      return dev.transforms.runtime.Counts.of(age.toHours(), "hour");
    }
    return dev.transforms.runtime.Counts.of(age.toMinutes(), "minute");
  }
}
