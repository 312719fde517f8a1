/**
 * Everything DuckDB does for the engine: its Parquet writes ({@link
 * dev.transforms.singlenode.internal.duckdb.DuckDbParquetWriter}), and the session behind {@code
 * SingleNodeTransformContext.sql()}: {@link
 * dev.transforms.singlenode.internal.engine.DuckDbSession} loads inputs into DuckDB through the Arrow C
 * data interface and exports query results the same way; {@link
 * dev.transforms.singlenode.internal.duckdb.SqlNames} derives the default names; {@link
 * dev.transforms.singlenode.internal.duckdb.TableConformer} fits Arrow data (DuckDB's types) to an
 * existing output's schema.
 *
 * <p>This package is the engine's internals, not the SDK's API: its classes are public only so that
 * the engine's other packages can use them, and they may change in any release.
 */
package dev.transforms.singlenode.internal.duckdb;
