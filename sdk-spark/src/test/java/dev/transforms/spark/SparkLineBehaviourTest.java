package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * What differs between Spark lines and what the SDK leaves to Spark (docs/spark.md, "Spark 4.1"): these
 * tests run on each line (sdk-spark and sdk-spark-4.1) and say which behaviour a transform's session has.
 */
class SparkLineBehaviourTest extends SparkTestBase {

  private static boolean spark4() {
    return org.apache.spark.package$.MODULE$.SPARK_VERSION().startsWith("4.");
  }

  @Test
  void ansiModeIsSparksDefaultOfTheLine() {
    // The SDK sets spark.sql.storeAssignmentPolicy=ANSI on both lines and leaves spark.sql.ansi.enabled alone.
    assertThat(spark.conf().get("spark.sql.ansi.enabled")).isEqualTo(spark4() ? "true" : "false");
    if (spark4()) {
      assertThatThrownBy(() -> spark.sql("SELECT CAST('x' AS INT)").collect())
          .hasMessageContaining("CAST_INVALID_INPUT");
    } else {
      List<Row> rows = spark.sql("SELECT CAST('x' AS INT)").collectAsList();
      assertThat(rows.get(0).isNullAt(0)).isTrue();
    }
  }

  @Test
  void parameterizedSqlReachesThroughTheSdksParser() {
    // The SDK's parser wraps Spark's; on 4.1 named parameters go through parsePlanWithParameters.
    List<Row> rows = spark.sql("SELECT :n + 1 AS m", java.util.Map.of("n", 41)).collectAsList();
    assertThat(rows.get(0).getInt(0)).isEqualTo(42);
  }
}
