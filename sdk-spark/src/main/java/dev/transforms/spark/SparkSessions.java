package dev.transforms.spark;

import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.spi.QuietLogging;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.RuntimeConfig;
import org.apache.spark.sql.SparkSession;

/**
 * Builds and configures the Spark sessions transforms run in.
 *
 * <p>A build runs in its own session, {@link #forBuild made} from a parent session with
 * {@link SparkSession#newSession()}: it shares the parent's SparkContext and cached data but has its
 * own SQL settings, catalogs and temporary views, so the settings of one build never leak into the
 * parent or another build. The parent is the active or default session when there is one (a test
 * JVM's, or spark-submit's), otherwise one built by {@link #builder}.
 */
public final class SparkSessions {

  /** The Iceberg SQL extensions: {@code CALL}, branch and partition DDL. */
  public static final String ICEBERG_EXTENSIONS = "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions";

  /** This SDK's extensions: they let MERGE errors name the statement's ON condition. */
  public static final String TRANSFORMS_EXTENSIONS = TransformsSessionExtensions.class.getName();

  private SparkSessions() {}

  /**
   * A builder for a parent session with the SDK's defaults; settings under {@code spark.*} in the
   * configuration override them. Defaults: master {@code local[*]} (unless the configuration or
   * spark-submit sets {@code spark.master}), the Iceberg and SDK SQL extensions, no web UI, the FAIR
   * scheduler (transforms that run at once each get a pool of their own), and for a
   * local master the driver bound to 127.0.0.1 and few shuffle partitions; plus the SQL settings and
   * catalogs of {@link #forBuild}.
   *
   * @param config the configuration
   * @return a builder; call {@code getOrCreate()}
   */
  public static SparkSession.Builder builder(TransformsConfig config) {
    // Before Spark starts: without a logging configuration of the application's, Spark's own prints
    // every INFO line.
    QuietLogging.applyUnlessConfigured();
    SparkSession.Builder builder = SparkSession.builder().appName("transforms");
    staticSettings(config.sparkProperties()).forEach(builder::config);
    sqlSettings(config.sparkProperties()).forEach(builder::config);
    catalogSettings(config).forEach(builder::config);
    return builder;
  }

  /**
   * A new session for one build, from a parent session: every catalog of the configuration registered
   * under its name, dynamic partition overwrite, ANSI store assignment, adaptive execution, and the
   * configuration's runtime {@code spark.*} settings.
   *
   * @param parent the session to derive from; it is not changed
   * @param config the configuration
   * @return the build's session
   */
  public static SparkSession forBuild(SparkSession parent, TransformsConfig config) {
    SparkSession session = parent.newSession();
    RuntimeConfig conf = session.conf();
    config.sparkProperties().forEach((key, value) -> {
      if (conf.isModifiable(key)) {
        conf.set(key, value);
      }
    });
    sqlSettings(config.sparkProperties()).forEach(conf::set);
    catalogSettings(config).forEach(conf::set);
    return session;
  }

  /**
   * Whether a session has the Iceberg SQL extensions, without which every {@code CALL} fails to parse.
   *
   * @param session a session
   * @return whether the extensions are installed
   */
  public static boolean hasIcebergExtensions(SparkSession session) {
    return session.sparkContext().conf().get("spark.sql.extensions", "").contains(ICEBERG_EXTENSIONS)
        || session.conf().get("spark.sql.extensions", "").contains(ICEBERG_EXTENSIONS);
  }

  /** Settings fixed when the SparkContext starts. */
  static Map<String, String> staticSettings(Map<String, String> configured) {
    Map<String, String> settings = new LinkedHashMap<>();
    Optional<String> master = Optional.ofNullable(configured.get("spark.master"))
        .or(() -> new SparkConf().getOption("spark.master").isDefined()
            ? Optional.of(new SparkConf().get("spark.master")) : Optional.empty());
    if (master.isEmpty()) {
      settings.put("spark.master", "local[*]");
    }
    boolean local = master.map(m -> m.startsWith("local")).orElse(true);
    settings.put("spark.sql.extensions", ICEBERG_EXTENSIONS + "," + TRANSFORMS_EXTENSIONS);
    settings.put("spark.ui.enabled", "false");
    // Transforms that run at once share the context fairly, each in a pool of its own.
    settings.put("spark.scheduler.mode", "FAIR");
    if (local) {
      settings.put("spark.driver.host", "127.0.0.1");
      settings.put("spark.driver.bindAddress", "127.0.0.1");
      settings.put("spark.sql.shuffle.partitions",
          Integer.toString(Math.max(1, Math.min(8, 2 * Runtime.getRuntime().availableProcessors()))));
    }
    settings.putAll(configured);
    return settings;
  }

  /** SQL settings every build needs; the configuration may override them. */
  static Map<String, String> sqlSettings(Map<String, String> configured) {
    Map<String, String> settings = new LinkedHashMap<>();
    // Static mode would make INSERT OVERWRITE without a PARTITION clause drop every row.
    settings.put("spark.sql.sources.partitionOverwriteMode", "dynamic");
    settings.put("spark.sql.storeAssignmentPolicy", "ANSI");
    settings.put("spark.sql.adaptive.enabled", "true");
    settings.keySet().forEach(key -> Optional.ofNullable(configured.get(key)).ifPresent(v -> settings.put(key, v)));
    return settings;
  }

  /**
   * The settings that register every configured catalog. The catalog class is
   * {@link TransformsSparkCatalog}, Iceberg's {@code SparkCatalog} with guards for staged outputs.
   * Table caching is off unless configured: the runtime commits through its own catalog client
   * (staging branches, publication), and a cached table would hide those commits from Spark.
   */
  static Map<String, String> catalogSettings(TransformsConfig config) {
    Map<String, String> settings = new LinkedHashMap<>();
    config.catalogs().forEach((name, props) -> {
      String prefix = "spark.sql.catalog." + name;
      settings.put(prefix, TransformsSparkCatalog.class.getName());
      props.forEach((key, value) -> settings.put(prefix + "." + key, value));
      settings.putIfAbsent(prefix + ".cache-enabled", "false");
    });
    return settings;
  }

  /**
   * Closes the Iceberg catalog clients (JDBC connections...) a session opened for some catalogs.
   * Best effort: a failure is logged, not thrown.
   *
   * @param session a session made by {@link #forBuild}
   * @param names catalog names the session used
   */
  public static void closeCatalogs(SparkSession session, java.util.Collection<String> names) {
    org.apache.spark.sql.connector.catalog.CatalogManager manager = session.sessionState().catalogManager();
    for (String name : names) {
      try {
        if (manager.isCatalogRegistered(name)
            && manager.catalog(name) instanceof org.apache.iceberg.spark.SparkCatalog catalog
            && catalog.icebergCatalog() instanceof java.io.Closeable closeable) {
          closeable.close();
        }
      } catch (Exception e) {
        org.slf4j.LoggerFactory.getLogger(SparkSessions.class).debug("Cannot close catalog {}", name, e);
      }
    }
  }
}
