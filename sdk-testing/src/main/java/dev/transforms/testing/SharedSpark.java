package dev.transforms.testing;

import dev.transforms.runtime.TransformsConfig;
import dev.transforms.spark.SparkSessions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.apache.spark.sql.SparkSession;

/**
 * The one SparkSession of a test JVM. The Spark engine derives a session per build from it (its own
 * catalogs and settings, the same SparkContext), so starting Spark is paid once per test run. Loaded only
 * when a test builds a Spark transform, so tests without Spark never need it on the classpath.
 */
final class SharedSpark implements AutoCloseable {

  private static SharedSpark fallback;

  private final SparkSession session;

  SharedSpark() {
    try {
      // The session's own catalogs are never used: each build registers its warehouse's catalogs.
      TransformsConfig placeholder = TransformsConfig.embedded(Files.createTempDirectory("transforms-spark-"));
      session = SparkSessions.builder(placeholder)
          .master("local[2]")
          .config("spark.sql.shuffle.partitions", "2")
          .config("spark.default.parallelism", "2")
          .getOrCreate();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create a folder for the test Spark session", e);
    }
  }

  /** A session for code that uses a TestWarehouse outside the extension; it lives until the JVM exits. */
  static synchronized SharedSpark fallback() {
    if (fallback == null) {
      fallback = new SharedSpark();
    }
    return fallback;
  }

  SparkSession session() {
    return session;
  }

  @Override
  public void close() {
    session.stop();
  }
}
