package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The engine refuses a Spark line it was not compiled for, and names the artifacts of both lines. */
class SparkLineCheckTest {

  private static final boolean ON_41 = org.apache.spark.package$.MODULE$.SPARK_VERSION().startsWith("4.1");

  @Test
  void theRunningSparkIsThisEnginesLine() {
    assertThat(SparkLineCheck.mismatch(org.apache.spark.package$.MODULE$.SPARK_VERSION(),
        scala.util.Properties.versionNumberString())).isEmpty();
    SparkLineCheck.require();
  }

  @Test
  void anEngineOfOneLineRefusesTheOther() {
    String other = ON_41 ? "3.5.9" : "4.1.3";
    String otherScala = ON_41 ? "2.12.18" : "2.13.17";
    assertThat(SparkLineCheck.mismatch(other, otherScala)).hasValueSatisfying(message -> assertThat(message)
        .contains("built for Spark " + (ON_41 ? "4.1 with Scala 2.13" : "3.5 with Scala 2.12"))
        .contains("runs on Spark " + other + " with Scala " + otherScala)
        .contains("sdk-spark-4.1_2.13, transforms-bom-spark-4.1_2.13"));
  }

  @Test
  void aPatchReleaseOfTheLineIsAcceptedAnotherMinorOrScalaIsNot() {
    String line = ON_41 ? "4.1" : "3.5";
    String scala = ON_41 ? "2.13" : "2.12";
    assertThat(SparkLineCheck.mismatch(line + ".0", scala + ".1")).isEmpty();
    assertThat(SparkLineCheck.mismatch(line + ".99", scala + ".99")).isEmpty();
    assertThat(SparkLineCheck.mismatch(ON_41 ? "4.2.0" : "3.4.4", scala + ".1")).isPresent();
    assertThat(SparkLineCheck.mismatch(line + ".1", ON_41 ? "2.12.18" : "2.13.17")).isPresent();
  }
}
