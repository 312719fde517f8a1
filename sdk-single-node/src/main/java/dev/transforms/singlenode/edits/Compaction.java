package dev.transforms.singlenode.edits;

import dev.transforms.runtime.maintenance.CompactionResult;
import dev.transforms.runtime.spi.CommittedFiles;
import dev.transforms.singlenode.internal.read.FileOrderedReads;
import dev.transforms.singlenode.internal.plan.RewritePlanner;
import dev.transforms.singlenode.internal.read.LiveRows;
import dev.transforms.singlenode.internal.threads.CallerRunsExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.SortOrderComparators;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Bin-pack compaction of a table's data files on a single node: the small files of each partition,
 * and every file with deletes, are read through {@link LiveRows} (so position deletes, deletion
 * vectors and equality deletes are applied) and written again as files of the table's target size.
 *
 * <p>One {@code replace} commit swaps them in, at the sequence number of the snapshot that was read,
 * and drops the delete files that applied only to rewritten files. The commit validates against every
 * snapshot committed since: an append meanwhile lands beside the compaction, while a delete of rows of
 * a rewritten file makes the compaction fail and remove the files it wrote, leaving the table as the
 * other writer left it.
 *
 * <p>When the table has a sort order, each partition's rows are written in that order (they are all
 * held in memory for it), for 50,000 rows or more on a second thread ({@link OverlappedWriter}).
 * Otherwise rows are written in the order of the files and of the rows in each; for 50,000 rows or
 * more the files are then read on two threads, each file's delete files with it, while the calling
 * thread encodes ({@link FileOrderedReads}), so that decoding and encoding overlap. Only files of the
 * table's current partition spec are rewritten; files of earlier specs stay.
 */
public final class Compaction {
  /** A file smaller than this share of the target size is small. */
  static final double SMALL_SHARE = 0.75;

  /** Threads that read the files of an unsorted table ahead of the one that encodes their rows. */
  private static final int READERS = 2;

  private final Table table;
  private final Snapshot start;
  private final List<List<FileScanTask>> groups;
  private final List<FileScanTask> chosen;
  private final List<DeleteFile> removableDeletes;

  private Compaction(Table table, Snapshot start, List<List<FileScanTask>> groups, List<DeleteFile> removableDeletes) {
    this.table = table;
    this.start = start;
    this.groups = groups;
    this.chosen = groups.stream().flatMap(List::stream).toList();
    this.removableDeletes = removableDeletes;
  }

