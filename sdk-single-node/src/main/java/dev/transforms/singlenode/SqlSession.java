package dev.transforms.singlenode;

import dev.transforms.api.ReadMode;
import dev.transforms.singlenode.IcebergInput;
import java.sql.Connection;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * An embedded DuckDB database in which a single-node transform queries its inputs with SQL; obtained
 * from {@code SingleNodeTransformContext.sql()}.
 *
 * <pre>{@code
 * // a @Transform method
 * public void compute(SingleNodeTransformContext ctx,
 *     @TableInput("/shop/orders") IcebergInput orders,
 *     @TableInput("/shop/customers") IcebergInput customers,
 *     @TableOutput("/shop/revenue") IcebergOutput revenue) {
 *   revenue.writeTable(ctx.sql().query(
 *       "SELECT c.country, sum(o.amount) AS amount FROM orders o JOIN customers c USING (customer_id)"
 *           + " GROUP BY c.country"));
 * }
 * }</pre>
 *
 * <p><b>Names.</b> Every {@link IcebergInput} parameter of the method is a table of the session under
 * a name derived from the parameter's name in snake case ({@code rowUpdates} becomes {@code
 * row_updates}). When the class was compiled without {@code -parameters} (names read {@code arg0},
 * {@code arg1}...), the last segment of the input's path is used instead ({@code /shop/row-updates}
 * becomes {@code row_updates}), with {@code _2}, {@code _3}... added when two inputs end alike. The
 * {@code register} methods add more names, each with its own read mode or filter; registering a name
 * again replaces it.
 *
 * <p><b>What a name reads.</b> The input's live rows (position deletes, equality deletes and deletion
 * vectors applied) at the snapshot the build pinned, read once by the engine's own reader and handed
 * to DuckDB as Arrow batches through the Arrow C data interface. A name is loaded the first time a
 * query mentions it (or when {@link #connection()} is called), and then stays in the session, so a
 * self-join, a name used by several queries or a query run twice reads the input only once.
 *
 * <p><b>Lifetime and memory.</b> The session is opened on the first call to {@code sql()} and closed
 * by the runtime when the transform method returns, normally or not: the connection, every result of
 * {@link #query} and all Arrow memory are released then. The session is a catalog of its own in the
 * JVM's DuckDB database (one per configured memory limit and thread count, kept open for the next
 * session): its names are seen by no other session and are dropped when it closes, and settings it
 * changes for the whole database are put back. DuckDB's own memory (the loaded inputs, intermediate
 * results) is outside the JVM heap and bounded by {@code duckdb.memory-limit}; its thread count is
 * {@code duckdb.threads} (both in {@code transforms.properties}).
 *
 * <p>A session is meant to be used from the transform's thread only.
 */
public interface SqlSession {

  /**
   * The DuckDB JDBC connection of this session, for anything DuckDB offers beyond {@link #query}
   * (settings, {@code CREATE TEMP TABLE}, prepared statements, DuckDB's JDBC extensions through {@code
   * connection().unwrap(org.duckdb.DuckDBConnection.class)}). Every registered name is loaded before
   * the connection is returned. Do not close it: the runtime does.
   *
   * @return the connection
   */
  Connection connection();

  /**
   * Registers an input's rows at the pinned snapshot ({@link ReadMode#CURRENT}) under a name.
   *
   * @param name a SQL name: a letter or {@code _}, then letters, digits or {@code _}
   * @param input an input of this transform
   * @throws IllegalArgumentException if the name is not a plain SQL name, or the input is not one of
   *     this transform's inputs
   */
  void register(String name, IcebergInput input);

  /**
   * Registers the rows of one read mode of an input under a name: {@code CURRENT} (the pinned
   * snapshot), {@code PREVIOUS} (the snapshot the last successful build consumed; no rows when there
   * is none) or {@code ADDED} (on an incremental build the rows appended since then, otherwise every
   * row), with the meaning of {@link IcebergInput#arrow(ReadMode)}.
   *
   * @param name a SQL name: a letter or {@code _}, then letters, digits or {@code _}
   * @param input an input of this transform
   * @param mode which rows
   * @throws IllegalArgumentException if the name is not a plain SQL name, or the input is not one of
   *     this transform's inputs
   */
  void register(String name, IcebergInput input, ReadMode mode);

  /**
   * Registers the rows of an input's pinned snapshot that match a filter in PyIceberg's string syntax
   * (such as {@code "created_at >= '2026-01-01' and status = 'open'"}). Only the data files and row
   * groups whose statistics or partition values may match are read: a filter on a partition source
   * column reads only those partitions. The filter keeps SQL's null semantics (a null never matches).
   *
   * @param name a SQL name: a letter or {@code _}, then letters, digits or {@code _}
   * @param input an input of this transform
   * @param filter the row filter
   * @throws IllegalArgumentException if the name is not a plain SQL name, or the input is not one of
   *     this transform's inputs
   * @throws dev.transforms.singlenode.filter.FilterSyntaxException if the filter cannot be parsed or
   *     names an unknown column
   */
  void register(String name, IcebergInput input, String filter);

  /**
   * Runs a query and returns its rows as Arrow batches (from DuckDB's Arrow export, through the Arrow
   * C data interface), ready for {@code IcebergOutput.writeTable(ArrowReader)}. The reader is owned by
   * the runtime: it stays valid until the method returns, and closing it earlier is harmless.
   *
   * @param sql one SQL query
   * @return the rows
   * @throws SqlQueryException if DuckDB refuses or fails the query, with DuckDB's message and the SQL
   */
  ArrowReader query(String sql);
}
