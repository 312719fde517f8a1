/**
 * Single-node transforms: {@link dev.transforms.singlenode.IcebergInput} and
 * {@link dev.transforms.singlenode.IcebergOutput} give the native Iceberg {@code Table} and Arrow data,
 * {@link dev.transforms.singlenode.Changelog} compares snapshots.
 */
package dev.transforms.singlenode;
