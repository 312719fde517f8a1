package dev.transforms.spark;

import dev.transforms.api.TransformsException;
import java.util.Optional;

/**
 * Refuses to start the Spark engine on a Spark line it was not compiled for. Scala 2.12 and 2.13 classes
 * do not mix, and Iceberg's Spark runtime is built per Spark line, so a pipeline jar of one line on a
 * cluster of the other fails later with a linkage error deep inside Spark; this says what to use instead,
 * before any build starts.
 */
final class SparkLineCheck {

  private SparkLineCheck() {}

  /** Throws, naming both lines and the artifacts to use, when the running Spark is not this engine's line. */
  static void require() {
    Optional<String> mismatch = mismatch(org.apache.spark.package$.MODULE$.SPARK_VERSION(),
        scala.util.Properties.versionNumberString());
    if (mismatch.isPresent()) {
      throw new TransformsException(mismatch.get());
    }
  }

  /**
   * What is wrong with running this engine on the given versions.
   *
   * @param spark the running Spark's version, as {@code 4.1.3}
   * @param scala the running Scala's version, as {@code 2.13.17}
   * @return the error, or empty when the versions are of this engine's line
   */
  static Optional<String> mismatch(String spark, String scala) {
    if (majorMinor(spark).equals(SparkLine.SPARK) && majorMinor(scala).equals(SparkLine.SCALA)) {
      return Optional.empty();
    }
    return Optional.of("This Spark engine is built for Spark " + SparkLine.SPARK + " with Scala " + SparkLine.SCALA
        + " (" + SparkLine.ARTIFACTS + "), but it runs on Spark " + spark + " with Scala " + scala
        + ". Build the pipeline with the artifacts of the running line (Spark 3.5: sdk-spark, transforms-bom; "
        + "Spark 4.1: sdk-spark-4.1_2.13, transforms-bom-spark-4.1_2.13; README.md, Requirements), or run it on "
        + "Spark " + SparkLine.SPARK + ".");
  }

  private static String majorMinor(String version) {
    String[] parts = version.split("\\.");
    return parts.length < 2 ? version : parts[0] + "." + parts[1];
  }
}
