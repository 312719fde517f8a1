package dev.transforms.singlenode.edits;

import dev.transforms.singlenode.parquet.LocalDeleteFilter;
import dev.transforms.singlenode.parquet.ParquetRowCursor;
import dev.transforms.singlenode.threads.BackgroundThreads;
import dev.transforms.singlenode.threads.CallerRunsExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
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
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.deletes.PositionDeleteIndexUtil;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.formats.ReadBuilder;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.DataFileSet;
import org.apache.iceberg.util.DeleteFileSet;
import org.apache.iceberg.util.PartitionUtil;

/**
 * Applies a {@link RowChange} to a table in one commit, retrying the whole change on conflicts.
 *
 * <p>One attempt: take the head snapshot of the target branch; plan the data files that may hold
 * affected rows (partition and metrics pruning through the scan filter, then the change's own
 * per-file check); read the live rows of each candidate file (existing deletes applied) and ask the
 * change which to drop; then
 *
 * <ul>
 *   <li>copy-on-write: write the kept rows of every file that lost rows into new files, and commit
 *       an {@link OverwriteFiles} that replaces those files and adds the change's new rows;
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
final class EditEngine {
  /** Rows of one file kept in memory while no row of it has been dropped yet (copy-on-write). */
  static final int DEFAULT_COPY_BUFFER_ROWS = 200_000;

  /**
   * Copy-on-write rewrites of files with at least this many rows may be written by two threads into
   * two files (see {@link #rewriteInTwoLanes}).
   */
  static final long TWO_LANE_MIN_ROWS = 400_000;

  /** Up to this many manifests are planned and committed in the calling thread. */
  private static final int MAX_MANIFESTS_IN_CALLER = 64;

  private final Table table;
  private final String branch;
  private final Map<String, String> snapshotProperties;
  private final int maxAttempts;
  private final Runnable beforeCommit;
  private final int copyBufferRows;

  EditEngine(
      Table table,
      String branch,
      Map<String, String> snapshotProperties,
      int maxAttempts,
      Runnable beforeCommit,
      int copyBufferRows) {
    this.table = table;
    this.branch = branch;
    this.snapshotProperties = snapshotProperties;
    this.maxAttempts = maxAttempts;
    this.beforeCommit = beforeCommit;
    this.copyBufferRows = copyBufferRows;
  }

  /** What an applied change did. */
  static final class Outcome {
    private final long rowsDeleted;
    private final long rowsAdded;
    private final Long snapshotId;

    Outcome(long rowsDeleted, long rowsAdded, Long snapshotId) {
      this.rowsDeleted = rowsDeleted;
      this.rowsAdded = rowsAdded;
      this.snapshotId = snapshotId;
    }

    long rowsDeleted() {
      return rowsDeleted;
    }

    long rowsAdded() {
      return rowsAdded;
    }

    Long snapshotId() {
      return snapshotId;
    }
  }

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
    RuntimeException lastConflict = null;
    for (int number = 1; number <= maxAttempts; number += 1) {
      if (number > 1) {
        pause(number);
        table.refresh();
      }
      try {
        return attempt.get();
      } catch (Conflict conflict) {
        lastConflict = (RuntimeException) conflict.getCause();
      }
    }

    throw new RowEditConflictException(
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
      List<DataFile> removedFiles = new ArrayList<>();
      List<DeleteFile> orphanedDeletes = new ArrayList<>();
      long rowsDeleted = 0;
      for (FileScanTask task : tasks) {
        if (task.deletes().isEmpty() && change.affectsWholeFile(task)) {
          removedFiles.add(task.file());
          rowsDeleted += task.file().recordCount();
        } else if (copyOnWrite) {
          long dropped = rewrite(task, schema, projection, change, files);
          if (dropped > 0) {
            removedFiles.add(task.file());
            orphanedDeletes.addAll(fileScopedPositionDeletes(task));
            rowsDeleted += dropped;
          }
        } else {
          rowsDeleted += markDeleted(task, schema, projection, change, files, equalityIds);
        }
      }

      files.deletes().startPositionDeletes(); // written meanwhile on another thread
      long added =
          change.addRows(
              new RowChange.NewRows() {
                @Override
                public void add(Record row, Long rowId) {
                  files.writeNew(row, rowId);
                }

                @Override
                public void deleteEqual(DataFile file, Record row) {
                  files.deletes().deleteEqual(file, row, files.deletes().equalityColumnsIn(schema));
                }
              });
      EditFiles.Result written = files.finish();

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

  /**
   * The position delete files (not deletion vectors, which Iceberg drops by itself) that apply only
   * to the task's data file: they go when the data file is rewritten.
   */
  private static List<DeleteFile> fileScopedPositionDeletes(FileScanTask task) {
    List<DeleteFile> deletes = new ArrayList<>();
    for (DeleteFile delete : task.deletes()) {
      if (delete.content() == FileContent.POSITION_DELETES
          && !ContentFileUtil.isDV(delete)
          && ContentFileUtil.isFileScoped(delete)) {
        deletes.add(delete);
      }
    }
    return deletes;
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
   * Commits the update on the branch with the snapshot properties; turns a conflict into {@link
   * Conflict}. The attempt's files are kept when the commit succeeded or its outcome is unknown
   * (then they may be part of the table); otherwise closing them removes them.
   */
  private void commit(SnapshotUpdate<?> update, EditFiles files) {
    if (fewManifests(head())) {
      update.scanManifestsWith(CallerRunsExecutor.INSTANCE);
      update.writeManifestsWith(CallerRunsExecutor.INSTANCE, 1);
    }
    snapshotProperties.forEach(update::set);
    if (branch != null) {
      update.toBranch(branch);
    }
    if (beforeCommit != null) {
      beforeCommit.run();
    }
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

  /** Copy-on-write: rewrites the file without its dropped rows; returns how many were dropped. */
  private long rewrite(
      FileScanTask task, Schema schema, Schema projection, RowChange change, EditFiles files) {
    LocalDeleteFilter existing = new LocalDeleteFilter(table.io(), task, schema, projection);
    Schema readSchema = existing.requiredSchema();
    RowChange.RowDecider decider = change.decider(readSchema, task.file());
    int posIndex = positionOf(readSchema, MetadataColumns.ROW_POSITION.fieldId());
    // rows whose integral key no source row has are kept without asking the decider
    RowChange.RowProbe probe = change.probe(readSchema);
    LongHashSet integralKeys =
        probe == null || probe.columns().length != 1 ? null : probe.integralKeys();
    int keyIndex = integralKeys == null ? -1 : probe.columns()[0];

    // Rows from ParquetRowCursor are records of their own. Iceberg's reader may instead reuse one
    // record for all rows: kept rows usually go straight to the writer, which is done with a row
    // once it returns; only the rows held in the buffer then need their own, a shallow copy, which
    // is enough when every value is immutable (otherwise the reader would also reuse nested
    // records, lists and byte buffers).
    ParquetRowCursor cursor = cursor(task, readSchema, existing);
    if (cursor != null
        && probe != null
        && probe.columns().length < readSchema.columns().size() - 1 // fewer than all but _pos
        && task.file().recordCount() >= TWO_LANE_MIN_ROWS) {
      return rewriteInTwoLanes(task, readSchema, existing, cursor, change, decider, posIndex, files);
    }
    boolean reuse = cursor == null && immutableValues(readSchema);
    PositionDeleteIndex dropped = null;
    List<Record> buffer = new ArrayList<>();
    try (OverlappedWriter kept = new OverlappedWriter(files::writeKept, reuse,
        task.file().recordCount() >= OverlappedWriter.MIN_ROWS)) {
      try (CloseableIterable<Record> rows = liveRows(task, readSchema, existing, cursor, reuse)) {
        for (Record row : rows) {
          boolean drop;
          if (integralKeys != null) {
            Object key = row.get(keyIndex);
            drop = key != null && integralKeys.contains(((Number) key).longValue()) && decider.drop(row);
          } else {
            drop = decider.drop(row);
          }
          if (drop) {
            if (dropped == null) {
              dropped = newPositionIndex();
            }
            dropped.delete((Long) row.get(posIndex));
            if (!kept.started() && buffer != null) {
              kept.start();
              buffer.forEach(kept::writeOwned);
              buffer = null;
            }
          } else if (kept.started()) {
            kept.write(row);
          } else if (buffer != null) {
            buffer.add(reuse ? row.copy() : row);
            if (buffer.size() >= copyBufferRows) {
              buffer = null; // too many rows to hold: read the file again if a row is dropped
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to read " + task.file().location(), e);
      }

      if (dropped == null) {
        return 0;
      }

      if (!kept.started()) {
        kept.start();
        PositionDeleteIndex droppedRows = dropped;
        ParquetRowCursor again = cursor(task, readSchema, existing);
        try (CloseableIterable<Record> rows =
            liveRows(task, readSchema, existing, again, again == null && reuse)) {
          for (Record row : rows) {
            if (!droppedRows.isDeleted((Long) row.get(posIndex))) {
              kept.write(row);
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException("Failed to read " + task.file().location(), e);
        }
      }
      kept.finish();
    }

    return dropped.cardinality();
  }

  /**
   * Copy-on-write of a large file whose rows a probe can tell apart by a few columns. First the
   * probe pass (those columns of every row, whole rows only where the probe lets a row through)
   * finds the dropped rows; then two threads copy the kept rows, each one half of the file into
   * files of its own, in file order. Encoding and compressing Parquet is most of a rewrite's cost,
   * and one writer is slower than the reader feeding it; two writers share it between the cores.
   * Files are split at most down to about half of {@link #TWO_LANE_MIN_ROWS} rows.
   */
  private long rewriteInTwoLanes(
      FileScanTask task,
      Schema readSchema,
      LocalDeleteFilter existing,
      ParquetRowCursor cursor,
      RowChange change,
      RowChange.RowDecider decider,
      int posIndex,
      EditFiles files) {
    PositionDeleteIndex dropped = newPositionIndex();
    probeRows(cursor, readSchema, existing, change, decider, row -> dropped.delete((Long) row.get(posIndex)));
    if (dropped.isEmpty()) {
      return 0;
    }

    // loaded here, once: the filter loads it lazily and is not meant for two threads
    PositionDeleteIndex deleted = existing.hasPosDeletes() ? existing.deletedRowPositions() : null;
    boolean utf8 = files.takesUtf8Strings();
    long middle = task.file().recordCount() / 2;
    Future<?> secondHalf =
        BackgroundThreads.run(
            () -> copyKept(task, readSchema, existing, deleted, dropped, middle, Long.MAX_VALUE, utf8, files, 1));
    Throwable failure = null;
    try {
      copyKept(task, readSchema, existing, deleted, dropped, 0, middle, utf8, files, 0);
    } catch (RuntimeException | Error e) {
      failure = e;
    }
    try {
      BackgroundThreads.await(secondHalf); // also on failure: the lane must be idle before cleanup
    } catch (RuntimeException | Error e) {
      if (failure == null) {
        failure = e;
      } else {
        failure.addSuppressed(e);
      }
    }
    if (failure instanceof RuntimeException) {
      throw (RuntimeException) failure;
    } else if (failure != null) {
      throw (Error) failure;
    }
    return dropped.cardinality();
  }

  /**
   * Writes the live, kept rows at positions {@code [from, to)} of the task's file into a lane;
   * with {@code utf8}, strings go to the writer as the bytes read.
   */
  private void copyKept(
      FileScanTask task,
      Schema readSchema,
      LocalDeleteFilter existing,
      PositionDeleteIndex deleted,
      PositionDeleteIndex dropped,
      long from,
      long to,
      boolean utf8,
      EditFiles files,
      int lane) {
    ParquetRowCursor cursor = cursor(task, readSchema, existing);
    if (cursor == null) {
      throw new IllegalStateException("The file could be read a moment ago: " + task.file().location());
    }
    GenericRecord row = GenericRecord.create(readSchema);
    int columns = cursor.columnCount();
    // rows are visited in order: walk the sorted positions to leave out instead of a lookup a row
    long[] skipped = sortedPositions(deleted, dropped, from, to);
    int nextSkipped = 0;
    try (cursor) {
      while (cursor.next()) {
        long position = cursor.position();
        if (position < from) {
          continue; // passed over without decoding anything
        } else if (position >= to) {
          break;
        }
        while (nextSkipped < skipped.length && skipped[nextSkipped] < position) {
          nextSkipped += 1;
        }
        if (nextSkipped < skipped.length && skipped[nextSkipped] == position) {
          continue;
        }
        // one record for all rows: the writer is done with a row when writeKept returns
        for (int column = 0; column < columns; column++) {
          row.set(column, utf8 ? cursor.getForParquetWriter(column) : cursor.get(column));
        }
        files.writeKept(row, lane);
      }
    }
  }

  /** The positions in {@code [from, to)} of either index (the first may be null), sorted. */
  private static long[] sortedPositions(
      PositionDeleteIndex deleted, PositionDeleteIndex dropped, long from, long to) {
    long[] positions =
        new long[Math.toIntExact(dropped.cardinality() + (deleted == null ? 0 : deleted.cardinality()))];
    int[] count = {0};
    for (PositionDeleteIndex index : deleted == null ? List.of(dropped) : List.of(dropped, deleted)) {
      index.forEach(
          position -> {
            if (position >= from && position < to) {
              positions[count[0]++] = position;
            }
          });
    }
    long[] inRange = java.util.Arrays.copyOf(positions, count[0]);
    java.util.Arrays.sort(inRange);
    return inRange;
  }

  /**
   * Whether every column of the schema is read into an immutable value (numbers, strings, dates and
   * times, decimals, UUIDs), so that a shallow copy of a reused record owns all its values.
   */
  private static boolean immutableValues(Schema readSchema) {
    for (Types.NestedField field : readSchema.columns()) {
      switch (field.type().typeId()) {
        case BOOLEAN:
        case INTEGER:
        case LONG:
        case FLOAT:
        case DOUBLE:
        case DATE:
        case TIME:
        case TIMESTAMP:
        case TIMESTAMP_NANO:
        case STRING:
        case DECIMAL:
        case UUID:
          break;
        default:
          return false;
      }
    }
    return true;
  }

  /** Merge-on-read: records deletes for the file's dropped rows; returns how many were dropped. */
  private long markDeleted(
      FileScanTask task,
      Schema schema,
      Schema projection,
      RowChange change,
      EditFiles files,
      int[] equalityIds) {
    LocalDeleteFilter existing = new LocalDeleteFilter(table.io(), task, schema, projection);
    Schema readSchema = existing.requiredSchema();
    RowChange.RowDecider decider = change.decider(readSchema, task.file());
    int posIndex = positionOf(readSchema, MetadataColumns.ROW_POSITION.fieldId());
    int[] equalityPositions =
        equalityIds == null ? null : files.deletes().equalityColumnsIn(readSchema);

    PositionDeleteIndex dropped = newPositionIndex();
    RowSink onDropped =
        row -> {
          dropped.delete((Long) row.get(posIndex));
          if (equalityPositions != null) {
            files.deletes().deleteEqual(task.file(), row, equalityPositions);
          }
        };
    if (!probeRows(task, readSchema, existing, change, decider, onDropped)) {
      try (CloseableIterable<Record> rows = existing.filter(open(task, readSchema, true))) {
        for (Record row : rows) {
          if (decider.drop(row)) {
            onDropped.accept(row);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to read " + task.file().location(), e);
      }
    }
    if (dropped.isEmpty()) {
      return 0;
    }

    if (equalityPositions == null) {
      files.deletes().deletePositions(task.file(), dropped, existing.deletedRowPositions());
    }
    return dropped.cardinality();
  }

  /** Receives a row the decider dropped; the row may be reused once it returns. */
  @FunctionalInterface
  private interface RowSink {
    void accept(Record row);
  }

  /**
   * Hands the live rows of the task that the decider drops to the sink, reading with {@link
   * ParquetRowCursor}: the change's probe columns of every row, the other columns only of rows the
   * probe lets through. Returns false, having read nothing, when the file cannot be read this way
   * (then the caller reads it with Iceberg's reader).
   */
  private boolean probeRows(
      FileScanTask task,
      Schema readSchema,
      LocalDeleteFilter existing,
      RowChange change,
      RowChange.RowDecider decider,
      RowSink sink) {
    ParquetRowCursor cursor = cursor(task, readSchema, existing);
    if (cursor == null) {
      return false;
    }
    probeRows(cursor, readSchema, existing, change, decider, sink);
    return true;
  }

  /** Probes the rows of a cursor already open on the task's file, as above; closes the cursor. */
  private void probeRows(
      ParquetRowCursor cursor,
      Schema readSchema,
      LocalDeleteFilter existing,
      RowChange change,
      RowChange.RowDecider decider,
      RowSink sink) {
    RowChange.RowProbe probe = change.probe(readSchema);
    int[] probed = probe == null ? new int[0] : probe.columns();
    LongHashSet integralKeys = probe == null ? null : probe.integralKeys();
    int keyColumn = probed.length == 1 ? probed[0] : -1;
    if (integralKeys != null && (keyColumn < 0 || !cursor.hasLongValues(keyColumn))) {
      integralKeys = null;
    }
    if (probe != null) {
      cursor.readAheadExcept(probed);
    }
    PositionDeleteIndex deleted = existing.hasPosDeletes() ? existing.deletedRowPositions() : null;
    GenericRecord row = GenericRecord.create(readSchema);
    int columns = cursor.columnCount();
    try (cursor) {
      while (cursor.next()) {
        if (deleted != null && deleted.isDeleted(cursor.position())) {
          continue;
        }
        if (integralKeys != null) {
          if (cursor.isNull(keyColumn) || !integralKeys.contains(cursor.getLong(keyColumn))) {
            continue;
          }
        } else if (probe != null) {
          for (int column : probed) {
            row.set(column, cursor.get(column));
          }
          if (!probe.mightConcern(row)) {
            continue;
          }
        }
        for (int column = 0; column < columns; column++) {
          row.set(column, cursor.get(column));
        }
        if (decider.drop(row)) {
          sink.accept(row);
        }
      }
    }
  }

  /** A cursor over the task's file, or null when Iceberg's reader must read it. */
  private ParquetRowCursor cursor(FileScanTask task, Schema readSchema, LocalDeleteFilter existing) {
    if (existing.hasEqDeletes()) {
      return null;
    }
    return ParquetRowCursor.open(
        table.io().newInputFile(task.file()),
        task,
        readSchema,
        PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant));
  }

  /**
   * Every live row of the task, all columns of the read schema: from the cursor when there is one,
   * each row a record of its own; otherwise from Iceberg's reader, which with {@code reuse} fills
   * one record again for each row.
   */
  private CloseableIterable<Record> liveRows(
      FileScanTask task,
      Schema readSchema,
      LocalDeleteFilter existing,
      ParquetRowCursor cursor,
      boolean reuse) {
    if (cursor == null) {
      return existing.filter(open(task, readSchema, reuse));
    }
    cursor.skipPositions(existing.hasPosDeletes() ? existing.deletedRowPositions() : null);
    return cursor.records(true, false);
  }

  private CloseableIterable<Record> open(FileScanTask task, Schema readSchema, boolean reuse) {
    ReadBuilder<Record, ?> builder =
        FormatModelRegistry.readBuilder(
            task.file().format(), Record.class, table.io().newInputFile(task.file()));
    if (reuse) {
      builder = builder.reuseContainers();
    }
    return builder
        .project(readSchema)
        .idToConstant(
            PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant))
        .caseSensitive(true)
        .build();
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

    TableScan scan =
        table
            .newScan()
            .useSnapshot(base.snapshotId())
            .filter(filter)
            .caseSensitive(true)
            .includeColumnStats();
    if (fewManifests(base)) {
      scan = scan.planWith(CallerRunsExecutor.INSTANCE);
    }
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

  /**
   * Whether the snapshot has so few manifests that reading them in the calling thread beats handing
   * them to Iceberg's worker pool (see {@link CallerRunsExecutor}).
   */
  private boolean fewManifests(Snapshot snapshot) {
    if (snapshot == null) {
      return true;
    }
    return snapshot.allManifests(table.io()).size() <= MAX_MANIFESTS_IN_CALLER;
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

  private static int positionOf(Schema readSchema, int fieldId) {
    List<Types.NestedField> columns = readSchema.columns();
    for (int i = 0; i < columns.size(); i += 1) {
      if (columns.get(i).fieldId() == fieldId) {
        return i;
      }
    }
    throw new IllegalStateException("Read schema has no field " + fieldId + ": " + readSchema);
  }

  private static PositionDeleteIndex newPositionIndex() {
    return PositionDeleteIndexUtil.merge(List.of());
  }

  private static void pause(int attempt) {
    long bound = Math.min(2_000L, 50L << Math.min(attempt, 6));
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(bound / 2, bound + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting to retry a row edit", e);
    }
  }

  /**
   * Writes the rows a copy-on-write rewrite keeps on a second thread while the caller goes on
   * reading, so that decoding the old file and encoding the new one overlap (on two cores, a rewrite
   * then takes about as long as the slower of the two instead of their sum). Rows travel in batches,
   * with one batch in flight at most, so memory stays bounded; rows from a reader that reuses its
   * record are copied first. Small files are written inline: a thread is not worth it.
   */
  private static final class OverlappedWriter implements AutoCloseable {
    static final long MIN_ROWS = 50_000;
    private static final int BATCH_ROWS = 4_096;

    private final java.util.function.Consumer<Record> sink;
    private final boolean copy;
    private final java.util.concurrent.ExecutorService thread;
    private List<Record> batch = new ArrayList<>(BATCH_ROWS);
    private java.util.concurrent.Future<?> inFlight;
    private boolean started;

    OverlappedWriter(java.util.function.Consumer<Record> sink, boolean copy, boolean overlap) {
      this.sink = sink;
      this.copy = copy;
      this.thread = overlap ? java.util.concurrent.Executors.newSingleThreadExecutor(runnable -> {
        Thread writer = new Thread(runnable, "transforms-rewrite-writer");
        writer.setDaemon(true);
        return writer;
      }) : null;
    }

    boolean started() {
      return started;
    }

    void start() {
      started = true;
    }

    /** Writes a row the reader may reuse: inline it is done with before the reader moves on. */
    void write(Record row) {
      writeOwned(copy && thread != null ? row.copy() : row);
    }

    /** Writes a row nobody else will change. */
    void writeOwned(Record row) {
      if (thread == null) {
        sink.accept(row);
        return;
      }
      batch.add(row);
      if (batch.size() >= BATCH_ROWS) {
        handOver();
      }
    }

    /** Writes what is left and waits until every row is written. */
    void finish() {
      if (thread != null) {
        if (!batch.isEmpty()) {
          handOver();
        }
        awaitInFlight();
      }
    }

    private void handOver() {
      awaitInFlight();
      List<Record> rows = batch;
      batch = new ArrayList<>(BATCH_ROWS);
      inFlight = thread.submit(() -> rows.forEach(sink));
    }

    private void awaitInFlight() {
      if (inFlight == null) {
        return;
      }
      try {
        inFlight.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while writing rewritten rows", e);
      } catch (java.util.concurrent.ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException runtime) {
          throw runtime;
        }
        if (cause instanceof Error error) {
          throw error;
        }
        throw new IllegalStateException(cause);
      } finally {
        inFlight = null;
      }
    }

    @Override
    public void close() {
      if (thread != null) {
        // On failure a batch may still be in flight; let it end before the caller aborts the writer.
        try {
          awaitInFlight();
        } catch (RuntimeException | Error e) {
          // The first failure is already on its way up.
        } finally {
          thread.shutdownNow();
        }
      }
    }
  }
}
