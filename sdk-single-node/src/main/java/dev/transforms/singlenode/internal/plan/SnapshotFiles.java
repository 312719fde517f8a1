package dev.transforms.singlenode.internal.plan;

import dev.transforms.singlenode.internal.threads.CallerRunsExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The data files of a snapshot as a direct read takes them: their locations and sizes, in the order a
 * table scan plans them, and their rows, with the tasks of the files that have position deletes or a
 * deletion vector against them; or none, when a file has equality deletes against it or is not Parquet.
 *
 * <p>A snapshot never changes, so the answer is kept for the last {@value #KEPT} snapshots planned in
 * this JVM, each found by its table's UUID, its id and its manifest list, and reading a snapshot again
 * does not read its manifests again (3 to 7 ms for a table of one manifest, right after a garbage
 * collection, against a few microseconds). At most {@value #MOST_FILES} paths are kept in all, the
 * least recently used snapshots' answers going first, and snapshots of tables without a UUID are not
 * kept.
 */
final class SnapshotFiles {

  /**
   * The files of a snapshot a direct read can read.
   *
   * @param files the files, in scan order
   * @param fileRows the rows of each file, before deletes
   * @param rows the rows of every file, before deletes
   * @param deleted the tasks of the files with position deletes or a deletion vector, by file index
   */
  record Files(List<DirectScan.ScanFile> files, long[] fileRows, long rows, Map<Integer, FileScanTask> deleted) {
    Files {
      files = List.copyOf(files);
      deleted = Map.copyOf(deleted);
    }
  }

  /** How many snapshots' answers are kept. */
  static final int KEPT = 64;

  /** How many paths the kept answers hold at most, together (a few megabytes). */
  static final int MOST_FILES = 20_000;

  private record Key(String tableUuid, long snapshotId, String manifestList) {}

  /** The kept answers, the least recently used first; guarded by itself, as is {@link #keptFiles}. */
  private static final Map<Key, Optional<Files>> ANSWERS = new LinkedHashMap<>(16, 0.75f, true);

  private static int keptFiles;

  /** Snapshots whose manifests were read, for tests that must know whether an answer was kept. */
  private static final AtomicLong PLANNED = new AtomicLong();

  private SnapshotFiles() {}

  /**
   * The files of a snapshot, or empty when a direct read cannot take them.
   *
   * @throws IllegalArgumentException if the table has no such snapshot
   * @throws UncheckedIOException if a manifest cannot be read
   */
  static Optional<Files> of(Table table, long snapshotId) {
    Snapshot snapshot = existing(table, snapshotId);
    if (table.uuid() == null) {
      return plan(table, snapshotId);
    }
    Key key = new Key(table.uuid().toString(), snapshotId, snapshot.manifestListLocation());
    synchronized (ANSWERS) {
      Optional<Files> kept = ANSWERS.get(key);
      if (kept != null) {
        return kept;
      }
    }
    Optional<Files> planned = plan(table, snapshotId);
    int size = size(planned);
    if (size <= MOST_FILES) {
      synchronized (ANSWERS) {
        Optional<Files> replaced = ANSWERS.put(key, planned); // another thread planned it meanwhile
        keptFiles += size - (replaced == null ? 0 : size(replaced));
        for (var eldest = ANSWERS.values().iterator(); ANSWERS.size() > KEPT || keptFiles > MOST_FILES; ) {
          keptFiles -= size(eldest.next());
          eldest.remove();
        }
      }
    }
    return planned;
  }

  /**
   * The table's snapshot of that id.
   *
   * @throws IllegalArgumentException naming the id, if the table has no such snapshot
   */
  static Snapshot existing(Table table, long snapshotId) {
    Snapshot snapshot = table.snapshot(snapshotId);
    if (snapshot == null) {
      throw new IllegalArgumentException("Table " + table.name() + " has no snapshot " + snapshotId);
    }
    return snapshot;
  }

  private static int size(Optional<Files> answer) {
    return answer.map(files -> files.files().size()).orElse(0);
  }

  /** How many snapshots' answers are kept, and how many paths they hold. */
  static int[] kept() {
    synchronized (ANSWERS) {
      return new int[] {ANSWERS.size(), keptFiles};
    }
  }

  /** How many times this JVM read a snapshot's manifests here, rather than answering from what it kept. */
  static long planned() {
    return PLANNED.get();
  }

  private static Optional<Files> plan(Table table, long snapshotId) {
    TableScan scan = CallerRunsExecutor.planInCallerWhenSmall(table.newScan().useSnapshot(snapshotId));
    PLANNED.incrementAndGet();
    List<DirectScan.ScanFile> files = new ArrayList<>();
    List<Long> fileRows = new ArrayList<>();
    Map<Integer, FileScanTask> deleted = new java.util.HashMap<>();
    long rows = 0;
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      for (FileScanTask task : tasks) {
        if (task.file().format() != FileFormat.PARQUET
            || task.deletes().stream().anyMatch(d -> d.content() == FileContent.EQUALITY_DELETES)) {
          return Optional.empty();
        } else if (!task.deletes().isEmpty()) {
          deleted.put(files.size(), task);
        }
        files.add(DirectScan.ScanFile.of(task.file().location(), task.file().fileSizeInBytes()));
        fileRows.add(task.file().recordCount());
        rows += task.file().recordCount();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan the files of " + table.name() + " at snapshot " + snapshotId, e);
    }
    return Optional.of(new Files(files, fileRows.stream().mapToLong(Long::longValue).toArray(), rows, deleted));
  }
}
