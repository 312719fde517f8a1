package dev.transforms.runtime.spi;

import dev.transforms.api.TransformsException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.util.Tasks;
import org.apache.iceberg.util.ThreadPools;

/**
 * The check every commit the SDK makes runs before it commits: each data and delete file the commit
 * adds is there, with the size the commit records, and is named once. A commit that named a file that is
 * not there (deleted by a failed rewrite, never written, overwritten by another file of the same name)
 * would succeed and leave a table whose every later read fails, or reads other rows; this check fails
 * the commit instead, naming the file, and the table stays as it was.
 *
 * <p>A file is checked by asking the table's {@code FileIO} for its length: a file-system call for a
 * local file, one {@code HEAD} request on object storage. Files are checked one after another on local
 * storage and several at once elsewhere, on Iceberg's worker pool.
 */
public final class CommittedFiles {

  /**
   * The snapshot summary property that says the SDK checked the snapshot's files right before it
   * committed it, so that a publication need not read that snapshot's manifests to check them again.
   */
  public static final String CHECKED = "transforms.files-checked";

  /** Files on object storage checked one by one up to this many; more go to the worker pool. */
  private static final int SEQUENTIAL_REMOTE_FILES = 2;

  private CommittedFiles() {}

  /**
   * Checks the files a commit to a table adds, and marks the snapshot it commits as checked
   * ({@link #CHECKED}): what each of the SDK's own commits calls right before {@code commit()}.
   *
   * @param update the commit, not yet committed
   * @param table the table committed to
   * @param files the data and delete files the commit adds
   * @throws TransformsException as {@link #requirePresent(Table, Collection)}
   */
  public static void check(SnapshotUpdate<?> update, Table table, Collection<? extends ContentFile<?>> files) {
    requirePresent(table, files);
    update.set(CHECKED, "true");
  }

  /**
   * Checks the files a commit to a table adds.
   *
   * @param table the table committed to, for its name and {@code FileIO}
   * @param files the data and delete files the commit adds
   * @throws TransformsException naming the table and the first file found missing, of another size, or
   *     named twice
   */
  public static void requirePresent(Table table, Collection<? extends ContentFile<?>> files) {
    requirePresent(table.name(), table.io(), files);
  }

  /**
   * Checks the files a commit adds.
   *
   * @param tableName the table's name, for the error
   * @param io reads the files
   * @param files the data and delete files the commit adds
   * @throws TransformsException naming the table and the first file found missing, of another size, or
   *     named twice
   */
  public static void requirePresent(String tableName, FileIO io, Collection<? extends ContentFile<?>> files) {
    if (files.isEmpty()) {
      return;
    }
    // Deletion vectors of one commit share a Puffin file, each at its own offset: one entry, one check.
    Map<String, ContentFile<?>> byLocation = new LinkedHashMap<>();
    Set<String> seen = new HashSet<>();
    for (ContentFile<?> file : files) {
      if (!seen.add(key(file))) {
        throw refused(tableName, file, "is named twice among the files it adds");
      }
      ContentFile<?> other = byLocation.putIfAbsent(file.location(), file);
      if (other != null && (offset(file) == null || other.fileSizeInBytes() != file.fileSizeInBytes())) {
        throw refused(tableName, file, "is named twice among the files it adds");
      }
    }
    Map<String, String> problems = new ConcurrentHashMap<>();
    List<ContentFile<?>> ordered = new ArrayList<>(byLocation.values());
    boolean local = ordered.stream().allMatch(f -> isLocal(f.location()));
    if (local || ordered.size() <= SEQUENTIAL_REMOTE_FILES) {
      for (ContentFile<?> file : ordered) {
        problem(io, file).ifPresent(p -> problems.put(file.location(), p));
        if (!problems.isEmpty()) {
          break;
        }
      }
    } else {
      Tasks.foreach(ordered)
          .executeWith(ThreadPools.getWorkerPool())
          .run(file -> problem(io, file).ifPresent(p -> problems.put(file.location(), p)));
    }
    for (ContentFile<?> file : ordered) { // the first in the commit's order, whichever thread found it
      String problem = problems.get(file.location());
      if (problem != null) {
        throw refused(tableName, file, problem);
      }
    }
  }

  /**
   * The data and delete files that the snapshots after {@code base} up to {@code head} added and that
   * {@code head} still holds, following {@code head}'s parents: what a fast-forward from {@code base} to
   * {@code head} brings, except the files of snapshots the SDK checked when it committed them
   * ({@link #CHECKED}). Only the manifests of the other snapshots are read.
   *
   * @param table the table holding the snapshots
   * @param head the newest snapshot
   * @param base the snapshot to stop at (not included); null to follow the parents to the first
   * @return the files, oldest snapshot's first
   */
  public static List<ContentFile<?>> addedBetween(Table table, long head, Long base) {
    Deque<Snapshot> range = new ArrayDeque<>();
    for (Snapshot s = table.snapshot(head); s != null && (base == null || s.snapshotId() != base);
        s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
      range.addFirst(s);
    }
    Map<String, ContentFile<?>> live = new LinkedHashMap<>();
    for (Snapshot s : range) {
      if (s.summary() != null && "true".equals(s.summary().get(CHECKED))) {
        continue;
      }
      SnapshotChanges changes = SnapshotChanges.builderFor(table).snapshot(s).build();
      changes.removedDataFiles().forEach(f -> live.remove(key(f)));
      changes.removedDeleteFiles().forEach(f -> live.remove(key(f)));
      changes.addedDataFiles().forEach(f -> live.put(key(f), f));
      changes.addedDeleteFiles().forEach(f -> live.put(key(f), f));
    }
    return new ArrayList<>(live.values());
  }

  /** A file's identity in a commit: its location, and its offset for a deletion vector in a shared file. */
  private static String key(ContentFile<?> file) {
    Long offset = offset(file);
    return offset == null ? file.location() : file.location() + "#" + offset;
  }

  private static Long offset(ContentFile<?> file) {
    return file instanceof DeleteFile delete ? delete.contentOffset() : null;
  }

  /** What is wrong with one file, or empty when it is there with its size. */
  private static Optional<String> problem(FileIO io, ContentFile<?> file) {
    long length;
    try {
      length = io.newInputFile(file.location()).getLength();
    } catch (RuntimeException e) {
      return Optional.of("is missing (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
    }
    if (length != file.fileSizeInBytes()) {
      return Optional.of("is " + length + " bytes, and the commit records " + file.fileSizeInBytes());
    }
    return Optional.empty();
  }

  private static boolean isLocal(String location) {
    return location.startsWith("/") || location.toLowerCase(Locale.ROOT).startsWith("file:");
  }

  private static TransformsException refused(String tableName, ContentFile<?> file, String problem) {
    String kind = file.content() == FileContent.DATA ? "data file" : "delete file";
    return new TransformsException("Cannot commit to table " + tableName + ": the " + kind + " " + file.location()
        + " that the commit adds " + problem + ". Nothing was committed; the table is as it was.");
  }
}
