package dev.transforms.runtime.spi;

/**
 * Plugs an engine into the runtime. Implementations are found with {@link java.util.ServiceLoader}
 * (list the class in {@code META-INF/services/dev.transforms.runtime.spi.EngineProvider}), so
 * {@code sdk-api} knows no engine.
 *
 * <p>Engine SPI: it changes only as the {@linkplain dev.transforms.runtime.spi package} promises.
 */
public interface EngineProvider {

  /**
   * The engine's name, as handle types name it in {@code @Handle(engine = ...)}.
   *
   * @return the engine name, such as {@code spark} or {@code single-node}
   */
  String name();

  /**
   * Starts the engine for one build. Called once per build, when the first transform that needs this
   * engine is about to run; the engine is closed when the build ends.
   *
   * @param build what the build shares with its engines: configuration, catalogs, build id
   * @return the started engine
   */
  Engine start(BuildEnvironment build);
}
