package dev.transforms.singlenode;

import dev.transforms.api.TransformsException;
import dev.transforms.singlenode.arrow.ArrowRecords;
import dev.transforms.singlenode.internal.read.LiveRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.AddedRowsScanTask;
import org.apache.iceberg.ChangelogScanTask;
import org.apache.iceberg.ContentScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.DeletedDataFileScanTask;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.IncrementalChangelogScan;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * The row changes of an Iceberg table between two snapshots, through Iceberg's changelog scan: rows
 * inserted and deleted by each snapshot and, with {@link #identifiedBy identifier columns}, updates as
 * before/after pairs. The single-node counterpart of Spark's {@code create_changelog_view}.
 *
 * <pre>{@code
 * try (VectorSchemaRoot changes = Changelog.of(input.table())
 *     .between(input.previousSnapshotId(), input.currentSnapshotId().getAsLong())
 *     .identifiedBy("id")
 *     .toArrow(ctx.allocator())) {
 *   output.writeTable(changes);
 * }
 * }</pre>
 *
 * <p>Copy-on-write rewrites a whole file to change one row, so a snapshot "deletes" and "inserts"
 * every other row of that file unchanged. Such carried-over pairs are dropped: only real changes are
 * returned. Tables with delete files (merge-on-read) are not supported by Iceberg's changelog scan in
 * Java; {@link #changes()} says so, naming the table.
 *
 * <p>Instances are immutable; the {@code between}/{@code identifiedBy} methods return new ones.
 */
public final class Changelog {

  /** The column holding the kind of change, as in Spark's changelog view. */
  public static final String CHANGE_TYPE = "_change_type";
  /** The column holding the position of the change's snapshot in the range, from 0. */
  public static final String CHANGE_ORDINAL = "_change_ordinal";
  /** The column holding the snapshot that made the change. */
  public static final String COMMIT_SNAPSHOT_ID = "_commit_snapshot_id";

  /** The kinds of change. */
  public enum ChangeType {
    /** A new row. */
    INSERT,
    /** A row removed. */
    DELETE,
    /** A row as it was before an update (same identifier as the following after-image). */
    UPDATE_BEFORE,
    /** A row as it is after an update. */
    UPDATE_AFTER
  }

  /**
   * One changed row.
   *
   * @param type the kind of change
   * @param ordinal the position of the snapshot in the range, from 0
   * @param snapshotId the snapshot that made the change
   * @param row the row, with the table's columns
   */
  public record Change(ChangeType type, int ordinal, long snapshotId, Record row) {}

  private final Table table;
  private final OptionalLong fromExclusive;
  private final OptionalLong toInclusive;
  private final List<String> identifierColumns;

  private Changelog(Table table, OptionalLong from, OptionalLong to, List<String> identifierColumns) {
    this.table = table;
    this.fromExclusive = from;
    this.toInclusive = to;
    this.identifierColumns = identifierColumns;
  }

  /**
   * The changelog of a table, over its whole history up to its current snapshot.
   *
   * @param table the table
   * @return the changelog
   */
  public static Changelog of(Table table) {
    Objects.requireNonNull(table, "table");
    return new Changelog(table, OptionalLong.empty(), OptionalLong.empty(), List.of());
  }

  /**
   * Limits the changelog to the snapshots after {@code fromExclusive} up to {@code toInclusive}.
   *
   * @param fromExclusive the last snapshot already seen; empty to start at the table's first snapshot
   * @param toInclusive the last snapshot to include
   * @return the limited changelog
   */
  public Changelog between(OptionalLong fromExclusive, long toInclusive) {
    return new Changelog(table, fromExclusive, OptionalLong.of(toInclusive), identifierColumns);
  }

  /**
   * Pairs a deleted row and an inserted row with the same values in these columns, in one snapshot,
   * into an update (before and after images).
   *
   * @param columns the columns that identify a row, such as {@code "id"}
   * @return the changelog with update pairing
   * @throws IllegalArgumentException if a column is not in the table
   */
  public Changelog identifiedBy(String... columns) {
    for (String column : columns) {
      if (table.schema().findField(column) == null) {
        throw new IllegalArgumentException("Identifier column '" + column + "' is not a column of " + table.name()
            + "; columns: " + table.schema().columns().stream().map(Types.NestedField::name).toList());
      }
    }
    return new Changelog(table, fromExclusive, toInclusive, List.of(columns));
  }

  /**
   * Reads the changes, ordered by snapshot; within a snapshot, update pairs (before, then after),
   * then deletes, then inserts.
   *
   * @return the changes; empty when the range holds no snapshot
   * @throws TransformsException if a snapshot in the range has delete files (merge-on-read)
   */
  public List<Change> changes() {
    if (table.currentSnapshot() == null
        || (fromExclusive.isPresent() && toInclusive.isPresent() && fromExclusive.getAsLong() == toInclusive.getAsLong())) {
      return List.of();
    }
    IncrementalChangelogScan scan = table.newIncrementalChangelogScan();
    if (fromExclusive.isPresent()) {
      scan = scan.fromSnapshotExclusive(fromExclusive.getAsLong());
    }
    if (toInclusive.isPresent()) {
      scan = scan.toSnapshot(toInclusive.getAsLong());
    }
    Schema schema = table.schema();
    Map<Integer, Snapshot> bySnapshot = new TreeMap<>();
    try (CloseableIterable<ChangelogScanTask> tasks = scan.planFiles()) {
      for (ChangelogScanTask task : tasks) {
        Snapshot changes = bySnapshot.computeIfAbsent(task.changeOrdinal(), o -> new Snapshot(task.commitSnapshotId()));
        if (task instanceof AddedRowsScanTask added) {
          requireNoDeletes(added.deletes().isEmpty(), task);
          read(added, added.deletes(), schema, changes.inserted);
        } else if (task instanceof DeletedDataFileScanTask deleted) {
          requireNoDeletes(deleted.existingDeletes().isEmpty(), task);
          read(deleted, deleted.existingDeletes(), schema, changes.deleted);
        } else {
          requireNoDeletes(false, task);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan the changelog of " + table.name(), e);
    } catch (UnsupportedOperationException e) {
      // Iceberg refuses delete files while planning, before any task names its snapshot.
      throw mergeOnRead("a snapshot in the range", e);
    }
    List<Change> changes = new ArrayList<>();
    bySnapshot.forEach((ordinal, snapshot) -> snapshot.resolve(ordinal, identifierColumns, changes));
    return changes;
  }

  /**
   * The changes as Arrow data: the table's columns followed by {@value #CHANGE_TYPE} (string),
   * {@value #CHANGE_ORDINAL} (int) and {@value #COMMIT_SNAPSHOT_ID} (long).
   *
   * @param allocator where the memory comes from
   * @return the changes; the caller closes the root
   */
  public VectorSchemaRoot toArrow(BufferAllocator allocator) {
    Schema schema = changeSchema(table.schema());
    List<Record> rows = new ArrayList<>();
    int columns = table.schema().columns().size();
    for (Change change : changes()) {
      GenericRecord record = GenericRecord.create(schema);
      for (int c = 0; c < columns; c++) {
        record.set(c, change.row().get(c));
      }
      record.set(columns, change.type().name());
      record.set(columns + 1, change.ordinal());
      record.set(columns + 2, change.snapshotId());
      rows.add(record);
    }
    return ArrowRecords.toRoot(rows, schema, allocator);
  }

  /**
   * The schema of {@link #toArrow}: the table's columns, then the three change columns.
   *
   * @param tableSchema the table's schema
   * @return the changelog schema
   */
  public static Schema changeSchema(Schema tableSchema) {
    List<Types.NestedField> fields = new ArrayList<>(tableSchema.columns());
    int next = tableSchema.highestFieldId() + 1;
    fields.add(Types.NestedField.required(next, CHANGE_TYPE, Types.StringType.get()));
    fields.add(Types.NestedField.required(next + 1, CHANGE_ORDINAL, Types.IntegerType.get()));
    fields.add(Types.NestedField.required(next + 2, COMMIT_SNAPSHOT_ID, Types.LongType.get()));
    return new Schema(fields);
  }

  private void requireNoDeletes(boolean none, ChangelogScanTask task) {
    if (!none) {
      throw mergeOnRead("snapshot " + task.commitSnapshotId(), null);
    }
  }

  private TransformsException mergeOnRead(String where, Throwable cause) {
    return new TransformsException("Cannot read the changelog of " + table.name() + ": " + where
        + " has delete files (merge-on-read), which Iceberg's changelog scan in Java does not support; use "
        + "copy-on-write on this table (write.delete.mode, write.update.mode, write.merge.mode) or Spark's "
        + "create_changelog_view", cause);
  }

  private void read(ContentScanTask<DataFile> task, List<DeleteFile> deletes, Schema schema, List<Record> into) {
    if (task.file().format() != FileFormat.PARQUET) {
      throw new UnsupportedOperationException("The single-node engine reads Parquet data files only, not "
          + task.file().location());
    }
    // each row a record of its own: rows are kept
    try (CloseableIterable<Record> records =
        LiveRows.of(table.io(), schema, task, deletes, schema).records(false, false)) {
      records.forEach(into::add);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + task.file().location(), e);
    }
  }

  /** The rows one snapshot deleted and inserted, before carried-over rows are dropped. */
  private static final class Snapshot {
    final long snapshotId;
    final List<Record> deleted = new ArrayList<>();
    final List<Record> inserted = new ArrayList<>();

    Snapshot(long snapshotId) {
      this.snapshotId = snapshotId;
    }

    void resolve(int ordinal, List<String> identifiers, List<Change> out) {
      // A copy-on-write rewrite deletes and re-inserts the untouched rows of a file: no change.
      Map<List<Object>, Integer> deletedCounts = counts(deleted);
      Map<List<Object>, Integer> carried = new HashMap<>();
      counts(inserted).forEach((row, count) -> {
        int both = Math.min(count, deletedCounts.getOrDefault(row, 0));
        if (both > 0) {
          carried.put(row, both);
        }
      });
      List<Record> realDeletes = withoutCarried(deleted, carried);
      List<Record> realInserts = withoutCarried(inserted, carried);

      Map<List<Object>, Deque<Record>> insertsById = new LinkedHashMap<>();
      if (!identifiers.isEmpty()) {
        realInserts.forEach(r -> insertsById.computeIfAbsent(ids(r, identifiers), k -> new ArrayDeque<>()).add(r));
      }
      List<Change> deletes = new ArrayList<>();
      for (Record row : realDeletes) {
        Deque<Record> candidates = identifiers.isEmpty() ? null : insertsById.get(ids(row, identifiers));
        if (candidates != null && !candidates.isEmpty()) {
          out.add(new Change(ChangeType.UPDATE_BEFORE, ordinal, snapshotId, row));
          out.add(new Change(ChangeType.UPDATE_AFTER, ordinal, snapshotId, candidates.poll()));
        } else {
          deletes.add(new Change(ChangeType.DELETE, ordinal, snapshotId, row));
        }
      }
      out.addAll(deletes);
      List<Record> inserts = identifiers.isEmpty() ? realInserts
          : insertsById.values().stream().flatMap(Deque::stream).toList();
      inserts.forEach(row -> out.add(new Change(ChangeType.INSERT, ordinal, snapshotId, row)));
    }

    private static Map<List<Object>, Integer> counts(List<Record> rows) {
      Map<List<Object>, Integer> counts = new HashMap<>();
      rows.forEach(r -> counts.merge(values(r), 1, Integer::sum));
      return counts;
    }

    /** The rows minus as many copies of each carried-over row as were carried over. */
    private static List<Record> withoutCarried(List<Record> rows, Map<List<Object>, Integer> carried) {
      Map<List<Object>, Integer> toSkip = new HashMap<>(carried);
      List<Record> kept = new ArrayList<>();
      for (Record row : rows) {
        List<Object> key = values(row);
        Integer skip = toSkip.get(key);
        if (skip != null && skip > 0) {
          toSkip.put(key, skip - 1);
        } else {
          kept.add(row);
        }
      }
      return kept;
    }

    private static List<Object> values(Record row) {
      Object[] values = new Object[row.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = row.get(i);
      }
      return Arrays.asList(values);
    }

    private static List<Object> ids(Record row, List<String> identifiers) {
      return identifiers.stream().map(row::getField).toList();
    }
  }
}
