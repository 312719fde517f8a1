package dev.transforms.spark;

import dev.transforms.runtime.spi.BuildEnvironment;
import dev.transforms.runtime.spi.Engine;
import dev.transforms.runtime.spi.EngineProvider;

/**
 * The Spark engine, found by {@link java.util.ServiceLoader}: runs the transforms whose handles are
 * this package's ({@link TableTransformInput}, {@link TableTransformOutput},
 * {@link IncrementalTransformInput}, {@link SparkTransformContext}...).
 */
public final class SparkEngineProvider implements EngineProvider {

  /** The engine name handles declare in {@code @Handle(engine = ...)}. */
  public static final String NAME = "spark";

  /** Creates the provider; the service loader does this. */
  public SparkEngineProvider() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Engine start(BuildEnvironment build) {
    return SparkEngine.start(build);
  }
}
