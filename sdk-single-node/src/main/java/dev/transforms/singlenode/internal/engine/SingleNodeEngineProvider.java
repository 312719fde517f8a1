package dev.transforms.singlenode.internal.engine;

import dev.transforms.runtime.spi.BuildEnvironment;
import dev.transforms.runtime.spi.Engine;
import dev.transforms.runtime.spi.EngineProvider;

/**
 * Provides the single-node engine, which runs transforms whose handles are {@link dev.transforms.singlenode.IcebergInput},
 * {@link dev.transforms.singlenode.IcebergOutput} and {@link dev.transforms.singlenode.SingleNodeTransformContext} in the build's own JVM, with Arrow for
 * data in memory. Registered with {@link java.util.ServiceLoader}.
 */
public final class SingleNodeEngineProvider implements EngineProvider {

  /** The engine name handle types refer to. */
  public static final String NAME = "single-node";

  /** Creates the provider; {@link java.util.ServiceLoader} does this. */
  public SingleNodeEngineProvider() {}

  /**
   * {@inheritDoc}
   *
   * @return {@value #NAME}
   */
  @Override
  public String name() {
    return NAME;
  }

  /**
   * Starts an engine with its own root Arrow allocator for the build, limited to the configured budget.
   *
   * @param build the build environment
   * @return the engine
   */
  @Override
  public Engine start(BuildEnvironment build) {
    return new SingleNodeEngine(build.config().singleNodeMemoryLimit());
  }
}
