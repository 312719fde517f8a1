/**
 * The engine's own Parquet code, page by page: the page decoder that reads columns into Arrow ({@link
 * dev.transforms.singlenode.internal.parquet.PagedColumnsRead}), the page copy that rewrites a file
 * copying the pages that hold no dropped row ({@link
 * dev.transforms.singlenode.internal.parquet.PageCopyRewrite}), and the row reader: {@link
 * dev.transforms.singlenode.internal.parquet.ParquetRowCursor} reads the rows of a flat file, decoding a
 * value only when it is asked for, faster than Iceberg's generic reader. It applies no deletes
 * itself; {@link dev.transforms.singlenode.internal.read.LiveRows} decides when it reads a file and hands it
 * the deleted positions, which {@link dev.transforms.singlenode.internal.parquet.PositionDeleteReader}
 * reads from Parquet position delete files.
 * {@link dev.transforms.singlenode.internal.parquet.WriterSettings} holds what the engine's Parquet
 * writers add to a table's properties (the zstd level when the table sets none).
 *
 * <p>This package is the engine's internals, not the SDK's API: its classes are public only so that
 * the engine's other packages can use them, and they may change in any release.
 */
package dev.transforms.singlenode.internal.parquet;
