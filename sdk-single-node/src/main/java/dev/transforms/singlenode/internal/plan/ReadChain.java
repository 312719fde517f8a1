package dev.transforms.singlenode.internal.plan;

import java.util.Optional;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Runs a {@link ReadPlan}: the one place a read strategy runs. It tries the plan's native read and, when
 * that declines or fails while reading (having left nothing open), the engine's reader; the strategy
 * that gave the rows is counted on the plan's planner.
 */
public final class ReadChain {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReadChain.class);

  private ReadChain() {}

  /**
   * Reads by a plan.
   *
   * @param plan the plan
   * @param what the table's name, for logs
   * @param allocator where the root's memory is accounted
   * @param engine the engine's read of the same rows
   * @return the rows, the caller's to close
   */
  public static VectorSchemaRoot run(ReadPlan plan, String what, BufferAllocator allocator,
      Supplier<VectorSchemaRoot> engine) {
    if (plan.read() != null) {
      Optional<VectorSchemaRoot> root = tryRead(plan.planner(), plan.read(), what, allocator);
      if (root.isPresent()) {
        LOG.debug("Read {} with {}", what, plan.reason());
        return root.get();
      }
    } else {
      LOG.debug("Read {} with {}", what, plan.reason());
    }
    VectorSchemaRoot root = engine.get();
    plan.planner().count(ReadStrategy.ENGINE);
    return root;
  }

  /**
   * Reads one file by a native read the planner chose for it, for a caller that reads with the engine
   * when it gets nothing.
   *
   * @param planner the planner that chose the read, whose counters the read goes to
   * @param read the read; empty when the planner chose none
   * @param what the file, for logs
   * @param allocator where the root's memory is accounted
   * @return the rows, the caller's to close; empty when there was no native read or it declined
   */
  public static Optional<VectorSchemaRoot> run(ReadPlanner planner, Optional<ArrowRead> read, String what,
      BufferAllocator allocator) {
    return read.isEmpty() ? Optional.empty() : tryRead(planner, read.get(), what, allocator);
  }

  private static Optional<VectorSchemaRoot> tryRead(ReadPlanner planner, ArrowRead read, String what,
      BufferAllocator allocator) {
    try {
      Optional<VectorSchemaRoot> root = read.read(allocator);
      if (root.isPresent()) {
        planner.count(read.strategy());
      } else {
        LOG.debug("The {} gave up reading {}: its files hold what it does not read as the engine does",
            read.strategy().label(), what);
      }
      return root;
    } catch (RuntimeException e) {
      LOG.warn("The {} could not read {}; reading it another way", read.strategy().label(), what, e);
      return Optional.empty();
    }
  }
}
