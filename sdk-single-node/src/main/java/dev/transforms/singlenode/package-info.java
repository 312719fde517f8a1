/**
 * Single-node transforms: {@link dev.transforms.singlenode.IcebergInput} and
 * {@link dev.transforms.singlenode.IcebergOutput} give the native Iceberg {@code Table} and Arrow data,
 * {@link dev.transforms.singlenode.Changelog} compares snapshots, and {@link dev.transforms.singlenode.SqlSession}
 * ({@code SingleNodeTransformContext.sql()}) runs SQL over the inputs. The engine that implements them is
 * internal ({@code singlenode.internal.engine}), above this package.
 */
package dev.transforms.singlenode;
