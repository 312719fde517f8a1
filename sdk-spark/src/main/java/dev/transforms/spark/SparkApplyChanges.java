package dev.transforms.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import dev.transforms.runtime.spi.KeyFold;
import java.io.Serializable;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Applies an input's changes to an output keyed by some columns, as slowly changing dimensions of type 1
 * (the latest row of each key) or type 2 (every version, with {@code valid_from}, {@code valid_to} and
 * {@code is_current}): the Spark counterpart of the single-node {@code ApplyChanges}, with the same
 * semantics. Changes apply in the input's commit order and, within a commit, in the order of the
 * sequence column; a change older than a key's current row is ignored; a change equal to the current row
 * changes nothing. Validity times are the commit times of the input's snapshots.
 *
 * <pre>{@code
 * @Transform
 * @Incremental(changes = true)
 * public void history(SparkTransformContext ctx, @TableInput("/crm/customers") TableTransformInput customers,
 *     @TableOutput("/crm/customers-history") TableTransformOutput history) {
 *   SparkApplyChanges.scd2("id").sequenceBy("updated_at").applyTo(ctx, customers, history);
 * }
 * }</pre>
 *
 * <p>On a full build the output is written from the changes alone; on an incremental build the current
 * rows of the keys a change altered are deleted and their rows after the changes inserted, two commits
 * of the build's staging branch that publish together. Each key's changes are folded on an executor.
 */
public final class SparkApplyChanges implements Serializable {

  private static final long serialVersionUID = 1L;
  private static final String EXISTING = "_apply_existing";
  private static final String AT = "_apply_at";
  private static final String CHANGED = "_apply_changed";
  private static final String ROW = "_apply_row";

  private final boolean history;
  private final List<String> keys;
  private final String sequence;
  private final String validFrom;
  private final String validTo;
  private final String isCurrent;

