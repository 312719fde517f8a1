/**
 * The single-node engine's compaction and manifest rewrites, with its own reader and writer.
 *
 * <p><b>Internal.</b> Not API: found with {@code ServiceLoader}; use
 * {@code dev.transforms.runtime.maintenance.TableMaintenance}.
 */
package dev.transforms.singlenode.internal.maintenance;
