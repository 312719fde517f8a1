/**
 * SQL over a single-node transform's inputs with an embedded DuckDB: {@link
 * dev.transforms.singlenode.sql.SqlSession}, reached through {@code SingleNodeTransformContext.sql()}.
 * Needs {@code org.duckdb:duckdb_jdbc} and {@code org.apache.arrow:arrow-c-data} on the classpath; see
 * {@code docs/single-node-sql.md}.
 */
package dev.transforms.singlenode.sql;
