/**
 * The single-node engine's compaction and manifest rewrites, with its own reader and writer;
 * {@link dev.transforms.singlenode.internal.read.FileOrderedReads} reads the files a
 * compaction rewrites on several threads and hands their rows to the writer in file order.
 *
 * <p><b>Internal.</b> Not API: found with {@code ServiceLoader}; use
 * {@code dev.transforms.runtime.maintenance.TableMaintenance}.
 */
package dev.transforms.singlenode.internal.maintenance;
