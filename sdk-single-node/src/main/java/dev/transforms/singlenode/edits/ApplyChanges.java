package dev.transforms.singlenode.edits;

import dev.transforms.runtime.spi.KeyFold;
import dev.transforms.singlenode.Changelog.Change;
import dev.transforms.singlenode.Changelog;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import dev.transforms.singlenode.arrow.ArrowRecords;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Applies a table's changes to an output keyed by some columns, as slowly changing dimensions: type 1
 * keeps the latest row of each key (a deleted key is removed), type 2 keeps every version of each key
 * with the time it was valid. The single-node counterpart of Spark Declarative Pipelines' AUTO CDC.
 *
 * <pre>{@code
 * @Transform
 * @Incremental(changes = true)
 * public void customers(@TableInput("/crm/customers") IcebergInput source,
 *     @TableOutput("/crm/customers_history") IcebergOutput history, SingleNodeTransformContext ctx) {
 *   ApplyChanges.scd2("id").sequenceBy("updated_at").applyTo(ctx, history, source.changes());
 * }
 * }</pre>
 *
 * <p>Semantics:
 * <ul>
 *   <li>Changes apply in the order of the input's commits; within one commit, and when a sequence
 *       column is named, in its order. A change whose sequence value is lower than the key's current
 *       row's (a late arrival) is ignored, so a replayed or out-of-order change never overwrites a
 *       newer row. A change that repeats the key's current row changes nothing.
 *   <li>Type 1: the output has the input's columns; a key's row is its last inserted or updated row,
 *       and a deleted key has no row. Deletes are not remembered beyond the output: a change older
 *       than a delete applied by an earlier build inserts the key again.
 *   <li>Type 2: the output has the input's columns and three more, {@code valid_from},
 *       {@code valid_to} ({@code timestamptz}: the commit times of the input snapshots that made and
 *       ended the version; {@code valid_to} is null for the current version) and {@code is_current}
 *       (names set with {@link #historyColumns}). An update closes the current version and opens a
 *       new one; a delete closes it.
 *   <li>On a full build, the output is written from the changes alone (an input's whole history, see
 *       {@code IcebergInput.changes()}); on an incremental build, only the keys the changes touch are
 *       rewritten, in one commit of the build's staging branch. Both give the same rows.
 * </ul>
 */
public final class ApplyChanges {

  private final boolean history;
  private final List<String> keys;
  private final Optional<String> sequence;
  private final String validFrom;
  private final String validTo;
  private final String isCurrent;

  private ApplyChanges(boolean history, List<String> keys, Optional<String> sequence, String validFrom,
      String validTo, String isCurrent) {
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("Applying changes needs at least one key column");
    }
    this.history = history;
    this.keys = List.copyOf(keys);
    this.sequence = sequence;
    this.validFrom = validFrom;
    this.validTo = validTo;
    this.isCurrent = isCurrent;
  }

  /**
   * Slowly changing dimension type 1: the latest row of each key.
   *
   * @param keys the columns that identify a row
   * @return the settings
   */
  public static ApplyChanges scd1(String... keys) {
    return new ApplyChanges(false, List.of(keys), Optional.empty(), "valid_from", "valid_to", "is_current");
  }

  /**
   * Slowly changing dimension type 2: every version of each key, with its validity.
   *
   * @param keys the columns that identify a row
   * @return the settings
   */
  public static ApplyChanges scd2(String... keys) {
    return new ApplyChanges(true, List.of(keys), Optional.empty(), "valid_from", "valid_to", "is_current");
  }

  /**
   * Orders changes within a commit by a column, and ignores changes older than a key's current row.
   *
   * @param column a column of the input, such as {@code updated_at}
   * @return new settings
   */
  public ApplyChanges sequenceBy(String column) {
    return new ApplyChanges(history, keys, Optional.of(column), validFrom, validTo, isCurrent);
  }

  /**
   * Names the three history columns of type 2.
   *
   * @param from the column of the time a version became valid ({@code valid_from})
   * @param to the column of the time it stopped being valid ({@code valid_to})
   * @param current the column that marks the current version ({@code is_current})
   * @return new settings
   */
  public ApplyChanges historyColumns(String from, String to, String current) {
    return new ApplyChanges(history, keys, sequence, from, to, current);
  }

  /**
   * The output's schema for an input's schema: the input's columns, and for type 2 the history columns.
   *
   * @param input the input's schema
   * @return the output's schema
   */
  public Schema outputSchema(Schema input) {
    if (!history) {
      return input;
    }
    List<Types.NestedField> fields = new ArrayList<>(input.columns());
    int next = input.highestFieldId() + 1;
    fields.add(Types.NestedField.optional(next, validFrom, Types.TimestampType.withZone()));
    fields.add(Types.NestedField.optional(next + 1, validTo, Types.TimestampType.withZone()));
    fields.add(Types.NestedField.optional(next + 2, isCurrent, Types.BooleanType.get()));
    return new Schema(fields);
  }

  /**
   * Applies changes to a transform's output: written whole on a full build, edited by key on an
   * incremental one.
   *
   * @param context the transform's context
   * @param output the output
   * @param changes the input's changes, such as {@code input.changes()}
   * @return what was applied
   */
  public AppliedChanges applyTo(SingleNodeTransformContext context, IcebergOutput output, Changelog changes) {
    Optional<Table> table = output.table();
    if (context.isIncremental() && table.isPresent()) {
      addNewColumns(table.get(), outputSchema(changes.table().schema()));
      return applyTo(RowEdits.on(table.get()), changes);
    }
    Schema schema = outputSchema(changes.table().schema());
    Result result = fold(changes, changes.changes(), new LinkedHashMap<>());
    List<Record> rows = new ArrayList<>();
    result.keys.values().forEach(key -> key.versions().forEach(row -> rows.add(record(row, schema))));
    try (VectorSchemaRoot root = ArrowRecords.toRoot(rows, schema, context.allocator())) {
      output.writeTable(root);
    }
    return new AppliedChanges(result.applied, result.ignored, rows.size(), result.keys.size());
  }

  /**
   * Gives an output the input's columns it lacks: an incremental build may follow one that gained
   * optional columns, whose values would otherwise be dropped while a full build keeps them. The output's
   * handle stages the change, which the runtime holds to the output's schema-change policy when the build
   * publishes (the default, {@code fail}, fails the build naming the columns).
   */
  private static void addNewColumns(Table output, Schema wanted) {
    List<Types.NestedField> missing = wanted.columns().stream()
        .filter(column -> output.schema().findField(column.name()) == null).toList();
    if (missing.isEmpty()) {
      return;
    }
    UpdateSchema update = output.updateSchema();
    missing.forEach(column -> update.addColumn(column.name(), column.type(), column.doc()));
    update.commit();
  }

  /** Applies changes by key, on the edits' branch; see {@link RowEdits#applyChanges}. */
  AppliedChanges applyTo(RowEdits edits, Changelog changes) {
    Table target = edits.table();
    List<Change> list = changes.changes();
    List<List<Object>> touched = list.stream().map(c -> keyOf(c.row())).distinct().toList();
    if (touched.isEmpty()) {
      return new AppliedChanges(0, 0, 0, 0);
    }
    Schema schema = target.schema();
    Schema out = outputSchema(changes.table().schema());
    List<String> lacking = out.columns().stream().map(Types.NestedField::name)
        .filter(name -> schema.findField(name) == null).toList();
    if (!lacking.isEmpty()) {
      // Writing the rows in the table's columns would drop these columns' values without a word.
      throw new InvalidRowEditException("Cannot apply the changes of " + changes.table().name() + " to "
          + target.name() + ": the changes carry column" + (lacking.size() == 1 ? " " : "s ")
          + String.join(", ", lacking) + " that the table lacks, and their values would be lost. Add "
          + (lacking.size() == 1 ? "it" : "them") + " first (table.updateSchema().addColumn(...)), or apply the "
          + "changes in a transform (ApplyChanges.applyTo(ctx, output, changes)), whose output takes new columns as "
          + "its schema-change policy says. Nothing was changed.");
    }
    Expression current = history ? Expressions.equal(isCurrent, true) : Expressions.alwaysTrue();
    Map<List<Object>, KeyFold.Key> keyRows = new LinkedHashMap<>();
    // Type 1 reads a key's sequence value only, and only to tell late changes; type 2 closes whole rows.
    if (history || sequence.isPresent()) {
      IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(target).where(Expressions.and(keyFilter(touched), current));
      if (!history) {
        List<String> columns = new ArrayList<>(keys);
        columns.add(sequence.get());
        scan = scan.select(columns);
      }
      try (CloseableIterable<Record> rows = scan.build()) {
        for (Record row : rows) {
          keyRows.computeIfAbsent(keyOf(row), k -> new KeyFold.Key()).addExisting(values(row, out), history);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the rows of " + target.name() + " the changes touch", e);
      }
    }
    Result result = fold(changes, list, keyRows);
    List<Record> written = new ArrayList<>();
    List<List<Object>> changed = new ArrayList<>();
    List<List<Object>> removed = new ArrayList<>();
    result.keys.forEach((key, rows) -> {
      if (rows.changed()) {
        changed.add(key);
        if (rows.versions().isEmpty()) {
          removed.add(key);
        }
        rows.versions().forEach(row -> written.add(relayout(record(row, out), schema)));
      }
    });
    if (history) {
      if (!changed.isEmpty()) {
        edits.overwrite(written, Expressions.and(keyFilter(changed), current));
      }
    } else {
      if (!written.isEmpty()) {
        edits.upsert(written, keys);
      }
      if (!removed.isEmpty()) {
        edits.delete(keyFilter(removed));
      }
    }
    return new AppliedChanges(result.applied, result.ignored, written.size(), touched.size());
  }

  /** Folds the changes, in commit and sequence order, onto each key's existing rows. */
  private Result fold(Changelog changes, List<Change> list, Map<List<Object>, KeyFold.Key> keyRows) {
    Schema input = changes.table().schema();
    int sequenceIndex = sequence.map(column -> columnIndex(input, column)).orElse(-1);
    KeyFold rules = new KeyFold(history, input.columns().size(), sequenceIndex);
    List<Change> ordered = new ArrayList<>(list);
    Comparator<Change> order = Comparator.comparingInt(Change::ordinal);
    if (sequenceIndex >= 0) {
      order = order.thenComparing(c -> (Comparable) c.row().get(sequenceIndex),
          Comparator.nullsFirst(Comparator.naturalOrder()));
    }
    ordered.sort(order);
    long applied = 0;
    long ignored = 0;
    for (Change change : ordered) {
      KeyFold.Key key = keyRows.computeIfAbsent(keyOf(change.row()), k -> new KeyFold.Key());
      Object[] values = values(change.row(), input);
      switch (rules.apply(key, change.type().name(), values, history ? commitTime(changes.table(), change.snapshotId())
          : null)) {
        case APPLIED -> applied++;
        case LATE -> ignored++;
        default -> { }
      }
    }
    return new Result(keyRows, applied, ignored);
  }

  /** A record's values by the schema's column names; columns it lacks are null. */
  private static Object[] values(Record row, Schema schema) {
    List<Types.NestedField> columns = schema.columns();
    Object[] values = new Object[columns.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = row.struct().field(columns.get(i).name()) == null ? null : row.getField(columns.get(i).name());
    }
    return values;
  }

  private static Record record(Object[] values, Schema schema) {
    Record record = GenericRecord.create(schema);
    for (int i = 0; i < values.length; i++) {
      record.set(i, values[i]);
    }
    return record;
  }

  private static Record relayout(Record row, Schema schema) {
    Record laidOut = GenericRecord.create(schema);
    for (Types.NestedField field : schema.columns()) {
      laidOut.setField(field.name(), row.getField(field.name()));
    }
    return laidOut;
  }

  private static OffsetDateTime commitTime(Table table, long snapshotId) {
    return Instant.ofEpochMilli(table.snapshot(snapshotId).timestampMillis()).atOffset(ZoneOffset.UTC);
  }

  private int columnIndex(Schema schema, String column) {
    List<Types.NestedField> columns = schema.columns();
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(column)) {
        return i;
      }
    }
    throw new IllegalArgumentException("Sequence column '" + column + "' is not a column of the input; columns: "
        + columns.stream().map(Types.NestedField::name).toList());
  }

  private List<Object> keyOf(Record row) {
    List<Object> key = new ArrayList<>(keys.size());
    for (String column : keys) {
      key.add(row.getField(column));
    }
    return key;
  }

  private Expression keyFilter(List<List<Object>> touched) {
    if (keys.size() == 1) {
      return Expressions.in(keys.get(0), touched.stream().map(k -> k.get(0)).toArray());
    }
    List<Expression> each = new ArrayList<>();
    for (List<Object> key : touched) {
      Expression one = Expressions.alwaysTrue();
      for (int i = 0; i < keys.size(); i++) {
        one = Expressions.and(one, Expressions.equal(keys.get(i), key.get(i)));
      }
      each.add(one);
    }
    return balancedOr(each, 0, each.size());
  }

  private static Expression balancedOr(List<Expression> each, int from, int to) {
    if (to - from == 1) {
      return each.get(from);
    }
    int middle = (from + to) >>> 1;
    return Expressions.or(balancedOr(each, from, middle), balancedOr(each, middle, to));
  }

  /** The rows of each touched key after the changes, and the counts. */
  private record Result(Map<List<Object>, KeyFold.Key> keys, long applied, long ignored) {}

  /**
   * What applying changes did.
   *
   * @param applied changes that changed a key's rows
   * @param ignored changes older than a key's current row (late arrivals)
   * @param rowsWritten rows written for the touched keys
   * @param keys keys touched
   */
  public record AppliedChanges(long applied, long ignored, long rowsWritten, long keys) {}
}
