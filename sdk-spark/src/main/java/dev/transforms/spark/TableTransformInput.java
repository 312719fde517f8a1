package dev.transforms.spark;

import dev.transforms.api.Handle;
import dev.transforms.api.TableInput;
import java.time.Instant;
import java.util.OptionalLong;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * An Iceberg table a Spark transform reads, declared with {@link TableInput}.
 *
 * <p>{@link #dataframe()} reads the snapshot the runtime pinned when the transform started, so every
 * read of the build sees the same data and the build records exactly what it consumed. The
 * {@link #identifier()} names the table itself in Spark SQL: statements that use it read the table's
 * {@code main} as it is when they run (on a branch build, the branch the input is read at, as
 * {@code ...`branch_NAME`}: see {@code docs/branches.md}).
 */
@Handle(engine = "spark", role = Handle.Role.INPUT, paths = {TableInput.class}, artifact = "dev.transforms:sdk-spark")
public interface TableTransformInput {

  /**
   * The table's fully qualified Spark SQL identifier, every part quoted with backticks, usable
   * verbatim wherever Spark SQL takes a table name: {@code MERGE INTO out USING <identifier>},
   * {@code SELECT * FROM <identifier>.snapshots}, {@code <identifier> VERSION AS OF 123}.
   *
   * @return the identifier, such as {@code `local`.`Examples`.`iceberg`.`row-updates`}
   */
  String identifier();

  /**
   * The name of the Spark catalog that holds the table, as registered in the session, for procedure
   * calls: {@code CALL <catalog>.system.create_changelog_view(table => ...)}.
   *
   * @return the catalog name, unquoted
   */
  String catalog();

  /**
   * The identifier as a SQL string literal, quotes included and escaped, for the {@code table}
   * argument of Iceberg procedures: {@code CALL local.system.ancestors_of(table => <literal>)}.
   *
   * @return the quoted literal, such as {@code '`local`.`Examples`.`row-updates`'}
   */
  String identifierLiteral();

  /**
   * The table's rows at the snapshot this build reads.
   *
   * @return the rows; empty, with the table's columns, when the table has no snapshot
   */
  Dataset<Row> dataframe();

  /**
   * The table's rows at a given snapshot (time travel).
   *
   * @param snapshotId a snapshot of this table
   * @return the rows of that snapshot
   */
  Dataset<Row> dataframeAtSnapshot(long snapshotId);

  /**
   * The table's rows as they were at a moment (time travel to the snapshot current then).
   *
   * @param epochMillis milliseconds since the epoch
   * @return the rows at that time
   */
  Dataset<Row> dataframeAsOf(long epochMillis);

  /**
   * The table's rows as they were at a moment (time travel to the snapshot current then).
   *
   * @param instant the moment
   * @return the rows at that time
   */
  Dataset<Row> dataframeAsOf(Instant instant);

  /**
   * What changed in the table for this build, with the columns of Iceberg's
   * {@code create_changelog_view} ({@code _change_type}, {@code _change_ordinal},
   * {@code _commit_snapshot_id}): on an incremental build, the changes after {@link
   * #previousSnapshotId()} up to {@link #currentSnapshotId()}; on a full build, those of the table's
   * whole history still kept. Copy-on-write and merge-on-read tables alike ({@link SparkChanges}).
   * Updates are paired by the table's identifier fields when it has them. A transform that reads
   * changes declares {@code @Incremental(changes = true)}, so that edits keep it incremental.
   *
   * @return the changes
   */
  Dataset<Row> changes();

  /**
   * {@link #changes()}, with updates paired by these columns.
   *
   * @param identifierColumns the columns that identify a row, such as {@code "id"}
   * @return the changes
   */
  Dataset<Row> changes(String... identifierColumns);

  /**
   * The snapshot this build reads, pinned when the transform started.
   *
   * @return the snapshot id, or empty when the table has no snapshot
   */
  OptionalLong currentSnapshotId();

  /**
   * The snapshot of this table that the transform's last successful build read.
   *
   * @return the snapshot id, or empty on a first build or when that snapshot no longer exists
   */
  OptionalLong previousSnapshotId();
}
