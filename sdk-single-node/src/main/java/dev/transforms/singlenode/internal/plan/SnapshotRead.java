package dev.transforms.singlenode.internal.plan;

import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Table;

/**
 * One native read strategy: it tells, without opening a file, whether it reads a snapshot's files, and
 * reads them into the root the engine's reader would give. Implemented once per strategy, in the package
 * of what it is; only {@link ReadPlanner} calls them.
 */
public interface SnapshotRead {

  /**
   * The strategy this is.
   *
   * @return its entry in the table
   */
  ReadStrategy strategy();

  /**
   * Why this strategy does not read these files, or empty when it does.
   *
   * @param table the table, for its schema history
   * @param scan the files, columns and rows
   * @return the reason, or empty
   */
  Optional<String> declines(Table table, DirectScan scan);

  /**
   * Reads every row.
   *
   * @param table the table
   * @param scan the files, columns and rows
   * @param allocator where the root's memory is accounted
   * @return the rows, the caller's to close; empty, nothing left allocated, when the files turn out to
   *     hold something this strategy does not read as the engine does
   */
  Optional<VectorSchemaRoot> read(Table table, DirectScan scan, BufferAllocator allocator);
}
