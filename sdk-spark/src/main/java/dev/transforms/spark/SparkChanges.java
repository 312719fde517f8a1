package dev.transforms.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import dev.transforms.runtime.spi.ChangeRange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The row changes of an Iceberg table between two snapshots, as a Spark frame with the columns of
 * Iceberg's {@code create_changelog_view}: the table's columns, {@code _change_type} ({@code INSERT},
 * {@code DELETE}, {@code UPDATE_BEFORE}, {@code UPDATE_AFTER}), {@code _change_ordinal} and
 * {@code _commit_snapshot_id}.
 *
 * <p>Iceberg's changelog scan, which {@code create_changelog_view} runs, refuses snapshots with delete
 * files. This reads any table, copy-on-write or merge-on-read: a snapshot's deleted rows are the rows
 * of its parent whose file and position ({@code _file}, {@code _pos}) are no longer live in it, and its
 * inserted rows the reverse; rows a rewrite carried over unchanged are dropped, and with identifier
 * columns a deleted and an inserted row of one key become an update. Compactions ({@code replace})
 * change no row and are skipped, except the oldest snapshot kept after an expiry, which inserts every
 * row it holds whatever its operation. The same semantics as the single-node {@code Changelog}: both read
 * the history through {@code ChangeRange}.
 *
 * <p>However many snapshots the range holds, the changes are one plan of three shuffles: the rows of every
 * step, before and after it, are windowed by position (live on one side only), by their values (a
 * carried-over copy cancels) and by key (updates).
 */
public final class SparkChanges {

  /** The side of its step a row is on: live before the step only. */
  private static final int DELETED = -1;
  /** Live after the step only. */
  private static final int INSERTED = 1;
  private static final String SIDE = "_changes_side";

  private SparkChanges() {}

  /**
   * The changes after {@code fromExclusive} up to {@code toInclusive}.
   *
   * @param session the session
   * @param identifier the table's Spark identifier
   * @param table the table, for its history
   * @param fromExclusive the last snapshot already seen; empty for the whole history still kept (when
   *     older snapshots have expired, the oldest kept counts as inserting all its rows)
   * @param toInclusive the last snapshot to include; -1 for a table without snapshots
   * @param identifierColumns columns that pair a delete and an insert into an update; none for no pairing
   * @return the changes
   * @throws dev.transforms.api.TransformsException if the start is no longer in the history of the end
   */
  public static Dataset<Row> between(SparkSession session, String identifier, Table table, OptionalLong fromExclusive,
      long toInclusive, List<String> identifierColumns) {
    List<ChangeRange.Step> steps = toInclusive < 0 && table.currentSnapshot() == null ? List.of()
        : ChangeRange.steps(table, fromExclusive, toInclusive);
    StructType current = session.table(identifier).schema();
    String[] columns = current.fieldNames();
    if (steps.isEmpty()) {
      return session.table(identifier).limit(0)
          .withColumn("_change_type", lit("INSERT"))
          .withColumn("_change_ordinal", lit(0))
          .withColumn("_commit_snapshot_id", lit(0L));
    }
    // Every step's rows before and after it, in one frame: the three windows below then each shuffle
    // once for all steps (a frame per step, joined and unioned, planned hundreds of stages).
    Dataset<Row> sides = null;
    for (ChangeRange.Step step : steps) {
      Dataset<Row> after = side(TableReads.atSnapshot(session, identifier, step.snapshot().snapshotId()), current,
          INSERTED, step);
      sides = sides == null ? after : sides.unionByName(after);
      if (step.comparedWith().isPresent()) {
        sides = sides.unionByName(side(TableReads.atSnapshot(session, identifier, step.comparedWith().getAsLong()),
            current, DELETED, step));
      }
    }
    return label(carriedOverDropped(positionsOnOneSide(sides), columns), identifierColumns, columns)
        .select(outputColumns(columns));
  }

