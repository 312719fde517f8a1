package dev.transforms.singlenode.edits;

import dev.transforms.runtime.spi.CommitRetry;
import dev.transforms.runtime.spi.CommittedFiles;
import dev.transforms.singlenode.internal.plan.RewritePlanner;
import dev.transforms.singlenode.internal.threads.BackgroundThreads;
import dev.transforms.singlenode.internal.threads.CallerRunsExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.RowLevelOperationMode;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DataFileSet;
import org.apache.iceberg.util.DeleteFileSet;

/**
 * One row edit as an operation: applies a {@link RowChange} to a table in one commit, validated for
 * serializable isolation, and retries the whole change on conflicts. How candidate files change is
 * left to {@link CopyOnWriteRewrite} and {@link MergeOnReadDeletes}, as Iceberg leaves how a {@code
 * RowDelta} commits to its snapshot producers; every file is read through {@code LiveRows}, which
 * applies the file's existing deletes.
 *
 * <p>One attempt: take the head snapshot of the target branch; plan the data files that may hold
 * affected rows (partition and metrics pruning through the scan filter, then the change's own
 * per-file check); remove whole the files whose every row is affected; hand each other candidate
 * file to the write mode, which reads its live rows and asks the change which to drop; then
 *
 * <ul>
 *   <li>copy-on-write: the kept rows of every file that lost rows are in new files; commit an
 *       {@link OverwriteFiles} that replaces those files and adds the change's new rows;
 *   <li>merge-on-read: write position deletes (format v2), deletion vectors (v3; an existing vector
 *       of the same data file is merged into the new one and removed), or equality deletes, and
 *       commit a {@link RowDelta} with the change's new rows.
 * </ul>
 *
 * <p>Both commits validate from the starting snapshot with the change's conflict filter, against
 * concurrently added data files and delete files and removed data files, which is serializable
 * isolation. A {@link ValidationException} or {@link CommitFailedException} from the commit
 * discards the attempt's files and starts over from the new head, up to the attempt bound.
 */
