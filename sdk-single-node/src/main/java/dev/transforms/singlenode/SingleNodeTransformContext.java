package dev.transforms.singlenode;

import dev.transforms.api.Handle;
import dev.transforms.api.IncrementalTransformContext;
import dev.transforms.singlenode.SqlSession;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The context of a single-node transform: the build's details, the Arrow allocator of this run and
 * its SQL session.
 */
@Handle(engine = "single-node", role = Handle.Role.CONTEXT, artifact = "dev.transforms:sdk-single-node")
public interface SingleNodeTransformContext extends IncrementalTransformContext {

  /**
   * The allocator of this transform run, to build Arrow data with. Everything allocated from it must
   * be closed by the time the method returns: the engine checks, and fails the transform when memory
   * is still allocated (a leak). Data returned by {@link IcebergInput} comes from a child of this
   * allocator and is released by the runtime.
   *
   * @return the run's allocator
   */
  BufferAllocator allocator();

  /**
   * The DuckDB session of this run, to query the inputs with SQL: every {@link IcebergInput}
   * parameter is a table named after the parameter ({@code rowUpdates} is {@code row_updates}); see
   * {@link SqlSession}. Opened on the first call (later calls return the same session) and closed by
   * the runtime when the method returns.
   *
   * <pre>{@code
   * output.writeTable(ctx.sql().query("SELECT region, count(*) AS n FROM orders GROUP BY region"));
   * }</pre>
   *
   * @return the session
   * @throws IllegalStateException if {@code org.duckdb:duckdb_jdbc} or {@code
   *     org.apache.arrow:arrow-c-data} is not on the classpath (they are optional dependencies of
   *     {@code sdk-single-node}), naming both
   */
  SqlSession sql();
}
