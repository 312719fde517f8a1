package dev.transforms.runtime.spi;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.List;

/**
 * The SDK's quiet Log4j 2 configuration ({@value #RESOURCE}) for applications that have none of their
 * own: without it, Spark falls back to its own defaults and prints about 150 INFO lines per build. An
 * application's configuration always wins: a {@code log4j2*} file on the class path (such as
 * {@code log4j2-test.properties} in a project's test resources) or {@code -Dlog4j2.configurationFile}.
 * Without Log4j's core on the class path there is nothing to configure and nothing happens.
 */
public final class QuietLogging {

  /** The configuration's resource. */
  public static final String RESOURCE = "dev/transforms/logging/quiet-log4j2.properties";

  private static final String CONFIGURATION_FILE = "log4j2.configurationFile";

  /** The names Log4j 2 looks for on the class path, in its order of preference. */
  private static final List<String> OWN_CONFIGURATIONS = List.of("log4j2-test.properties", "log4j2-test.yaml",
      "log4j2-test.yml", "log4j2-test.json", "log4j2-test.jsn", "log4j2-test.xml", "log4j2.properties",
      "log4j2.yaml", "log4j2.yml", "log4j2.json", "log4j2.jsn", "log4j2.xml");

  private static volatile boolean applied;

  private QuietLogging() {}

  /**
   * Uses the quiet configuration unless the application configured logging itself. Call it before Spark
   * starts; if Log4j already started with no configuration (its default), it is reconfigured.
   */
  public static synchronized void applyUnlessConfigured() {
    if (applied) {
      return;
    }
    applied = true;
    ClassLoader loader = classLoader();
    if (System.getProperty(CONFIGURATION_FILE) != null || System.getProperty("log4j.configurationFile") != null
        || OWN_CONFIGURATIONS.stream().anyMatch(name -> loader.getResource(name) != null)) {
      return;
    }
    URL quiet = QuietLogging.class.getClassLoader().getResource(RESOURCE);
    if (quiet == null || loader.getResource("org/apache/logging/log4j/core/LoggerContext.class") == null) {
      return;
    }
    System.setProperty(CONFIGURATION_FILE, quiet.toString());
    try {
      Log4jCore.reconfigureIfDefault(quiet.toURI());
    } catch (URISyntaxException | LinkageError e) {
      // Log4j starts with the property set above the first time it is used.
    }
  }

  /**
   * Silences Spark, Hadoop and Iceberg for the rest of the process, which is ending: on Ctrl-C the
   * cancelled jobs' tasks abort, and each library logs its abort as an error with a stack trace, while the
   * build's own report says what became of every transform. Only for a process that is stopping.
   */
  public static void silenceLibrariesWhileStopping() {
    try {
      if (classLoader().getResource("org/apache/logging/log4j/core/config/Configurator.class") != null) {
        Log4jCore.silence(List.of("org.apache.spark", "org.sparkproject", "org.apache.hadoop", "org.apache.iceberg",
            "org.apache.parquet"));
      }
    } catch (LinkageError | RuntimeException e) {
      // Logging stays as it was.
    }
  }

  private static ClassLoader classLoader() {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    return context != null ? context : QuietLogging.class.getClassLoader();
  }

  /** Log4j's core, touched only once it is known to be on the class path. */
  private static final class Log4jCore {
    static void silence(List<String> loggers) {
      java.util.Map<String, org.apache.logging.log4j.Level> levels = new java.util.HashMap<>();
      loggers.forEach(name -> levels.put(name, org.apache.logging.log4j.Level.OFF));
      org.apache.logging.log4j.core.config.Configurator.setLevel(levels);
    }

    static void reconfigureIfDefault(URI configuration) {
      if (org.apache.logging.log4j.LogManager.getContext(false)
          instanceof org.apache.logging.log4j.core.LoggerContext context
          && context.getConfiguration() instanceof org.apache.logging.log4j.core.config.DefaultConfiguration) {
        context.setConfigLocation(configuration);
      }
    }
  }
}