  private SparkApplyChanges(boolean history, List<String> keys, String sequence, String validFrom, String validTo,
      String isCurrent) {
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
  public static SparkApplyChanges scd1(String... keys) {
    return new SparkApplyChanges(false, List.of(keys), null, "valid_from", "valid_to", "is_current");
  }

  /**
   * Slowly changing dimension type 2: every version of each key, with its validity.
   *
   * @param keys the columns that identify a row
   * @return the settings
   */
  public static SparkApplyChanges scd2(String... keys) {
    return new SparkApplyChanges(true, List.of(keys), null, "valid_from", "valid_to", "is_current");
  }

  /**
   * Orders changes within a commit by a column, and ignores changes older than a key's current row.
   *
   * @param column a column of the input
   * @return new settings
   */
  public SparkApplyChanges sequenceBy(String column) {
    return new SparkApplyChanges(history, keys, column, validFrom, validTo, isCurrent);
  }

  /**
   * Names the three history columns of type 2.
   *
   * @param from the column of the time a version became valid
   * @param to the column of the time it stopped being valid
   * @param current the column that marks the current version
   * @return new settings
   */
  public SparkApplyChanges historyColumns(String from, String to, String current) {
    return new SparkApplyChanges(history, keys, sequence, from, to, current);
  }

  /**
   * Applies the input's changes for this build ({@link TableTransformInput#changes(String...)}) to the
   * output.
   *
   * @param context the transform's context
   * @param input the input whose changes are applied
   * @param output the dimension
   */
  public void applyTo(SparkTransformContext context, TableTransformInput input, TableTransformOutput output) {
    SparkSession spark = context.sparkSession();
    Dataset<Row> changes = input.changes(keys.toArray(String[]::new))
        .where(col("_change_type").notEqual(lit("UPDATE_BEFORE")));
    String[] columns = input.dataframe().columns();
    if (sequence != null && !List.of(columns).contains(sequence)) {
      throw new IllegalArgumentException("Sequence column '" + sequence + "' is not a column of input "
          + input.identifier() + "; columns: " + List.of(columns));
    }
    changes = changes.join(commitTimes(spark, input), "_commit_snapshot_id");
    StructType out = outputSchema(input.dataframe().schema());
    boolean incremental = context.isIncremental() && spark.catalog().tableExists(output.identifier());
    Dataset<Row> events = events(changes, out, false);
    if (incremental) {
      addNewColumns(spark, output.identifier(), out);
      List<Column> renamed = new ArrayList<>();
      for (int i = 0; i < keys.size(); i++) {
        renamed.add(col(quote(keys.get(i))).as("_apply_key" + i));
      }
      Dataset<Row> touched = changes.select(renamed.toArray(Column[]::new)).distinct();
      Dataset<Row> current = spark.table(output.identifier());
      if (history) {
        current = current.where(col(quote(isCurrent)));
      }
      Column same = null;
      for (int i = 0; i < keys.size(); i++) {
        Column one = current.col(quote(keys.get(i))).eqNullSafe(touched.col("_apply_key" + i));
        same = same == null ? one : same.and(one);
      }
      events = events.unionByName(events(current.join(touched, same, "left_semi"), out, true));
    }
    StructType folded = out.add(CHANGED, DataTypes.BooleanType).add(ROW, DataTypes.BooleanType);
    Dataset<Row> result = events.repartition(keyColumns())
        .sortWithinPartitions(sortColumns())
        .mapPartitions((MapPartitionsFunction<Row, Row>) rows -> fold(rows, columns, out), Encoders.row(folded));
    if (!incremental) {
      output.writeDataFrame(result.where(col(ROW)).drop(CHANGED, ROW));
      return;
    }
    // Materialized once: the DELETE reads the changed keys, the append their rows.
    result = result.where(col(CHANGED)).localCheckpoint();
    String view = "transforms_applied_changes_" + Long.toHexString(System.nanoTime());
    try {
      result.createOrReplaceTempView(view);
      String keyList = String.join(", ", keys.stream().map(SparkApplyChanges::quote).toList());
      spark.sql("DELETE FROM " + output.identifier() + " WHERE " + (history ? quote(isCurrent) + " AND " : "")
          + "(" + keyList + ") IN (SELECT " + keyList + " FROM " + view + ")");
      result.where(col(ROW)).drop(CHANGED, ROW).writeTo(output.identifier()).append();
    } catch (org.apache.spark.sql.catalyst.analysis.NoSuchTableException e) {
      throw new IllegalStateException("Output " + output.identifier() + " disappeared while changes were applied", e);
    } finally {
      spark.catalog().dropTempView(view);
    }
  }

  /**
   * Gives the output the input's columns it lacks: an incremental build may follow one that gained
   * optional columns, which a full build writes. Like any {@code ALTER TABLE} of an output in a build, the
   * change is staged and held to the output's schema-change policy when the build publishes (the default,
   * {@code fail}, fails the build naming the columns).
   */
  private static void addNewColumns(SparkSession spark, String identifier, StructType wanted) {
    List<String> has = List.of(spark.table(identifier).columns());
    List<String> missing = new ArrayList<>();
    for (StructField field : wanted.fields()) {
      if (!has.contains(field.name())) {
        missing.add(quote(field.name()) + " " + field.dataType().sql());
      }
    }
    if (!missing.isEmpty()) {
      spark.sql("ALTER TABLE " + identifier + " ADD COLUMNS (" + String.join(", ", missing) + ")");
    }
  }

  private StructType outputSchema(StructType input) {
    if (!history) {
      return input;
    }
    return input.add(validFrom, DataTypes.TimestampType).add(validTo, DataTypes.TimestampType)
        .add(isCurrent, DataTypes.BooleanType);
  }

  private Column[] keyColumns() {
    return keys.stream().map(k -> col(quote(k))).toArray(Column[]::new);
  }

  private Column[] sortColumns() {
    List<Column> order = new ArrayList<>();
    keys.forEach(k -> order.add(col(quote(k))));
    order.add(col(EXISTING).desc());
    order.add(col("_change_ordinal"));
    if (sequence != null) {
      order.add(col(quote(sequence)).asc_nulls_first());
    }
    return order.toArray(Column[]::new);
  }

  /** Changes or existing rows, laid out alike: the output's columns and the fold's. */
  private Dataset<Row> events(Dataset<Row> rows, StructType out, boolean existing) {
    List<Column> selected = new ArrayList<>();
    for (StructField field : out.fields()) {
      boolean inInput = List.of(rows.columns()).contains(field.name());
      selected.add(inInput ? col(quote(field.name())) : lit(null).cast(field.dataType()).as(field.name()));
    }
    selected.add(existing ? lit("EXISTING").as("_change_type") : col("_change_type"));
    selected.add(existing ? lit(-1).as("_change_ordinal") : col("_change_ordinal"));
    selected.add(existing ? lit(null).cast(DataTypes.TimestampType).as(AT) : col(AT));
    selected.add(lit(existing).as(EXISTING));
    return rows.select(selected.toArray(Column[]::new));
  }

  private static Dataset<Row> commitTimes(SparkSession spark, TableTransformInput input) {
    Table table = ((TableInputHandle) input).table();  // the handle the engine gave
    List<Row> rows = new ArrayList<>();
    for (Snapshot snapshot : table.snapshots()) {
      rows.add(RowFactory.create(snapshot.snapshotId(), new Timestamp(snapshot.timestampMillis())));
    }
    StructType schema = new StructType().add("_commit_snapshot_id", DataTypes.LongType)
        .add(AT, DataTypes.TimestampType);
    return spark.createDataFrame(rows, schema);
  }

  /** Folds each key's events, in order, onto its existing rows; emits the rows of every key seen. */
  private Iterator<Row> fold(Iterator<Row> events, String[] columns, StructType out) {
    KeyFold rules = new KeyFold(history, columns.length, sequence == null ? -1 : List.of(columns).indexOf(sequence));
    int width = out.fields().length;
    int typeIndex = width;
    int atIndex = typeIndex + 2;
    List<Row> emitted = new ArrayList<>();
    List<Object> key = null;
    KeyFold.Key rows = null;
    while (events.hasNext()) {
      Row event = events.next();
      List<Object> eventKey = new ArrayList<>();
      keys.forEach(k -> eventKey.add(event.get(out.fieldIndex(k))));
      if (!eventKey.equals(key)) {
        emit(emitted, key, rows, out);
        key = eventKey;
        rows = new KeyFold.Key();
      }
      Object[] values = new Object[width];
      for (int i = 0; i < width; i++) {
        values[i] = event.get(i);
      }
      String type = event.getString(typeIndex);
      if (type.equals("EXISTING")) {
        rows.addExisting(values, true);
      } else {
        rules.apply(rows, type, values, event.get(atIndex));
      }
    }
    emit(emitted, key, rows, out);
    return emitted.iterator();
  }

  /**
   * Emits a key's rows, each marked changed or not; a changed key left without a row emits one row that
   * holds its key only, marked as no row, so that its old rows are deleted.
   */
  private void emit(List<Row> emitted, List<Object> key, KeyFold.Key rows, StructType out) {
    if (key == null) {
      return;
    }
    int width = out.fields().length;
    for (Object[] version : rows.versions()) {
      Object[] row = new Object[width + 2];
      System.arraycopy(version, 0, row, 0, width);
      row[width] = rows.changed();
      row[width + 1] = true;
      emitted.add(RowFactory.create(row));
    }
    if (rows.versions().isEmpty() && rows.changed()) {
      Object[] row = new Object[width + 2];
      for (int i = 0; i < keys.size(); i++) {
        row[out.fieldIndex(keys.get(i))] = key.get(i);
      }
      row[width] = true;
      row[width + 1] = false;
      emitted.add(RowFactory.create(row));
    }
  }

  private static String quote(String column) {
    return "`" + column.replace("`", "``") + "`";
  }

  /** For tests: the settings, as text. */
  @Override
  public String toString() {
    return (history ? "SCD2" : "SCD1") + " by " + keys + Optional.ofNullable(sequence).map(s -> ", sequence " + s)
        .orElse("");
  }
}
