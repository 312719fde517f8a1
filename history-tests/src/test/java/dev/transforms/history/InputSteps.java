package dev.transforms.history;

import dev.transforms.singlenode.edits.Compaction;
import dev.transforms.singlenode.edits.RowEdits;
import dev.transforms.testing.Row;
import dev.transforms.testing.TestWarehouse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;

/**
 * Runs the steps of a history that change the input (edits, maintenance, schema changes), keeps the
 * {@link InputModel} in step, and checks after each that the input holds the rows the model says. Each
 * step returns what it did, in words.
 */
final class InputSteps {

  private static final Schema SCHEMA = new Schema(List.of(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()),
      Types.NestedField.optional(3, "seq", Types.LongType.get())), Set.of(1));

  private final TestWarehouse warehouse;
  private final InputModel model;
  private final Map<Long, Integer> labels = new HashMap<>();

  private InputSteps(TestWarehouse warehouse, InputModel model) {
    this.warehouse = warehouse;
    this.model = model;
  }

  /**
   * Creates the input as a set-up says, with its first rows.
   *
   * @param warehouse the warehouse
   * @param setup the set-up
   * @return the steps over it, with the model of its first snapshot
   */
  static InputSteps create(TestWarehouse warehouse, History.Setup setup) {
    Map<String, String> properties = new HashMap<>();
    properties.put("format-version", String.valueOf(setup.formatVersion()));
    for (String mode : List.of("write.delete.mode", "write.update.mode", "write.merge.mode")) {
      properties.put(mode, setup.writeMode());
    }
    if (setup.equalityDeletes()) {
      properties.put(RowEdits.DELETE_KIND_PROPERTY, "equality");
    }
    PartitionSpec spec = setup.partitioned() ? PartitionSpec.builderFor(SCHEMA).bucket("id", 2).build()
        : PartitionSpec.unpartitioned();
    InputModel model = new InputModel(columns(SCHEMA));
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < setup.rows(); i++) {
      long id = model.newId();
      rows.add(Row.of(id, "a" + id, model.clock()));
    }
    Table table = warehouse.createTable(Downstream.INPUT, SCHEMA, spec, properties, rows);
    model.columns(columns(table.schema()));
    InputSteps steps = new InputSteps(warehouse, model);
    for (Row row : rows) {
      long id = (Long) row.get(0);
      model.put(id, steps.newRow(id, "a" + id, model.clock()));
    }
    steps.committed(table.currentSnapshot());
    steps.checkRows(table);
    model.tick();
    return steps;
  }

  InputModel model() {
    return model;
  }

  /** The input, freshly loaded. */
  Table table() {
    return warehouse.table(Downstream.INPUT);
  }

  /** A short name of a snapshot for the words of a history: {@code s1}, {@code s2}, in commit order. */
  String label(long snapshotId) {
    Integer label = labels.get(snapshotId);
    return label == null ? String.valueOf(snapshotId) : "s" + label;
  }

  /**
   * Runs a step that changes the input.
   *
   * @param step the step; not a build
   * @return what it did
   */
  String apply(Step step) {
    String words;
    if (step instanceof Step.Append append) {
      words = append(append.rows());
    } else if (step instanceof Step.Upsert upsert) {
      words = upsert(upsert.picks(), upsert.inserts());
    } else if (step instanceof Step.LateUpsert late) {
      words = lateUpsert(late.pick());
    } else if (step instanceof Step.Delete delete) {
      words = delete(delete.picks());
    } else if (step instanceof Step.Overwrite overwrite) {
      words = overwrite(overwrite.pick());
    } else if (step instanceof Step.Compact) {
      words = compact();
    } else if (step instanceof Step.ExpireAllButCurrent) {
      words = expireAllButCurrent();
    } else if (step instanceof Step.ExpireLastRead) {
      words = expireLastRead();
    } else if (step instanceof Step.ExpireBeforeLastRead) {
      words = expireBeforeLastRead();
    } else if (step instanceof Step.Rollback rollback) {
      words = rollback(rollback.back());
    } else if (step instanceof Step.AddColumn) {
      words = addColumn();
    } else if (step instanceof Step.RenameColumn) {
      words = renameColumn();
    } else if (step instanceof Step.DropColumn) {
      words = dropColumn();
    } else {
      throw new IllegalArgumentException("Not an input step: " + step);
    }
    model.tick();
    return words;
  }

  // ---- edits

  private String append(int count) {
    Table table = table();
    long before = table.currentSnapshot().snapshotId();
    List<Record> records = new ArrayList<>();
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      long id = model.newId();
      Map<Integer, Object> row = newRow(id, "a" + id, model.clock());
      model.put(id, row);
      records.add(record(table, row));
      ids.add(id);
    }
    RowEdits.on(table).append(records);
    return "append ids " + join(ids) + observe(before, Kind.APPENDS);
  }

  private String upsert(List<Integer> picks, int inserts) {
    Table table = table();
    long before = table.currentSnapshot().snapshotId();
    List<Long> updated = pick(picks);
    List<Long> inserted = new ArrayList<>();
    List<Record> records = new ArrayList<>();
    for (long id : updated) {
      Map<Integer, Object> row = newRow(id, "u" + model.clock(), model.clock());
      model.put(id, row);
      records.add(record(table, row));
    }
    for (int i = 0; i < inserts; i++) {
      long id = model.newId();
      Map<Integer, Object> row = newRow(id, "u" + model.clock(), model.clock());
      model.put(id, row);
      records.add(record(table, row));
      inserted.add(id);
    }
    if (records.isEmpty()) {
      return "upsert: skipped (no row to update and none to insert)";
    }
    RowEdits.on(table).upsert(records, List.of("id"));
    return "upsert " + (updated.isEmpty() ? "" : "updating ids " + join(updated))
        + (updated.isEmpty() || inserted.isEmpty() ? "" : ", ") + (inserted.isEmpty() ? "" : "inserting ids " + join(inserted))
        + " (seq " + model.clock() + ")" + observe(before, updated.isEmpty() ? Kind.ADDS : Kind.EDITS);
  }

  private String lateUpsert(int pick) {
    List<Long> ids = model.ids();
    if (ids.isEmpty()) {
      return "late upsert: skipped (no row)";
    }
    Table table = table();
    long before = table.currentSnapshot().snapshotId();
    long id = ids.get(pick % ids.size());
    int seqField = model.column("seq").orElseThrow().fieldId();
    long seq = (Long) model.rows().get(id).get(seqField) - 1;
    Map<Integer, Object> row = newRow(id, "late" + model.clock(), seq);
    model.put(id, row);
    model.lateChange();
    RowEdits.on(table).upsert(List.of(record(table, row)), List.of("id"));
    return "late upsert of id " + id + " with seq " + seq + ", lower than the row's" + observe(before, Kind.EDITS);
  }

  private String delete(List<Integer> picks) {
    List<Long> ids = pick(picks);
    if (ids.isEmpty()) {
      return "delete: skipped (no row)";
    }
    Table table = table();
    long before = table.currentSnapshot().snapshotId();
    ids.forEach(model::remove);
    RowEdits.on(table).delete(Expressions.in("id", ids.toArray()));
    return "delete ids " + join(ids) + observe(before, Kind.EDITS);
  }

  private String overwrite(int pick) {
    List<Long> ids = model.ids();
    if (ids.isEmpty()) {
      return "overwrite: skipped (no row)";
    }
    Table table = table();
    long before = table.currentSnapshot().snapshotId();
    long from = ids.get(pick % ids.size());
    List<Long> kept = new ArrayList<>();
    List<Long> dropped = new ArrayList<>();
    List<Record> records = new ArrayList<>();
    int position = 0;
    for (long id : ids) {
      if (id < from) {
        continue;
      }
      if (position++ % 2 == 0) {
        Map<Integer, Object> row = newRow(id, "o" + model.clock(), model.clock());
        model.put(id, row);
        records.add(record(table, row));
        kept.add(id);
      } else {
        model.remove(id);
        dropped.add(id);
      }
    }
    long added = model.newId();
    Map<Integer, Object> row = newRow(added, "o" + model.clock(), model.clock());
    model.put(added, row);
    records.add(record(table, row));
    RowEdits.on(table).overwrite(records, Expressions.greaterThanOrEqual("id", from));
    return "overwrite ids from " + from + " on: " + (kept.isEmpty() ? "" : "rewrite " + join(kept) + ", ")
        + (dropped.isEmpty() ? "" : "drop " + join(dropped) + ", ") + "add " + added + observe(before, Kind.EDITS);
  }

  // ---- maintenance

  private String compact() {
    Table table = table();
    long before = table.currentSnapshot().snapshotId();
    Compaction compaction = Compaction.plan(table);
    if (compaction.filesToRewrite() == 0) {
      return "compact: nothing to rewrite";
    }
    int files = compaction.filesToRewrite();
    compaction.run();
    return "compact (" + files + " files rewritten)" + observe(before, Kind.MOVES);
  }

  private String expireAllButCurrent() {
    Table table = table();
    table.expireSnapshots().expireOlderThan(System.currentTimeMillis() + 1).retainLast(1).commit();
    return "expire every snapshot but the current one" + expired();
  }

  private String expireLastRead() {
    Optional<Long> read = model.lastBuildRead();
    if (read.isEmpty() || read.get() == model.head() || !model.isKept(read.get())) {
      return "expire the snapshot the last build read: skipped (" + (read.isEmpty() ? "no build yet"
          : read.get() == model.head() ? "it is the current one" : "already expired") + ")";
    }
    table().expireSnapshots().expireSnapshotId(read.get()).commit();
    return "expire the snapshot the last build read, " + label(read.get()) + expired();
  }

  private String expireBeforeLastRead() {
    Optional<Long> read = model.lastBuildRead();
    if (read.isEmpty() || !model.isKept(read.get())) {
      return "expire the snapshots older than the one the last build read: skipped ("
          + (read.isEmpty() ? "no build yet" : "it expired") + ")";
    }
    Table table = table();
    table.expireSnapshots().expireOlderThan(table.snapshot(read.get()).timestampMillis()).retainLast(1).commit();
    return "expire the snapshots older than " + label(read.get()) + ", the one the last build read" + expired();
  }

  private String rollback(int back) {
    long target = model.head();
    for (int i = 0; i < back; i++) {
      Long parent = model.snapshot(target).parent();
      if (parent == null || !model.isKept(parent)) {
        return "roll back by " + back + " snapshots: skipped (the history kept is shorter)";
      }
      target = parent;
    }
    if (!model.snapshot(target).schema().equals(model.columns())) {
      // The test reads a rolled-back input with its schema now; the SDK reads a snapshot with its own.
      return "roll back by " + back + " snapshots: skipped (" + label(target) + " has another schema)";
    }
    Table table = table();
    table.manageSnapshots().rollbackTo(target).commit();
    model.rolledBackTo(target);
    checkRows(table());
    return "roll back by " + back + " snapshots, to " + label(target);
  }

  // ---- schema

  private String addColumn() {
    if (model.column("note").isPresent()) {
      return "add column note: skipped (it is there)";
    }
    Table table = table();
    table.updateSchema().addColumn("note", Types.StringType.get()).commit();
    model.columns(columns(table().schema()));
    return "add optional column note";
  }

  private String renameColumn() {
    Optional<String> text = textColumn();
    if (text.isEmpty()) {
      return "rename the text column: skipped (dropped)";
    }
    String to = text.get().equals("name") ? "label" : "name";
    table().updateSchema().renameColumn(text.get(), to).commit();
    model.columns(columns(table().schema()));
    return "rename column " + text.get() + " to " + to;
  }

  private String dropColumn() {
    Optional<String> column = model.column("note").map(InputModel.Column::name).or(this::textColumn);
    if (column.isEmpty()) {
      return "drop a column: skipped (only id and seq are left)";
    }
    table().updateSchema().deleteColumn(column.get()).commit();
    model.columns(columns(table().schema()));
    return "drop column " + column.get();
  }

  // ---- the model

  /**
   * What a step's commit may be: an append, rows added only (by an upsert that matched no row), rows moved
   * between files only, or rows edited.
   */
  private enum Kind { APPENDS, ADDS, MOVES, EDITS }

  /**
   * Records the snapshot a step committed (if any) and checks its operation and rows.
   *
   * @return the snapshot and operation, in words
   */
  private String observe(long before, Kind kind) {
    Table table = table();
    Snapshot now = table.currentSnapshot();
    if (now.snapshotId() == before) {
      checkRows(table);
      return " (no snapshot: nothing changed)";
    }
    if (now.parentId() == null || now.parentId() != before) {
      throw new Mismatch("input commit", "snapshot " + now.snapshotId() + " has parent " + now.parentId()
          + ", not the head before the step, " + before);
    }
    String operation = now.operation();
    boolean fits = switch (kind) {
      case APPENDS -> operation.equals("append");
      case ADDS -> operation.equals("append") || operation.equals("overwrite");
      case MOVES -> operation.equals("replace");
      case EDITS -> !operation.equals("append") && !operation.equals("replace");
    };
    if (!fits) {
      throw new Mismatch("input commit", "a step that " + kind.name().toLowerCase(Locale.ROOT) + " rows committed '"
          + operation + "'");
    }
    committed(now);
    checkRows(table);
    return " -> " + label(now.snapshotId()) + " '" + operation + "'";
  }

  private void committed(Snapshot snapshot) {
    labels.put(snapshot.snapshotId(), labels.size() + 1);
    model.committed(snapshot.snapshotId(), snapshot.parentId(), snapshot.operation(), snapshot.sequenceNumber());
  }

  private String expired() {
    Set<Long> now = StreamSupport.stream(table().snapshots().spliterator(), false).map(Snapshot::snapshotId)
        .collect(Collectors.toSet());
    Set<String> gone = new TreeSet<>();
    for (long id : labels.keySet()) {
      if (model.isKept(id) && !now.contains(id)) {
        gone.add(label(id));
      }
    }
    model.keepOnly(now);
    checkRows(table());
    return gone.isEmpty() ? " (nothing expired)" : " (" + String.join(", ", gone) + " expired)";
  }

  /** Checks that the input holds the model's rows. */
  void checkRows(Table table) {
    List<String> actual = TableContents.sorted(TableContents.read(table).rows(), Set.of());
    List<String> expected = TableContents.sorted(expectedRows(model.columns()).rows(), Set.of());
    if (!actual.equals(expected)) {
      throw new Mismatch("input rows", "the input does not hold the rows the steps wrote\n"
          + TableContents.difference("the model", expected, "the input", actual));
    }
  }

  /** The model's rows under some columns, by name; a column a row has no value for is null. */
  TableContents.Rows expectedRows(List<InputModel.Column> columns) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Map<Integer, Object> row : model.rows().values()) {
      Map<String, Object> named = new TreeMap<>();
      for (InputModel.Column column : columns) {
        named.put(column.name(), row.get(column.fieldId()));
      }
      rows.add(named);
    }
    return new TableContents.Rows(columns.stream().map(InputModel.Column::name)
        .collect(Collectors.toCollection(TreeSet::new)), rows);
  }

  /** A new version of a row: its id, a text, a sequence value, and a note when the column exists. */
  private Map<Integer, Object> newRow(long id, String text, long seq) {
    Map<Integer, Object> row = new HashMap<>();
    row.put(model.column("id").orElseThrow().fieldId(), id);
    textColumn().flatMap(model::column).ifPresent(c -> row.put(c.fieldId(), text));
    row.put(model.column("seq").orElseThrow().fieldId(), seq);
    model.column("note").ifPresent(c -> row.put(c.fieldId(), "n" + model.clock()));
    return row;
  }

  private Record record(Table table, Map<Integer, Object> row) {
    Record record = GenericRecord.create(table.schema());
    for (Types.NestedField field : table.schema().columns()) {
      record.setField(field.name(), row.get(field.fieldId()));
    }
    return record;
  }

  private Optional<String> textColumn() {
    return model.column("name").or(() -> model.column("label")).map(InputModel.Column::name);
  }

  private List<Long> pick(List<Integer> picks) {
    List<Long> ids = model.ids();
    if (ids.isEmpty()) {
      return List.of();
    }
    return picks.stream().map(p -> ids.get(p % ids.size())).distinct().sorted().toList();
  }

  private static List<InputModel.Column> columns(Schema schema) {
    return schema.columns().stream().map(f -> new InputModel.Column(f.fieldId(), f.name())).toList();
  }

  private static String join(List<Long> ids) {
    return ids.stream().map(String::valueOf).collect(Collectors.joining(", "));
  }
}
