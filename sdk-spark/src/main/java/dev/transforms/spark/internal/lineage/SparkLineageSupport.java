package dev.transforms.spark.internal.lineage;

import dev.transforms.runtime.spi.RunLineage;
import dev.transforms.runtime.spi.TransformRun;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a Spark transform's jobs get lineage of their own, without loading {@code openlineage-spark}
 * unless it is there: the build emits lineage, and {@code io.openlineage:openlineage-spark} is on the
 * classpath.
 */
public final class SparkLineageSupport {

  private static final Logger LOG = LoggerFactory.getLogger(SparkLineageSupport.class);
  private static final String LISTENER = "io.openlineage.spark.agent.OpenLineageSparkListener";
  private static volatile Boolean available;

  private SparkLineageSupport() {}

  /**
   * Starts hearing a run's Spark jobs on the calling thread, the one that invokes the method.
   *
   * @param session the run's session
   * @param run the run
   * @return what to close when the method returned; {@code null} when the build emits no lineage or
   *     {@code openlineage-spark} is not on the classpath
   */
  public static AutoCloseable start(SparkSession session, TransformRun run) {
    Optional<RunLineage> lineage = run.build().lineage().apply(run.spec().name());
    if (lineage.isEmpty() || !available() || !namesDatasetsOf(run)) {
      return null;
    }
    try {
      return SparkLineage.start(session, lineage.get());
    } catch (RuntimeException | LinkageError e) {
      // Lineage is best effort: the transform runs without its Spark jobs' lineage.
      LOG.warn("OpenLineage: the Spark jobs of transform {} emit no lineage: {}", run.spec().name(), e.toString());
      return null;
    }
  }

  /**
   * Whether {@code openlineage-spark} can name the tables of a run: it cannot name a table of an Iceberg
   * JDBC catalog (1.53 takes such a catalog for Hive and fails on its {@code jdbc:} URI, with a warning and
   * a stack trace per query), so a run whose tables all live in JDBC catalogs (the embedded one included)
   * gets no listener: its jobs' events would hold no dataset.
   *
   * @param run the run
   * @return whether some input or output lives in a catalog of another kind
   */
  static boolean namesDatasetsOf(TransformRun run) {
    java.util.Set<String> catalogs = new java.util.TreeSet<>();
    run.inputs().forEach(i -> catalogs.add(i.resolved().catalog()));
    run.outputs().forEach(o -> catalogs.add(o.resolved().catalog()));
    for (String catalog : catalogs) {
      java.util.Map<String, String> properties = run.build().config().catalogs().getOrDefault(catalog,
          java.util.Map.of());
      String type = properties.getOrDefault("type", "").strip().toLowerCase(java.util.Locale.ROOT);
      String impl = properties.getOrDefault("catalog-impl", "");
      if (!type.equals("jdbc") && !impl.endsWith(".JdbcCatalog")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code openlineage-spark} is on the classpath.
   *
   * @return whether its listener class loads
   */
  public static boolean available() {
    Boolean known = available;
    if (known == null) {
      try {
        Class.forName(LISTENER, false, SparkLineageSupport.class.getClassLoader());
        known = true;
      } catch (ClassNotFoundException | LinkageError e) {
        known = false;
      }
      available = known;
    }
    return known;
  }
}
