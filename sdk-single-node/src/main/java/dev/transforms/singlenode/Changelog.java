package dev.transforms.singlenode;

import dev.transforms.api.TransformsException;
import dev.transforms.runtime.spi.ChangeRange;
import dev.transforms.singlenode.arrow.ArrowRecords;
import dev.transforms.singlenode.internal.changes.SnapshotDiff;
import dev.transforms.singlenode.internal.memory.ArrowMemory;
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
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
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
 * returned. Merge-on-read tables (position deletes, deletion vectors, equality deletes) are read as
 * well: Iceberg's own changelog scan refuses them, this one compares each file's live rows.
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
   * The table whose changes these are.
   *
   * @return the table
   */
  public Table table() {
    return table;
  }

  /**
   * The columns that pair a deleted and an inserted row into an update.
   *
   * @return the identifier columns; empty when updates are not paired
   */
  public List<String> identifierColumns() {
    return identifierColumns;
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
   * <p>Every kind of table is read: copy-on-write and merge-on-read (position deletes, deletion
   * vectors, equality deletes). A snapshot's changes are the rows live in its parent and not in it
   * (deleted) and the reverse (inserted), comparing each data file whose live rows can differ.
   * Snapshots that only rewrite files ({@code replace}: compaction) change no row and are skipped.
   * Without a start, the range begins at the oldest snapshot still in the table's history: if its
   * parent has expired, that snapshot's rows are all inserts, whatever its operation (after maintenance
   * it is often a compaction). See {@code ChangeRange}.
   *
   * @return the changes; empty when the range holds no snapshot
   * @throws TransformsException if the start is not in the history of the end (expired, or the table
   *     was rolled back or replaced)
   */
  public List<Change> changes() {
    if (table.currentSnapshot() == null
        || (fromExclusive.isPresent() && toInclusive.isPresent() && fromExclusive.getAsLong() == toInclusive.getAsLong())) {
      return List.of();
    }
    List<ChangeRange.Step> steps = ChangeRange.steps(table, fromExclusive,
        toInclusive.orElse(table.currentSnapshot().snapshotId()));
    Schema schema = table.schema();
    try (BufferAllocator allocator = ArrowMemory.newRoot()) {
      SnapshotDiff diff = new SnapshotDiff(table, schema, allocator);
      List<Change> changes = new ArrayList<>();
      SnapshotDiff.Files previous = null; // the files of the step before, which the next step often compares with
      long previousId = -1;
      for (ChangeRange.Step step : steps) {
        long id = step.snapshot().snapshotId();
        SnapshotDiff.Files before = step.comparedWith().isEmpty() ? SnapshotDiff.Files.NONE
            : previous != null && previousId == step.comparedWith().getAsLong() ? previous
            : SnapshotDiff.Files.of(table, step.comparedWith().getAsLong());
        SnapshotDiff.Files after = SnapshotDiff.Files.of(table, id);
        Snapshot found = new Snapshot(id);
        diff.read(before, after, found.deleted, found.inserted);
        found.resolve(step.ordinal(), identifierColumns, changes);
        previous = after;
        previousId = id;
      }
      return changes;
    }
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
