package dev.transforms.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.row_number;

import dev.transforms.runtime.spi.ChangeRange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
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
 */
public final class SparkChanges {

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
    Dataset<Row> all = null;
    for (ChangeRange.Step step : steps) {
      Snapshot snapshot = step.snapshot();
      int ordinal = step.ordinal();
      Dataset<Row> after = located(TableReads.atSnapshot(session, identifier, snapshot.snapshotId()), current);
      Dataset<Row> before = step.comparedWith().isEmpty() ? TableReads.emptyLike(session, after)
          : located(TableReads.atSnapshot(session, identifier, step.comparedWith().getAsLong()), current);
      Dataset<Row> deleted = withoutPosition(notIn(before, after), columns);
      Dataset<Row> inserted = withoutPosition(notIn(after, before), columns);
      Dataset<Row> realDeletes = minus(deleted, inserted, columns);
      Dataset<Row> realInserts = minus(inserted, deleted, columns);
      Dataset<Row> changes = label(realDeletes, realInserts, identifierColumns, columns)
          .withColumn("_change_ordinal", lit(ordinal))
          .withColumn("_commit_snapshot_id", lit(snapshot.snapshotId()));
      all = all == null ? changes : all.unionByName(changes);
    }
    if (all == null) {
      Dataset<Row> none = session.table(identifier).limit(0)
          .withColumn("_change_type", lit("INSERT"))
          .withColumn("_change_ordinal", lit(0))
          .withColumn("_commit_snapshot_id", lit(0L));
      return none;
    }
    return all;
  }

  /**
   * A snapshot's rows in the table's current columns, with their file and position. Spark 4.1 reads an
   * older snapshot in the schema it was written with (3.5 in the current one): a column added since reads
   * as null, as it does in the current snapshot's older files, and every column takes its current type.
   */
  private static Dataset<Row> located(Dataset<Row> frame, StructType current) {
    Set<String> present = Set.of(frame.columns());
    List<Column> selected = new ArrayList<>();
    for (StructField field : current.fields()) {
      Column value = present.contains(field.name()) ? col(quote(field.name())) : lit(null);
      selected.add(value.cast(field.dataType()).as(field.name()));
    }
    selected.add(col("_file"));
    selected.add(col("_pos"));
    return frame.select(selected.toArray(Column[]::new));
  }

  private static Dataset<Row> withoutPosition(Dataset<Row> frame, String[] columns) {
    return frame.select(Arrays.stream(columns).map(c -> col(quote(c))).toArray(Column[]::new));
  }

  /** The rows of {@code rows} minus as many equal rows as {@code others} holds (a multiset difference). */
  private static Dataset<Row> minus(Dataset<Row> rows, Dataset<Row> others, String[] columns) {
    Column[] all = Arrays.stream(columns).map(c -> col(quote(c))).toArray(Column[]::new);
    Dataset<Row> left = rows.withColumn("_copy", row_number().over(Window.partitionBy(all).orderBy(lit(1))));
    Dataset<Row> right = others.withColumn("_copy", row_number().over(Window.partitionBy(all).orderBy(lit(1))));
    Column same = left.col("_copy").equalTo(right.col("_copy"));
    for (String column : columns) {
      same = same.and(left.col(quote(column)).eqNullSafe(right.col(quote(column))));
    }
    return left.join(right, same, "left_anti").drop("_copy");
  }

  /** Deletes and inserts, paired into updates where a key has both. */
  private static Dataset<Row> label(Dataset<Row> deletes, Dataset<Row> inserts, List<String> keys, String[] columns) {
    if (keys.isEmpty()) {
      return deletes.withColumn("_change_type", lit("DELETE"))
          .unionByName(inserts.withColumn("_change_type", lit("INSERT")));
    }
    Dataset<Row> deletedKeys = deletes.select(keys.stream().map(k -> col(quote(k))).toArray(Column[]::new));
    Dataset<Row> insertedKeys = inserts.select(keys.stream().map(k -> col(quote(k))).toArray(Column[]::new));
    Dataset<Row> before = semi(deletes, insertedKeys, keys, "left_semi").withColumn("_change_type", lit("UPDATE_BEFORE"));
    Dataset<Row> after = semi(inserts, deletedKeys, keys, "left_semi").withColumn("_change_type", lit("UPDATE_AFTER"));
    Dataset<Row> deleted = semi(deletes, insertedKeys, keys, "left_anti").withColumn("_change_type", lit("DELETE"));
    Dataset<Row> inserted = semi(inserts, deletedKeys, keys, "left_anti").withColumn("_change_type", lit("INSERT"));
    return before.unionByName(after).unionByName(deleted).unionByName(inserted);
  }

  private static Dataset<Row> semi(Dataset<Row> rows, Dataset<Row> keys, List<String> columns, String how) {
    Column same = null;
    for (String column : columns) {
      Column one = rows.col(quote(column)).eqNullSafe(keys.col(quote(column)));
      same = same == null ? one : same.and(one);
    }
    return rows.join(keys, same, how);
  }

  private static String quote(String column) {
    return "`" + column.replace("`", "``") + "`";
  }

  /** The rows of {@code rows} at a file and position where {@code others} has no row. */
  private static Dataset<Row> notIn(Dataset<Row> rows, Dataset<Row> others) {
    Dataset<Row> positions = others.select(col("_file").as("_other_file"), col("_pos").as("_other_pos"));
    Column same = rows.col("_file").equalTo(positions.col("_other_file"))
        .and(rows.col("_pos").equalTo(positions.col("_other_pos")));
    return rows.join(positions, same, "left_anti");
  }

}
