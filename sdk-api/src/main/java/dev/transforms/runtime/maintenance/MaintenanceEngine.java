package dev.transforms.runtime.maintenance;

import dev.transforms.runtime.TransformsConfig;
import org.apache.iceberg.Table;

/**
 * The part of table maintenance that depends on an engine: rewriting data files and manifests.
 * {@link TableMaintenance} does the rest (safety rules, snapshot expiry, orphan files) with Iceberg
 * core, the same way for every engine.
 *
 * <p>Implementations are found with {@link java.util.ServiceLoader}: the single-node engine
 * ({@code dev.transforms:sdk-single-node}, name {@value #SINGLE_NODE}) and the Spark engine
 * ({@code dev.transforms:sdk-spark}, name {@value #SPARK}) each provide one.
 */
public interface MaintenanceEngine extends AutoCloseable {

  /** Name of the single-node engine. */
  String SINGLE_NODE = "single-node";
  /** Name of the Spark engine. */
  String SPARK = "spark";

  /**
   * The engine's name, as {@code transforms maintain --engine} takes it.
   *
   * @return {@value #SINGLE_NODE} or {@value #SPARK}
   */
  String name();

  /**
   * Rewrites the small data files of a table, and those with deletes, into files of the table's
   * target size ({@code write.target-file-size-bytes}), dropping the rows their deletes remove and the
   * delete files that no longer apply to any data file. Commits one {@code replace} snapshot that
   * fails, leaving the table as it was, if a concurrent commit deleted rows of a rewritten file.
   *
   * @param table the table
   * @return what was rewritten
   */
  CompactionResult compact(Table table);

  /**
   * Rewrites the manifests of the table's current snapshot, grouping them by partition.
   *
   * @param table the table
   * @return the number of manifests rewritten
   */
  default int rewriteManifests(Table table) {
    return CoreMaintenance.rewriteManifests(table);
  }

  /**
   * Prepares the engine for the tables of a configuration (the Spark engine starts or joins a
   * session with the configuration's Spark properties). Called once, before any table.
   *
   * @param config the configuration
   */
  default void start(TransformsConfig config) {}

  /** Releases what {@link #start(TransformsConfig)} acquired. */
  @Override
  default void close() {}
}
