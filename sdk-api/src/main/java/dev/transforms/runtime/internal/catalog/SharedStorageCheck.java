package dev.transforms.runtime.internal.catalog;

import dev.transforms.runtime.TransformsConfig;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the catalogs of a configuration that keep their data where only one machine can see it, for a
 * build whose Spark master is a cluster.
 *
 * <p>On a cluster, Spark executors on other machines read and write the data files, and in cluster
 * deploy mode the driver itself runs on some other node. An embedded SQLite catalog ({@code uri} of
 * {@code jdbc:sqlite:}) and a warehouse on a local path ({@code file:} or no scheme) then work only when
 * every node sees the same paths, as on one machine or on a shared file system. Object storage
 * ({@code s3://}, {@code gs://}, {@code abfs://}...), HDFS and network catalogs (REST, Hive, a JDBC
 * server) have no such limit.
 *
 * <p>Only catalogs that a mount uses are checked; the embedded default is always defined but often
 * unused.
 */
public final class SharedStorageCheck {

  private SharedStorageCheck() {}

  /**
   * The Spark master a build in this process would use: {@code spark.master} of the configuration,
   * else the JVM's {@code spark.master} system property (which {@code spark-submit} sets).
   *
   * @param config the configuration
   * @return the master URL, or empty when none is set (a local session then)
   */
  public static Optional<String> sparkMaster(TransformsConfig config) {
    return Optional.ofNullable(config.sparkProperties().get("spark.master"))
        .or(() -> Optional.ofNullable(System.getProperty("spark.master")));
  }

  /**
   * Whether a Spark master URL runs executors in other processes, possibly on other machines.
   *
   * @param master a master URL such as {@code local[4]}, {@code spark://host:7077}, {@code yarn}
   * @return false for {@code local}, {@code local[N]} and {@code local[*]}; true otherwise
   */
  public static boolean isCluster(String master) {
    return !master.trim().toLowerCase(Locale.ROOT).startsWith("local");
  }

  /**
   * One warning per used catalog whose catalog database or warehouse is on a local path, when the
   * master is a cluster.
   *
   * @param config the configuration
   * @param master the Spark master URL, or empty for a local session
   * @return the warnings, each naming the catalog, the path and what to do; empty when all is shared
   */
  public static List<String> warnings(TransformsConfig config, Optional<String> master) {
    if (master.isEmpty() || !isCluster(master.get())) {
      return List.of();
    }
    Set<String> used = new LinkedHashSet<>();
    config.mounts().forEach(m -> used.add(m.catalog()));
    List<String> warnings = new ArrayList<>();
    for (String name : used) {
      Map<String, String> props = config.catalogs().getOrDefault(name, Map.of());
      List<String> localParts = new ArrayList<>();
      String uri = props.getOrDefault("uri", "");
      if (uri.startsWith("jdbc:sqlite:")) {
        localParts.add("its SQLite database " + uri.substring("jdbc:sqlite:".length()));
      }
      String warehouse = props.getOrDefault("warehouse", "");
      if (isLocalPath(warehouse) && !"rest".equals(props.get("type"))) {
        localParts.add("its warehouse " + warehouse);
      }
      if (!localParts.isEmpty()) {
        warnings.add("catalog '" + name + "' keeps " + String.join(" and ", localParts) + " on a local path, but "
            + "spark.master is " + master.get() + ": this works only if every node of the cluster sees the same "
            + "path (one machine, or a shared file system). Use a REST catalog and object storage (s3://...) "
            + "instead; see docs/cluster.md.");
      }
    }
    return warnings;
  }

  /** A warehouse location on the local file system: {@code file:} or a plain path. */
  private static boolean isLocalPath(String location) {
    if (location.isEmpty()) {
      return false;
    }
    String lower = location.toLowerCase(Locale.ROOT);
    if (lower.startsWith("file:")) {
      return true;
    }
    int colon = lower.indexOf(':');
    int slash = lower.indexOf('/');
    // No scheme at all (a path), or a Windows drive letter: local.
    return colon < 0 || (slash >= 0 && slash < colon) || colon == 1;
  }
}
