package dev.transforms.runtime.spi;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/** Run in a JVM of its own by {@link QuietLoggingTest}: logs an INFO and a WARN line after the SDK's call. */
public final class QuietLoggingProbe {

  private QuietLoggingProbe() {}

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("log-first")) {
      // Something logged before the SDK's call: Log4j started with its default configuration.
      LogManager.getLogger("early").error("early line");
    }
    QuietLogging.applyUnlessConfigured();
    Logger logger = LogManager.getLogger("org.apache.spark.SparkContext");
    logger.info("an info line");
    logger.warn("a warning line");
  }
}
