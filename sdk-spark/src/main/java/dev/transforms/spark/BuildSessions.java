package dev.transforms.spark;

import dev.transforms.runtime.TransformsConfig;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.spark.sql.SparkSession;

/**
 * Build sessions derived from a long-lived parent session (a test JVM's, a service's), one per
 * configuration and lane, kept from build to build. A build that runs transforms at once gives each
 * lane (see {@code TransformRun.lane()}) a session of its own, so that a setting one transform changes,
 * a temporary view it registers, never reaches another running beside it; lane 0 is the session a
 * build running one transform at a time always had.
 *
 * <p>Deriving a session registers the configuration's catalogs, and each catalog's first use opens
 * its client (a JDBC pool for the embedded catalog). Keeping the session per configuration pays that
 * once instead of on every build. Between builds the session drops its temporary views, so nothing of
 * one build is visible to the next; its catalogs do not cache tables, so they see every commit.
 */
final class BuildSessions {

  private static final Map<TransformsConfig, Map<Integer, SparkSession>> SESSIONS = new WeakHashMap<>();

  private BuildSessions() {}

  /** The session of a configuration's lane, derived from the parent on first use. */
  static synchronized SparkSession sessionFor(SparkSession parent, TransformsConfig config, int lane) {
    Map<Integer, SparkSession> lanes = SESSIONS.computeIfAbsent(config, c -> new HashMap<>());
    SparkSession session = lanes.get(lane);
    if (session == null || session.sparkContext() != parent.sparkContext() || parent.sparkContext().isStopped()) {
      session = SparkSessions.forBuild(parent, config);
      lanes.put(lane, session);
    }
    return session;
  }

  /** Drops what a build left in its session: temporary views, such as changelog views. */
  static void endBuild(SparkSession session) {
    session.sessionState().catalog().clearTempTables();
  }

  /** Forgets the session of a configuration whose parent session is stopping. */
  static synchronized void forget(TransformsConfig config) {
    SESSIONS.remove(config);
  }
}
