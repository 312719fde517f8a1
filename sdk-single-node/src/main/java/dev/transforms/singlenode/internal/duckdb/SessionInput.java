package dev.transforms.singlenode.internal.duckdb;

import dev.transforms.singlenode.internal.plan.DirectScan;
import dev.transforms.api.ReadMode;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.iceberg.Schema;

/** What the SQL session needs of an input: its rows as a stream of Arrow batches. */
public interface SessionInput {

  /** The input's dataset path, for messages. */
  String path();

  /**
   * The Iceberg schema of the rows {@link #open} returns.
   *
   * @return the schema of the pinned snapshot
   */
  Schema schema();

  /**
   * Checks a filter string against the input's schema.
   *
   * @throws dev.transforms.singlenode.filter.FilterSyntaxException if it cannot be parsed
   */
  void checkFilter(String filter);

  /**
   * Opens the rows of a read mode, or of the pinned snapshot matching a filter.
   *
   * @param mode the read mode, ignored when a filter is given
   * @param filter a filter string, or null
   * @return a reader the caller closes
   */
  ArrowReader open(ReadMode mode, String filter, BufferAllocator allocator);

  /**
   * The Parquet files DuckDB can read itself for the rows {@link #open} would give, when there are such
   * files: no filter, a whole snapshot, no deletes, local files (see {@link DirectScan}).
   *
   * @param filter a filter string, or null
   * @return the direct scan, or empty when the rows must go through {@link #open}
   */
  Optional<DirectScan> direct(ReadMode mode, String filter);
}