record EditOperation(Table table, String branch, Map<String, String> snapshotProperties, int maxAttempts,
    Runnable beforeCommit, int copyBufferRows, RewritePlanner rewrites) {

  /**
   * What an applied change did.
   *
   * @param snapshotId the branch's head afterwards; null when nothing was committed to a table
   *     without snapshots
   */
  record Outcome(long rowsDeleted, long rowsAdded, Long snapshotId) {}

  /** The wait before a retry: between half and all of 200 ms, doubling up to 2 s. */
  private static final CommitRetry.Backoff BACKOFF = new CommitRetry.Backoff(200, 2_000, 0, true);

  /** Signals that a commit met a conflict and the attempt may be retried. */
  private static final class Conflict extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Conflict(RuntimeException cause) {
      super(cause);
    }
  }

  /** Applies the change with the given write mode, retrying on conflicts. */
  Outcome apply(RowChange change, RowLevelOperationMode mode) {
    return withRetries(change.operation(), () -> attempt(change, mode));
  }

  /** Appends rows: no scan, and no validation beyond Iceberg's own; retried like the others. */
  Outcome append(List<Record> rows) {
    return withRetries(
        "append",
        () -> {
          try (EditFiles files =
              new EditFiles(table, table.schema(), formatVersion(), null, false)) {
            rows.forEach(row -> files.writeNew(row, null));
            EditFiles.Result written = files.finish();
            AppendFiles append = table.newAppend();
            written.dataFiles().forEach(append::appendFile);
            commit(append, files);
            return new Outcome(0, rows.size(), headSnapshotId());
          }
        });
  }

  /**
   * Runs attempts until one returns, at most {@code maxAttempts}; each retry waits a little, with
   * jitter, and refreshes the table so that the next attempt starts from the new head.
   */
  private Outcome withRetries(String operation, Supplier<Outcome> attempt) {
    CommitRetry retry = new CommitRetry(maxAttempts, Conflict.class::isInstance, BACKOFF, table::refresh,
        (e, last) -> new IllegalStateException("Interrupted while waiting to retry a row edit", e));
    return retry.run(attempt, conflict -> {
      throw gaveUp(operation, (RuntimeException) conflict.getCause());
    });
  }

  private RowEditConflictException gaveUp(String operation, RuntimeException lastConflict) {
    return new RowEditConflictException(
        String.format(
            Locale.ROOT,
            "%s on table %s%s gave up after %d attempts: each commit conflicted with a concurrent"
                + " change to the rows or files it touched (last: %s). Nothing was committed; run"
                + " it again, or allow more attempts with RowEdits.withMaxAttempts",
            operation,
            table.name(),
            branch == null ? "" : " (branch " + branch + ")",
            maxAttempts,
            lastConflict.getMessage()),
        lastConflict);
  }

  private Outcome attempt(RowChange change, RowLevelOperationMode requestedMode) {
    Snapshot base = head();
    Schema schema = table.schema();
    int formatVersion = formatVersion();
    // format v1 has no delete files: merge-on-read falls back to copy-on-write
    boolean copyOnWrite = requestedMode == RowLevelOperationMode.COPY_ON_WRITE || formatVersion < 2;
    int[] equalityIds =
        !copyOnWrite && DeleteKind.of(table) == DeleteKind.EQUALITY
            ? change.equalityFieldIds()
            : null;
    change.reset(equalityIds != null);

    // rows moved to new files keep their lineage (v3): kept rows in copy-on-write, updated rows
    // unless equality deletes end their lineage
    boolean carryRowLineage =
        TableUtil.supportsRowLineage(table)
            && (copyOnWrite || (change.needsRowIds() && equalityIds == null));
    Schema projection = projection(schema, change, copyOnWrite, equalityIds, carryRowLineage);
    List<FileScanTask> tasks = plan(base, change);

    try (EditFiles files =
        new EditFiles(table, schema, formatVersion, equalityIds, carryRowLineage)) {
      CopyOnWriteRewrite rewrite =
          new CopyOnWriteRewrite(table.io(), schema, projection, change, files, copyBufferRows, rewrites);
      MergeOnReadDeletes marking =
          new MergeOnReadDeletes(
              table.io(), schema, projection, change, files.deletes(), equalityIds != null);
      List<DataFile> removedFiles = new ArrayList<>();
      List<DeleteFile> orphanedDeletes = new ArrayList<>();
      long rowsDeleted = 0;
      List<FileScanTask> rewritten = new ArrayList<>();
      for (FileScanTask task : tasks) {
        if (task.deletes().isEmpty() && change.affectsWholeFile(task)) {
          removedFiles.add(task.file());
          rowsDeleted += task.file().recordCount();
        } else if (copyOnWrite) {
          rewritten.add(task);
        } else {
          rowsDeleted += marking.markDeleted(task);
        }
      }
      long[] dropped = rewriteFiles(rewritten, rewrite, files);
      for (int i = 0; i < rewritten.size(); i++) {
        if (dropped[i] > 0) {
          removedFiles.add(rewritten.get(i).file());
          orphanedDeletes.addAll(CopyOnWriteRewrite.fileScopedPositionDeletes(rewritten.get(i)));
          rowsDeleted += dropped[i];
        }
      }

      PendingDeletes deletes = files.deletes();
      deletes.startPositionDeletes(); // written meanwhile on another thread
      int[] equalityColumns = equalityIds == null ? null : deletes.equalityColumnsIn(schema);
      long added =
          change.addRows(
              new RowChange.NewRows() {
                @Override
                public void add(Record row, Long rowId) {
                  files.writeNew(row, rowId);
                }

                @Override
                public void deleteEqual(DataFile file, Record row) {
                  deletes.deleteEqual(file, row, equalityColumns);
                }
              });
      EditFiles.Result written = files.finish();
      if (equalityIds != null && !written.deleteFiles().isEmpty()) {
        PyIcebergWarning.equalityDeletesWritten(table);
      }

      boolean nothingToCommit =
          removedFiles.isEmpty()
              && written.dataFiles().isEmpty()
              && written.deleteFiles().isEmpty();
      if (nothingToCommit) {
        return new Outcome(rowsDeleted, added, null);
      }

      SnapshotUpdate<?> update =
          copyOnWrite
              ? overwrite(base, change, removedFiles, orphanedDeletes, written)
              : rowDelta(base, change, removedFiles, written);
      commit(update, files);
      return new Outcome(rowsDeleted, added, headSnapshotId());
    }
  }

  private OverwriteFiles overwrite(
      Snapshot base,
      RowChange change,
      List<DataFile> removed,
      List<DeleteFile> orphanedDeletes,
      EditFiles.Result written) {
    OverwriteFiles overwrite = table.newOverwrite();
    if (!removed.isEmpty()) {
      overwrite.deleteFiles(DataFileSet.of(removed), DeleteFileSet.of(orphanedDeletes));
    }
    written.dataFiles().forEach(overwrite::addFile);
    if (base != null) {
      overwrite.validateFromSnapshot(base.snapshotId());
    }
    return overwrite
        .conflictDetectionFilter(change.conflictFilter())
        .validateNoConflictingData()
        .validateNoConflictingDeletes();
  }

  private RowDelta rowDelta(
      Snapshot base, RowChange change, List<DataFile> removed, EditFiles.Result written) {
    RowDelta delta = table.newRowDelta();
    removed.forEach(delta::removeRows);
    written.dataFiles().forEach(delta::addRows);
    written.deleteFiles().forEach(delta::addDeletes);
    written.replacedDeleteFiles().forEach(delta::removeDeletes);
    if (base != null) {
      delta.validateFromSnapshot(base.snapshotId());
    }
    if (!written.referencedDataFiles().isEmpty()) {
      delta.validateDataFilesExist(written.referencedDataFiles());
    }
    return delta
        .conflictDetectionFilter(change.conflictFilter())
        .validateDeletedFiles()
        .validateNoConflictingDataFiles()
        .validateNoConflictingDeleteFiles();
  }

  /**
   * Rewrites the files a copy-on-write touches, two at a time: each file is read, probed and copied by
   * one thread with writers of its own ({@link EditFiles#slot}), so that the rewrite of many files keeps
   * both cores busy and holds the files in flight, not all of them. A failure stops the other thread
   * after the file it is on; the attempt's files are then removed with it.
   *
   * @return the rows dropped from each file, in the tasks' order
   */
  private static long[] rewriteFiles(List<FileScanTask> tasks, CopyOnWriteRewrite rewrite, EditFiles files) {
    long[] dropped = new long[tasks.size()];
    java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();
    java.util.function.IntFunction<Runnable> worker = slot -> () -> {
      EditFiles.Slot kept = files.slot(slot);
      try {
        for (int i = next.getAndIncrement(); i < tasks.size() && !failed.get(); i = next.getAndIncrement()) {
          dropped[i] = rewrite.rewrite(tasks.get(i), kept);
          kept.endRewrittenFile();
        }
      } catch (RuntimeException | Error e) {
        failed.set(true);
        throw e;
      }
    };
    if (tasks.size() < 2) {
      worker.apply(0).run();
    } else {
      BackgroundThreads.both(worker.apply(0), worker.apply(1));
    }
    return dropped;
  }

  /**
   * Commits the update on the branch with the snapshot properties; turns a conflict into {@link
   * Conflict}. The attempt's files are kept when the commit succeeded or its outcome is unknown
   * (then they may be part of the table); otherwise closing them removes them.
   */
  private void commit(SnapshotUpdate<?> update, EditFiles files) {
    CallerRunsExecutor.inCallerWhenSmall(update, table, branch);
    snapshotProperties.forEach(update::set);
    if (branch != null) {
      update.toBranch(branch);
    }
    if (beforeCommit != null) {
      beforeCommit.run();
    }
    CommittedFiles.check(update, table, files.finish().added());
    try {
      update.commit();
      files.keep();
    } catch (CommitStateUnknownException e) {
      files.keep(); // the commit may have succeeded: its files must stay
      throw e;
    } catch (ValidationException | CommitFailedException e) {
      throw new Conflict(e); // closing the attempt's files removes them
    }
  }

  /**
   * The columns to read from candidate files: all of them for copy-on-write (kept rows are written
   * again), otherwise those the change needs plus the equality delete columns; then the row lineage
   * columns when moved or replaced rows carry them; always {@code _pos} last.
   */
  private static Schema projection(
      Schema schema,
      RowChange change,
      boolean copyOnWrite,
      int[] equalityIds,
      boolean carryRowLineage) {
    Set<Integer> required = change.requiredFieldIds();
    List<Types.NestedField> columns;
    if (copyOnWrite || required == null) {
      columns = new ArrayList<>(schema.columns());
    } else {
      Set<Integer> ids = new HashSet<>(required);
      if (equalityIds != null) {
        for (int id : equalityIds) {
          ids.add(id);
        }
      }
      columns = new ArrayList<>(TypeUtil.select(schema, ids).columns());
    }
    if (carryRowLineage) {
      columns.add(MetadataColumns.ROW_ID);
      columns.add(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER);
    }
    columns.add(MetadataColumns.ROW_POSITION);
    return new Schema(columns);
  }

  private List<FileScanTask> plan(Snapshot base, RowChange change) {
    List<FileScanTask> tasks = new ArrayList<>();
    Expression filter = change.scanFilter();
    if (base == null || filter.op() == Expression.Operation.FALSE) {
      return tasks;
    }

    TableScan scan = CallerRunsExecutor.planInCallerWhenSmall(
        table
            .newScan()
            .useSnapshot(base.snapshotId())
            .filter(filter)
            .caseSensitive(true)
            .includeColumnStats());
    try (CloseableIterable<FileScanTask> planned = scan.planFiles()) {
      for (FileScanTask task : planned) {
        if (change.mightAffect(task.file())) {
          tasks.add(task);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to plan files of " + table.name(), e);
    }
    return tasks;
  }

  /** The head of the target branch; main's head when the branch does not exist yet. */
  private Snapshot head() {
    if (branch != null && table.refs().containsKey(branch)) {
      return table.snapshot(branch);
    }
    return table.currentSnapshot();
  }

  private Long headSnapshotId() {
    Snapshot head = head();
    return head == null ? null : head.snapshotId();
  }

  private int formatVersion() {
    return TableUtil.formatVersion(table);
  }
}
