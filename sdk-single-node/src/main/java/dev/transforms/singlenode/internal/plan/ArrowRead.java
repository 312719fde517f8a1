package dev.transforms.singlenode.internal.plan;

import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A native read strategy, ready to run on the files the {@link ReadPlanner} gave it: the rows it gives are
 * the engine's reader's (types, field ids, values, rows in file order), only faster. {@link ReadChain}
 * runs it, and the engine's reader when it declines.
 */
public interface ArrowRead {

  /**
   * Which strategy this is: its name in reasons and logs, and the counter its reads go to.
   *
   * @return the strategy
   */
  ReadStrategy strategy();

  /**
   * What the reason of a plan adds about this read, such as how deletes are applied.
   *
   * @return the detail, starting with {@code ", "}; empty when there is none
   */
  String detail();

  /**
   * Reads the rows, or declines while reading (having left nothing open), for the engine's reader.
   *
   * @param allocator where the root's memory is accounted
   * @return the rows, the caller's to close; empty when this strategy declined
   */
  Optional<VectorSchemaRoot> read(BufferAllocator allocator);
}
