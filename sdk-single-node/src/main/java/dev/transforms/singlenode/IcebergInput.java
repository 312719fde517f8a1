package dev.transforms.singlenode;

import dev.transforms.api.Handle;
import dev.transforms.api.ReadMode;
import dev.transforms.api.TableInput;
import java.util.List;
import java.util.OptionalLong;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;

/**
 * An Iceberg table a single-node transform reads, declared as a parameter annotated with
 * {@code @TableInput("/path")}.
 *
 * <p>Every read is pinned to the snapshot the build chose when the transform started ({@link
 * #currentSnapshotId()}), so concurrent writers to the input do not change what the transform sees.
 *
 * <p>Arrow memory: every {@link VectorSchemaRoot} and {@link ArrowReader} returned here is owned by
 * the runtime. It stays valid until the transform method returns, and is then released; do not
 * close it yourself (closing it early is harmless) and do not keep it beyond the method.
 */
@Handle(engine = "single-node", role = Handle.Role.INPUT, paths = {TableInput.class},
    artifact = "dev.transforms:sdk-single-node")
public interface IcebergInput {

  /**
   * The native Iceberg table, for metadata inspection (snapshots, schema, properties) and any read
   * the Iceberg API offers.
   *
   * @return the table as loaded by this build
   */
  Table table();

  /**
   * The snapshot this build reads, pinned when the transform started.
   *
   * @return the snapshot id; empty for a table without snapshots
   */
  OptionalLong currentSnapshotId();

  /**
   * The input snapshot that this transform's last successful build consumed.
   *
   * @return the snapshot id; empty on the first build, or when that snapshot has expired
   */
  OptionalLong previousSnapshotId();

  /**
   * Every row of the table at {@link #currentSnapshotId()}, in memory. Where the snapshot's rows are
   * exactly its local Parquet files and DuckDB is on the classpath, DuckDB's Parquet reader reads them
   * into the same root the engine's reader would give ({@code duckdb.parquet=false} turns it off).
   *
   * @return the rows; owned by the runtime
   */
  VectorSchemaRoot arrow();

  /**
   * The rows of one read mode: {@code CURRENT} (as {@link #arrow()}), {@code PREVIOUS} (the table at
   * {@link #previousSnapshotId()}, empty when there is none) or {@code ADDED} (as {@link #addedRows()}).
   *
   * @param mode which rows to read
   * @return the rows; owned by the runtime
   */
  VectorSchemaRoot arrow(ReadMode mode);

  /**
   * The rows to process in this build: on an incremental build, only the rows appended after {@link
   * #previousSnapshotId()} up to {@link #currentSnapshotId()} (none when both are equal); on a full
   * build, or for an input listed in {@code snapshotInputs}, every row.
   *
   * @return the rows; owned by the runtime
   */
  VectorSchemaRoot addedRows();

  /**
   * What changed in the table for this build: rows inserted, deleted and updated, each with its kind,
   * snapshot and position in the range (the columns of Spark's {@code create_changelog_view}). On an
   * incremental build, the changes after {@link #previousSnapshotId()} up to {@link
   * #currentSnapshotId()}; on a full build, those of the table's whole history still kept, up to
   * {@link #currentSnapshotId()} (when older snapshots have expired, the oldest one kept counts as
   * inserting all its rows). Copy-on-write and merge-on-read tables alike.
   *
   * <p>Updates are paired by the table's identifier fields when it has them; otherwise call {@link
   * Changelog#identifiedBy} with the key columns. A transform that reads changes declares
   * {@code @Incremental(changes = true)}, so that edits to its inputs keep its builds incremental.
   *
   * @return the changelog of this build; read it with {@link Changelog#changes()} or {@link
   *     Changelog#toArrow}
   */
  Changelog changes();

  /**
   * Reads the table at {@link #currentSnapshotId()} in batches, for tables larger than memory.
   * Call {@link ArrowReader#loadNextBatch()} until it returns {@code false}; each batch replaces the
   * previous one in {@link ArrowReader#getVectorSchemaRoot()}.
   *
   * @param batchSize the largest number of rows per batch
   * @return the reader; owned by the runtime
   */
  ArrowReader arrowReader(int batchSize);

  /**
   * Reads the table at {@link #currentSnapshotId()} in batches of 65,536 rows.
   *
   * @return the reader; owned by the runtime
   * @see #arrowReader(int)
   */
  default ArrowReader arrowReader() {
    return arrowReader(65_536);
  }

  /**
   * Reads selected rows and columns of one snapshot.
   *
   * @param filter the rows to keep, such as {@code Expressions.equal("status", "Stale")}
   * @param snapshotId the snapshot to read; empty for {@link #currentSnapshotId()}
   * @param columns the columns to return, in table order; empty for all
   * @return the rows; owned by the runtime
   */
  VectorSchemaRoot scan(Expression filter, OptionalLong snapshotId, List<String> columns);

  /**
   * Reads the rows of {@link #currentSnapshotId()} matching a filter in PyIceberg's string syntax,
   * such as {@code "as_of < '2026-04-01'"} or {@code "status = 'Stale'"}.
   *
   * @param filter the row filter
   * @return the rows, with every column; owned by the runtime
   */
  VectorSchemaRoot scan(String filter);
}
