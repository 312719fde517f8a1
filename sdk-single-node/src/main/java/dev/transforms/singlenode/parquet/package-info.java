/**
 * Reading data files and their deletes for the single-node engine: {@link
 * dev.transforms.singlenode.parquet.ParquetRowCursor} reads the rows of a flat file, decoding a
 * value only when it is asked for, faster than Iceberg's generic reader; row edits and Arrow scans
 * use it where it can read a file and Iceberg's reader elsewhere. {@link
 * dev.transforms.singlenode.parquet.LocalDeleteFilter} loads a data file's few delete files in the
 * calling thread instead of through Iceberg's worker pool, which waits by polling.
 *
 * <p>This package is the engine's internals, not the SDK's API: its classes are public only so that
 * the engine's other packages can use them, and they may change in any release.
 */
package dev.transforms.singlenode.parquet;