  /**
   * Plans the compaction of a table's current snapshot of {@code main}.
   *
   * @param table the table
   * @return the plan, possibly with nothing to rewrite
   */
  public static Compaction plan(Table table) {
    table.refresh();
    Snapshot start = table.currentSnapshot();
    if (start == null) {
      return new Compaction(table, null, List.of(), List.of());
    }
    long target = PropertyUtil.propertyAsLong(table.properties(), TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    long small = (long) (target * SMALL_SHARE);
    PartitionSpec spec = table.spec();
    Map<String, List<FileScanTask>> groups = new LinkedHashMap<>();
    Map<String, DeleteFile> deleteFiles = new HashMap<>();
    Map<String, Set<String>> deleteUses = new HashMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(start.snapshotId()).planWith(CallerRunsExecutor.INSTANCE).planFiles()) {
      for (FileScanTask task : tasks) {
        for (DeleteFile delete : task.deletes()) {
          deleteFiles.putIfAbsent(delete.location(), delete);
          deleteUses.computeIfAbsent(delete.location(), l -> new HashSet<>()).add(task.file().location());
        }
        if (task.file().specId() != spec.specId()) {
          continue;
        }
        if (task.file().fileSizeInBytes() < small || !task.deletes().isEmpty()) {
          groups.computeIfAbsent(spec.partitionToPath(task.file().partition()), k -> new ArrayList<>()).add(task);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan the compaction of " + table.name(), e);
    }
    List<List<FileScanTask>> chosenGroups = new ArrayList<>();
    List<FileScanTask> chosen = new ArrayList<>();
    for (List<FileScanTask> group : groups.values()) {
      boolean withDeletes = group.stream().anyMatch(t -> !t.deletes().isEmpty());
      if (group.size() >= 2 || withDeletes) {
        chosenGroups.add(group);
        chosen.addAll(group);
      }
    }
    Set<String> rewritten = new HashSet<>();
    chosen.forEach(t -> rewritten.add(t.file().location()));
    List<DeleteFile> removable = new ArrayList<>();
    deleteUses.forEach((location, uses) -> {
      if (rewritten.containsAll(uses)) {
        removable.add(deleteFiles.get(location));
      }
    });
    return new Compaction(table, start, chosenGroups, removable);
  }

  /** Orders records of the read projection (generic values) by a sort order (on internal values). */
  private static Comparator<Record> comparator(Schema projection, SortOrder order) {
    Comparator<StructLike> internal = SortOrderComparators.forSchema(projection, order);
    InternalRecordWrapper left = new InternalRecordWrapper(projection.asStruct());
    InternalRecordWrapper right = new InternalRecordWrapper(projection.asStruct());
    return (a, b) -> internal.compare(left.wrap(a), right.wrap(b));
  }

  /**
   * The number of data files the plan rewrites.
   *
   * @return the count, 0 when there is nothing to compact
   */
  public int filesToRewrite() {
    return chosen.size();
  }

  /**
   * Writes the new files and commits them.
   *
   * @return what was rewritten
   */
  public CompactionResult run() {
    return run(null);
  }

  /**
   * Writes the new files and commits them, running a step just before the commit (tests use it to
   * commit a concurrent change).
   *
   * @param beforeCommit run after the files are written, before the commit; or null
   * @return what was rewritten
   * @throws org.apache.iceberg.exceptions.ValidationException if a concurrent commit deleted rows of a
   *     rewritten file; the files written are removed and the table is left as that commit left it
   */
  public CompactionResult run(Runnable beforeCommit) {
    if (chosen.isEmpty()) {
      return CompactionResult.NOTHING;
    }
    RewritePlanner.planCompaction(chosen.size());
    Schema schema = table.schema();
    boolean lineage = TableUtil.supportsRowLineage(table);
    List<Types.NestedField> columns = new ArrayList<>(schema.columns());
    if (lineage) {
      columns.add(MetadataColumns.ROW_ID);
      columns.add(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER);
    }
    columns.add(MetadataColumns.ROW_POSITION);
    Schema projection = new Schema(columns);
    long rows = 0;
    long total = chosen.stream().mapToLong(task -> task.file().recordCount()).sum();
    SortOrder order = table.sortOrder();
    boolean large = total >= OverlappedWriter.MIN_ROWS;
    // unsorted and large: files are read on two threads while this one encodes, in file order
    boolean readersAhead = large && !order.isSorted();
    // sorted and large: the sorted rows are encoded on a second thread
    try (EditFiles files = new EditFiles(table, schema, TableUtil.formatVersion(table), null, lineage);
        OverlappedWriter writer = new OverlappedWriter(files::writeKept, false, large && !readersAhead)) {
      boolean utf8 = files.takesUtf8Strings();
      for (List<FileScanTask> group : groups) {
        if (readersAhead) {
          rows += FileOrderedReads.read(group,
              task -> LiveRows.of(table.io(), schema, task, projection).records(false, utf8),
              files::writeKept, READERS);
          continue;
        }
        // a sorted table gets each partition's rows in its sort order, which takes them all in memory
        List<Record> sorted = order.isSorted() ? new ArrayList<>() : null;
        Consumer<Record> sink = sorted != null ? sorted::add : writer::writeOwned;
        for (FileScanTask task : group) {
          LiveRows live = LiveRows.of(table.io(), schema, task, projection);
          try (CloseableIterable<Record> records = live.records(false, utf8)) {
            for (Record record : records) {
              sink.accept(record);
              rows++;
            }
          } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + task.file().location(), e);
          }
        }
        if (sorted != null) {
          sorted.sort(comparator(projection, order));
          sorted.forEach(writer::writeOwned);
        }
      }
      writer.finish();
      EditFiles.Result written = files.finish();
      RewriteFiles rewrite = table.newRewrite()
          .validateFromSnapshot(start.snapshotId())
          .dataSequenceNumber(start.sequenceNumber())
          .scanManifestsWith(CallerRunsExecutor.INSTANCE);
      chosen.forEach(task -> rewrite.deleteFile(task.file()));
      written.dataFiles().forEach(rewrite::addFile);
      removableDeletes.forEach(rewrite::deleteFile);
      if (beforeCommit != null) {
        beforeCommit.run();
      }
      CommittedFiles.check(rewrite, table, written.dataFiles());
      try {
        rewrite.commit();
        files.keep();
      } catch (CommitStateUnknownException e) {
        files.keep(); // the commit may have succeeded: its files must stay
        throw e;
      }
      table.refresh();
      Snapshot committed = table.currentSnapshot();
      return new CompactionResult(chosen.size(), written.dataFiles().size(), removableDeletes.size(), rows,
          OptionalLong.of(committed.snapshotId()));
    }
  }
}
