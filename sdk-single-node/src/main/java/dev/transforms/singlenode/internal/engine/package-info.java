/**
 * The single-node engine itself (internal): {@link dev.transforms.singlenode.internal.engine.SingleNodeEngine}
 * and its provider, found with {@code ServiceLoader}; the implementations of the handles users see
 * ({@code IcebergInputHandle}, {@code IcebergOutputHandle}); a run's Arrow memory ({@code RunMemory}); the
 * run's SQL session over DuckDB ({@code SqlSessions}, {@code DuckDbSession}); and the load engine of
 * {@code transforms load}. It sits above every other package of the module, which it assembles. Internal:
 * it may change in any release.
 */
package dev.transforms.singlenode.internal.engine;
