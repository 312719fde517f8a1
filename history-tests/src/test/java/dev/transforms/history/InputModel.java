package dev.transforms.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the test knows of the input table, from what its steps did rather than from the SDK: the rows it
 * must hold, every snapshot the steps made (with its parent, operation, schema and rows), which snapshots
 * are still kept, and the snapshot each downstream transform's last successful build read. From these it
 * tells how the next build of a transform must go: up to date, incremental, or full and why.
 */
final class InputModel {

  /** A column of the input: Iceberg field id and name. */
  record Column(int fieldId, String name) {}

  /**
   * A snapshot a step made.
   *
   * @param id the snapshot id
   * @param parent its parent, or null for the first
   * @param operation its Iceberg operation, as committed
   * @param sequenceNumber its sequence number, the order of commits
   * @param schema the input's columns when it was committed
   * @param rows its rows, by id, each by field id
   */
  record SnapshotRecord(long id, Long parent, String operation, long sequenceNumber, List<Column> schema,
      Map<Long, Map<Integer, Object>> rows) {}

  /** What a downstream transform's builds have read. */
  static final class Reader {
    /** The snapshot its last successful build read; null before the first. */
    Long lastRead;
    /** The oldest snapshot of the history its output is derived from: that of its last full build. */
    Long basis;
    /** The input's columns when its last successful build ran, in which it read the input's changes. */
    List<Column> columns;
  }

  /** How the next build of a transform must go. */
  record Expectation(boolean upToDate, boolean incremental, List<String> reasons) {
    static Expectation full(String reason) {
      return new Expectation(false, false, List.of(reason));
    }
  }

  private final Map<Long, SnapshotRecord> snapshots = new HashMap<>();
  private final Set<Long> kept = new HashSet<>();
  private final Map<String, Reader> readers = new LinkedHashMap<>();
  private Map<Long, Map<Integer, Object>> rows = new TreeMap<>();
  private List<Column> columns;
  private long head = -1;
  private long nextId = 1;
  private long clock = 1;
  private boolean lateChanges;
  private Long lastBuildRead;

  InputModel(List<Column> columns) {
    this.columns = List.copyOf(columns);
  }

  // ---- rows

  /** The rows the input must hold now, by id, each by field id. */
  Map<Long, Map<Integer, Object>> rows() {
    return rows;
  }

  /** The input's columns now (its current schema). */
  List<Column> columns() {
    return columns;
  }

