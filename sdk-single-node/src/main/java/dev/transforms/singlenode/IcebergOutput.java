package dev.transforms.singlenode;

import dev.transforms.api.Handle;
import dev.transforms.api.TableOutput;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;

/**
 * An Iceberg table a single-node transform writes, declared as a parameter annotated with
 * {@code @TableOutput("/path")}.
 *
 * <p>Atomicity: nothing the transform writes is visible to readers of the table's {@code main}
 * branch until the transform returns. Writes go to a staging branch that the runtime fast-forwards
 * {@code main} to on success, and throws away if the method fails. A table created by this build is
 * dropped if the method fails.
 *
 * <p>The Arrow data passed to the write methods stays owned by the caller.
 */
@Handle(engine = "single-node", role = Handle.Role.OUTPUT, paths = {TableOutput.class},
    artifact = "dev.transforms:sdk-single-node")
public interface IcebergOutput {

  /**
   * The native Iceberg table, for row-level edits and any write of the Iceberg API.
   *
   * <p>The returned table reads the transform's staging branch and commits every snapshot
   * operation ({@code newAppend}, {@code newOverwrite}, {@code newRowDelta}, {@code newDelete},
   * {@code newRewrite}, {@code newReplacePartitions}) to it, so those writes are published with the
   * build, or not at all. Schema, partition spec, sort order and property changes are staged the same
   * way and published with the rows (an incremental build publishes schema changes only as the output's
   * schema-change policy allows, and no new partition spec); moving the table, snapshot management,
   * transactions and manifest rewrites are refused.
   *
   * @return the table; empty before the first build has created it
   */
  Optional<Table> table();

  /**
   * Writes Arrow data to the table.
   *
   * <ul>
   *   <li>First build (no table yet): creates the table with a schema derived from the Arrow schema
   *       and writes the rows.
   *   <li>Full build: replaces the table's rows with these, in one snapshot.
   *   <li>Incremental build: appends these rows.
   * </ul>
   *
   * <p>Columns are matched by name. Data that does not fit the table changes its shape as the build
   * allows, published with the rows: a full build gives the table the data's columns (new ones added,
   * missing ones dropped from the current schema, a type that does not hold the old values making a new
   * column of the same name); an incremental build changes them only as the output's
   * {@link dev.transforms.api.SchemaChangePolicy} allows. What the build may not change (any difference
   * under the default policy, {@code fail}; a dropped partition source column in a full build without a
   * new {@link #partitionedBy}) writes nothing and throws a
   * {@link dev.transforms.api.SchemaMismatchException} listing every differing field.
   *
   * @param data the rows; still owned by the caller
   */
  void writeTable(VectorSchemaRoot data);

  /**
   * Writes a stream of Arrow batches as one commit, with the semantics of {@link
   * #writeTable(VectorSchemaRoot)}. Each batch is written before the next is requested, so a batch
   * root may be reused and refilled by the iterator.
   *
   * @param batches the batches, all with the same schema; at least one
   */
  void writeTable(Iterable<VectorSchemaRoot> batches);

  /**
   * Writes every batch of an Arrow reader as one commit, with the semantics of {@link
   * #writeTable(VectorSchemaRoot)}; the idiom for SQL results:
   *
   * <pre>{@code
   * output.writeTable(ctx.sql().query("SELECT region, sum(amount) AS amount FROM orders GROUP BY region"));
   * }</pre>
   *
   * <p>The reader's schema decides the columns even when it yields no batch (an empty result still
   * creates, or empties, the table). When the table exists, values whose Arrow type differs from the
   * column's are carried over where that is exact, each value checked: a {@code Decimal(p, 0)} (such as
   * DuckDB's {@code sum} of integers) into an {@code int} or {@code long} column, a decimal into a
   * {@code decimal} column of the same scale and smaller precision, text or 16-byte binaries into a
   * {@code uuid} column, binaries into a {@code fixed} column; and a nullable field into a required
   * column, as long as it holds no null. Anything else is a difference that changes the table as
   * {@link #writeTable(VectorSchemaRoot)} says, or, where the build may not change it, fails with {@link
   * dev.transforms.api.SchemaMismatchException} naming the columns, and nothing is written.
   *
   * @param batches the batches; read to the end, not closed
   */
  void writeTable(org.apache.arrow.vector.ipc.ArrowReader batches);

  /**
   * Sets the partitioning of the table a first build creates, with Iceberg's partition transforms
   * (hidden partitioning: queries filter on the source column and still prune files).
   *
   * <pre>{@code
   * output.partitionedBy(spec -> spec.day("created_at")).writeTable(rows);
   * }</pre>
   *
   * <p>When the table exists, a full build re-partitions it to this spec, published with the rows
   * (earlier files keep their layout). An incremental build adds rows to the table as it is
   * partitioned: a different spec fails its write, naming both.
   *
   * @param fields adds the partition fields to a builder over the table's schema, such as
   *     {@code spec -> spec.day("created_at").identity("region")}
   * @return this output, for chaining
   */
  IcebergOutput partitionedBy(UnaryOperator<PartitionSpec.Builder> fields);
}
