package dev.transforms.runtime.internal.engine;

import dev.transforms.api.EngineNotFoundException;
import dev.transforms.runtime.spi.BuildEnvironment;
import dev.transforms.runtime.spi.Engine;
import dev.transforms.runtime.spi.EngineProvider;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The engines of one build: found with {@link ServiceLoader}, each started when the first transform
 * that needs it runs, and all closed with the registry. Safe for the build's worker threads: an engine
 * starts once, and starting one does not hold up transforms of another.
 */
public final class EngineRegistry implements AutoCloseable {

  private final BuildEnvironment build;
  private final Map<String, EngineProvider> providers = new LinkedHashMap<>();
  private final Map<String, Engine> started = new LinkedHashMap<>();
  private final Map<String, Object> starting = new LinkedHashMap<>();

  /**
   * Finds the engines on a class loader's classpath.
   *
   * @param build the build the engines serve
   * @param loader the class loader to search
   */
  public EngineRegistry(BuildEnvironment build, ClassLoader loader) {
    this(build, ServiceLoader.load(EngineProvider.class, loader).stream().map(ServiceLoader.Provider::get).toList());
  }

  /**
   * Uses the given engines.
   *
   * @param build the build the engines serve
   * @param providers the engine providers
   */
  public EngineRegistry(BuildEnvironment build, List<EngineProvider> providers) {
    this.build = build;
    providers.forEach(p -> this.providers.putIfAbsent(p.name(), p));
  }

  /**
   * The engine that runs a transform, started on first use.
   *
   * @param spec a validated transform
   * @return its engine
   * @throws EngineNotFoundException if no engine on the classpath runs it, naming the handle and the
   *     artifact to add
   */
  public Engine engineFor(TransformSpec spec) {
    // One lock per engine: a Spark session starting does not hold up single-node transforms.
    Object lock;
    synchronized (this) {
      Engine engine = started.get(spec.engine());
      if (engine != null) {
        return engine;
      }
      lock = starting.computeIfAbsent(spec.engine(), k -> new Object());
    }
    synchronized (lock) {
      synchronized (this) {
        Engine engine = started.get(spec.engine());
        if (engine != null) {
          return engine;
        }
      }
      Engine engine = start(spec);
      synchronized (this) {
        started.put(spec.engine(), engine);
      }
      return engine;
    }
  }

  private Engine start(TransformSpec spec) {
    EngineProvider provider = providers.get(spec.engine());
    if (provider == null) {
      String handle = spec.parameters().stream().map(ParameterSpec::simpleTypeName)
          .filter(n -> !n.equals("TransformContext") && !n.equals("IncrementalTransformContext"))
          .findFirst().orElse(spec.engine());
      throw new EngineNotFoundException("No engine handles " + handle + " (transform " + spec.name()
          + " needs engine '" + spec.engine() + "'): add " + spec.engineArtifact() + " to the classpath");
    }
    return provider.start(build);
  }

  @Override
  public synchronized void close() {
    RuntimeException first = null;
    for (Engine engine : started.values()) {
      try {
        engine.close();
      } catch (RuntimeException e) {
        first = first == null ? e : first;
      }
    }
    started.clear();
    if (first != null) {
      throw first;
    }
  }
}
