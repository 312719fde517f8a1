/**
 * The Spark engine's compaction and manifest rewrites, through Iceberg's Spark actions.
 *
 * <p><b>Internal.</b> Not API: found with {@code ServiceLoader}; use
 * {@code dev.transforms.runtime.maintenance.TableMaintenance}.
 */
package dev.transforms.spark.maintenance;