  /** A column by name, if the input has it now. */
  Optional<Column> column(String name) {
    return columns.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  void columns(List<Column> now) {
    columns = List.copyOf(now);
  }

  /** A fresh id for a new row; ids are never reused. */
  long newId() {
    return nextId++;
  }

  /** The sequence value of the step running now; grows with every step. */
  long clock() {
    return clock;
  }

  void tick() {
    clock++;
  }

  /** The ids of the current rows, ascending. */
  List<Long> ids() {
    return new ArrayList<>(rows.keySet());
  }

  void put(long id, Map<Integer, Object> row) {
    rows.put(id, row);
  }

  void remove(long id) {
    rows.remove(id);
  }

  /** Notes that a step wrote a change older than the row it replaced. */
  void lateChange() {
    lateChanges = true;
  }

  /** Whether some step wrote a late change (a sequence value lower than the row's it replaced). */
  boolean hadLateChanges() {
    return lateChanges;
  }

  // ---- snapshots

  /** Records the snapshot a step just committed; it becomes the head and holds the model's rows. */
  void committed(long id, Long parent, String operation, long sequenceNumber) {
    snapshots.put(id, new SnapshotRecord(id, parent, operation, sequenceNumber, columns, copy(rows)));
    kept.add(id);
    head = id;
  }

  /** Moves the head to an earlier snapshot (a rollback): its rows become the model's. */
  void rolledBackTo(long id) {
    head = id;
    rows = copy(snapshots.get(id).rows());
  }

  /** Takes the snapshots the table still has, after an expiry. */
  void keepOnly(Set<Long> stillThere) {
    kept.retainAll(stillThere);
  }

  long head() {
    return head;
  }

  boolean isKept(long id) {
    return kept.contains(id);
  }

  SnapshotRecord snapshot(long id) {
    return snapshots.get(id);
  }

  /** The sequence number of a snapshot the steps made, expired or not; for ordering changes. */
  long sequenceNumber(long id) {
    SnapshotRecord snapshot = snapshots.get(id);
    if (snapshot == null) {
      throw new AssertionError("changes name snapshot " + id + ", which no step made");
    }
    return snapshot.sequenceNumber();
  }

  /** The head's ancestors, the head first, up to the first one whose parent is gone. */
  List<Long> keptAncestry() {
    List<Long> chain = new ArrayList<>();
    Long at = head;
    while (at != null && kept.contains(at)) {
      chain.add(at);
      at = snapshots.get(at).parent();
    }
    return chain;
  }

  /** The oldest snapshot a read of the whole kept history starts at: where the head's kept ancestry ends. */
  long oldestKept() {
    List<Long> chain = keptAncestry();
    return chain.get(chain.size() - 1);
  }

  /** The snapshot the last build read (the head then), for steps that expire it. */
  Optional<Long> lastBuildRead() {
    return Optional.ofNullable(lastBuildRead);
  }

  void buildRead() {
    lastBuildRead = head;
  }

  // ---- readers

  Reader reader(String transform) {
    return readers.computeIfAbsent(transform, t -> new Reader());
  }

  /** Records a transform's successful build of the head: where its output's history now starts. */
  void built(String transform, boolean incremental) {
    Reader reader = reader(transform);
    reader.lastRead = head;
    reader.columns = columns;
    if (!incremental) {
      reader.basis = oldestKept();
    }
  }

  /**
   * How the next build of a transform must go.
   *
   * @param transform the transform
   * @param incremental whether it is {@code @Incremental} at all
   * @param readsChanges whether it reads changes ({@code @Incremental(changes = true)}), so that edits
   *     keep it incremental
   * @return the expectation
   */
  Expectation expect(String transform, boolean incremental, boolean readsChanges) {
    Reader reader = reader(transform);
    if (reader.lastRead != null && reader.lastRead == head) {
      return new Expectation(true, false, List.of());
    }
    if (!incremental) {
      return Expectation.full("not an incremental transform");
    }
    if (reader.lastRead == null) {
      return Expectation.full("first build");
    }
    long from = reader.lastRead;
    if (!kept.contains(from)) {
      return Expectation.full("snapshot " + from + " of input " + Downstream.INPUT
          + " that the last build read no longer exists (expired)");
    }
    List<String> reasons = new ArrayList<>();
    Long at = head;
    while (at != null && at != from && kept.contains(at)) {
      SnapshotRecord snapshot = snapshots.get(at);
      if (!readsChanges && !snapshot.operation().equals("append") && !snapshot.operation().equals("replace")) {
        reasons.add("changed by '" + snapshot.operation() + "' in snapshot " + at + ", not only by appends");
      }
      at = snapshot.parent();
    }
    if (at == null || at != from) {
      // The walk fell off the kept history before reaching what the last build read; an edit on the way
      // may be named first.
      // It fell off at an expired parent (the history between is gone) or at the first snapshot (a rollback).
      reasons.add("snapshot " + from + " of input " + Downstream.INPUT + " that the last build read: "
          + (at != null ? "the history between them was expired" : "it is not an ancestor of snapshot " + head));
      return new Expectation(false, false, reasons);
    }
    // Rows are read in the head's schema, changes in the table's schema now: either may break what was read.
    List<Column> read = snapshots.get(from).schema();
    breakingChange(read, snapshots.get(head).schema()).or(() -> breakingChange(read, columns)).ifPresent(reasons::add);
    return reasons.isEmpty() ? new Expectation(false, true, List.of()) : new Expectation(false, false, reasons);
  }

  /** A column of {@code before} that {@code after} lacks or names otherwise: rows read before may not fit. */
  private static Optional<String> breakingChange(List<Column> before, List<Column> after) {
    for (Column column : before) {
      Optional<Column> now = after.stream().filter(c -> c.fieldId() == column.fieldId()).findFirst();
      if (now.isEmpty() || !now.get().name().equals(column.name())) {
        return Optional.of("schema changed");
      }
    }
    return Optional.empty();
  }

  private static Map<Long, Map<Integer, Object>> copy(Map<Long, Map<Integer, Object>> rows) {
    Map<Long, Map<Integer, Object>> copy = new TreeMap<>();
    rows.forEach((id, row) -> copy.put(id, new HashMap<>(row)));
    return copy;
  }
}
