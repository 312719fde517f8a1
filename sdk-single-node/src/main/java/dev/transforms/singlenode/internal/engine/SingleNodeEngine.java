package dev.transforms.singlenode.internal.engine;

import dev.transforms.api.Handle;
import dev.transforms.api.TransformFailedException;
import dev.transforms.runtime.CheckResult;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.spi.CheckSpec;
import dev.transforms.runtime.spi.Engine;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.StagedOutput;
import dev.transforms.runtime.spi.TransformRun;
import dev.transforms.singlenode.ArrowMemoryLeakException;
import dev.transforms.singlenode.SingleNodeTransformContext;
import dev.transforms.singlenode.SqlSession;
import dev.transforms.singlenode.internal.checks.StagedChecks;
import dev.transforms.singlenode.internal.duckdb.DuckDbLibrary;
import dev.transforms.singlenode.internal.memory.ArrowMemory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;

/**
 * Runs single-node transforms of one build, each with its own Arrow memory, all of it drawn from one
 * budget ({@code singlenode.memory-limit}) that the transforms running at once share: one that needs more
 * than is left fails, naming the budget, and the others go on.
 */
final class SingleNodeEngine implements Engine {

  private final BufferAllocator root;
  private final long limit;
  private final AtomicInteger running = new AtomicInteger();

  SingleNodeEngine(long limit) {
    this.limit = limit;
    this.root = ArrowMemory.newRoot(limit);
  }

  @Override
  public void run(TransformRun run) {
    RunMemory memory = new RunMemory(root, run.spec().name());
    Object[] args = new Object[run.spec().parameters().size()];
    Map<String, IcebergInputHandle> inputs = new LinkedHashMap<>();
    boolean duckdbParquet = DuckDbLibrary.enabled(run.build().config().duckdbProperties());
    for (ParameterSpec p : run.spec().parameters()) {
      if (p.role() == Handle.Role.INPUT) {
        IcebergInputHandle input = new IcebergInputHandle(run.input(p), memory, run.advisories());
        inputs.put(p.name(), input);
        args[p.index()] = input;
      }
    }
    for (ParameterSpec p : run.spec().parameters()) {
      if (p.role() == Handle.Role.CONTEXT) {
        args[p.index()] = context(run, memory, inputs);
      } else if (p.role() == Handle.Role.INPUT) {
        continue;
      } else {
        args[p.index()] = new IcebergOutputHandle(run, run.output(p), duckdbParquet);
      }
    }
    int atOnce = running.incrementAndGet();
    try {
      run.invoke(args);
    } catch (RuntimeException e) {
      try {
        memory.close();
      } catch (RuntimeException release) {
        e.addSuppressed(release);
      }
      throw outOfMemory(run, e, atOnce).orElse(e);
    } finally {
      running.decrementAndGet();
    }
    try {
      memory.close();
    } catch (ArrowMemoryLeakException leak) {
      throw new TransformFailedException("Transform " + run.spec().name() + " failed: " + leak.getMessage(), leak);
    }
  }

  /** The error of a run that found the build's Arrow memory exhausted, naming the budget and the way out. */
  private Optional<RuntimeException> outOfMemory(TransformRun run, RuntimeException e, int atOnce) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof OutOfMemoryException) {
        return Optional.of(new TransformFailedException("Transform " + run.spec().name() + " ran out of Arrow "
            + "memory: the single-node transforms of a build share " + (limit >> 20) + " MiB ("
            + TransformsConfig.SINGLE_NODE_MEMORY + "), and " + atOnce + " were running. Raise "
            + TransformsConfig.SINGLE_NODE_MEMORY + ", or run fewer at once (--threads, build.threads). "
            + cause.getMessage(), e));
      }
    }
    return Optional.empty();
  }

  /** Evaluates checks with the engine's own reader, on the staged snapshot; see {@link StagedChecks}. */
  @Override
  public List<CheckResult> evaluate(TransformRun run, StagedOutput output, List<CheckSpec> checks) {
    return StagedChecks.evaluate(output, checks);
  }

  private static SingleNodeTransformContext context(TransformRun run, RunMemory memory,
      Map<String, IcebergInputHandle> inputs) {
    return new SingleNodeTransformContext() {
      private SqlSession sql;

      @Override public BufferAllocator allocator() { return memory.user(); }
      @Override public synchronized SqlSession sql() {
        if (sql == null) {
          sql = SqlSessions.open(run, memory, inputs);
        }
        return sql;
      }
      @Override public boolean isIncremental() { return run.isIncremental(); }
      @Override public String transformName() { return run.spec().name(); }
      @Override public String buildId() { return run.build().buildId(); }
    };
  }

  @Override
  public void close() {
    try {
      root.close();
    } catch (IllegalStateException leaked) {
      // A transform leaked memory; it has already failed for it. Nothing more to release.
    }
  }
}
