package dev.transforms.spark;

import dev.transforms.runtime.TransformsConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.apache.spark.sql.SparkSession;

/** The one Spark session of the test JVM, started on first use; the engine derives build sessions from it. */
final class SharedSpark {

  private static SparkSession session;

  private SharedSpark() {}

  static synchronized SparkSession session() {
    if (session == null) {
      try {
        TransformsConfig config = TransformsConfig.embedded(Files.createTempDirectory("transforms-spark-test"));
        session = SparkSessions.builder(config).master("local[2]").getOrCreate();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return session;
  }
}