  /**
   * A snapshot's rows in the table's current columns, with their file and position, which side of the
   * step they are on, and the step. Spark 4.1 reads an older snapshot in the schema it was written with
   * (3.5 in the current one): a column added since reads as null, as it does in the current snapshot's
   * older files, and every column takes its current type.
   */
  private static Dataset<Row> side(Dataset<Row> frame, StructType current, int side, ChangeRange.Step step) {
    Set<String> present = Set.of(frame.columns());
    List<Column> selected = new ArrayList<>();
    for (StructField field : current.fields()) {
      Column value = present.contains(field.name()) ? col(quote(field.name())) : lit(null);
      selected.add(value.cast(field.dataType()).as(field.name()));
    }
    selected.add(col("_file"));
    selected.add(col("_pos"));
    selected.add(lit(side).as(SIDE));
    selected.add(lit(step.ordinal()).as("_change_ordinal"));
    selected.add(lit(step.snapshot().snapshotId()).as("_commit_snapshot_id"));
    return frame.select(selected.toArray(Column[]::new));
  }

  /**
   * The rows whose file and position are live on one side of their step only: deleted before it, or
   * inserted by it. A file never changes, so a position live on both sides is the same row.
   */
  private static Dataset<Row> positionsOnOneSide(Dataset<Row> sides) {
    WindowSpec position = Window.partitionBy(col("_change_ordinal"), col("_file"), col("_pos"));
    return sides.withColumn("_changes_live", count(lit(1)).over(position))
        .where(col("_changes_live").equalTo(1))
        .drop("_changes_live");
  }

  /**
   * Drops the rows a rewrite carried over: within a step, a deleted row equal in every column to an
   * inserted one cancels it, copy for copy (a multiset difference; nulls equal nulls).
   */
  private static Dataset<Row> carriedOverDropped(Dataset<Row> rows, String[] columns) {
    List<Column> content = new ArrayList<>();
    content.add(col("_change_ordinal"));
    Arrays.stream(columns).map(c -> col(quote(c))).forEach(content::add);
    WindowSpec same = Window.partitionBy(content.toArray(Column[]::new));
    List<Column> sameOnSide = new ArrayList<>(content);
    sameOnSide.add(col(SIDE));
    WindowSpec copies = Window.partitionBy(sameOnSide.toArray(Column[]::new)).orderBy(col("_file"), col("_pos"));
    Column deleted = col(SIDE).equalTo(DELETED);
    Column others = when(deleted, sum(when(col(SIDE).equalTo(INSERTED), 1).otherwise(0)).over(same))
        .otherwise(sum(when(deleted, 1).otherwise(0)).over(same));
    return rows.withColumn("_changes_copy", row_number().over(copies))
        .withColumn("_changes_others", others)
        .where(col("_changes_copy").gt(col("_changes_others")))
        .drop("_changes_copy", "_changes_others");
  }

  /** Deletes and inserts, paired into updates where a key has both within a step. */
  private static Dataset<Row> label(Dataset<Row> rows, List<String> keys, String[] columns) {
    Column deleted = col(SIDE).equalTo(DELETED);
    if (keys.isEmpty()) {
      return rows.withColumn("_change_type", when(deleted, lit("DELETE")).otherwise(lit("INSERT")));
    }
    List<Column> key = new ArrayList<>();
    key.add(col("_change_ordinal"));
    keys.stream().map(k -> col(quote(k))).forEach(key::add);
    WindowSpec sameKey = Window.partitionBy(key.toArray(Column[]::new));
    Column keyDeleted = max(when(deleted, 1).otherwise(0)).over(sameKey).equalTo(1);
    Column keyInserted = max(when(deleted, 0).otherwise(1)).over(sameKey).equalTo(1);
    Column type = when(deleted, when(keyInserted, lit("UPDATE_BEFORE")).otherwise(lit("DELETE")))
        .otherwise(when(keyDeleted, lit("UPDATE_AFTER")).otherwise(lit("INSERT")));
    return rows.withColumn("_change_type", type);
  }

  private static Column[] outputColumns(String[] columns) {
    List<Column> out = new ArrayList<>();
    Arrays.stream(columns).map(c -> col(quote(c))).forEach(out::add);
    out.add(col("_change_type"));
    out.add(col("_change_ordinal"));
    out.add(col("_commit_snapshot_id"));
    return out.toArray(Column[]::new);
  }

  private static String quote(String column) {
    return "`" + column.replace("`", "``") + "`";
  }
}
