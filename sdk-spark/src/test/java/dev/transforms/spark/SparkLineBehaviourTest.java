package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * What differs between Spark lines and what the SDK leaves to Spark (docs/spark.md, "Spark 4.1"): these
 * tests run on each line (sdk-spark and sdk-spark-4.1) and say which behaviour a transform's session has.
 */
public class SparkLineBehaviourTest extends SparkTestBase {

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

  static final Map<String, String> SEEN = new ConcurrentHashMap<>();

  /** Records the settings a transform's session has, and what a division by zero gives in it. */
  public static class Settings {
    @Transform(name = "settings")
    public void run(SparkTransformContext ctx, @TableInput("/Line/in/one") TableTransformInput in,
        @TableOutput("/Line/out/one") TableTransformOutput out) {
      SparkSession session = ctx.sparkSession();
      SEEN.put("ansi", session.conf().get("spark.sql.ansi.enabled"));
      SEEN.put("store", session.conf().get("spark.sql.storeAssignmentPolicy"));
      try {
        SEEN.put("1/0", String.valueOf(session.sql("SELECT 1 / 0").collectAsList().get(0).get(0)));
      } catch (RuntimeException e) {
        SEEN.put("1/0", String.valueOf(e.getMessage()));
      }
      out.writeDataFrame(in.dataframe());
    }
  }

  @Test
  void aTransformRunsInTheLinesAnsiModeUnlessTransformsPropertiesSetsIt() throws Exception {
    createTable("/Line/in/one", "x INT", "1");
    SEEN.clear();
    assertThat(only(build(Settings.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(SEEN).containsEntry("ansi", spark4() ? "true" : "false").containsEntry("store", "ANSI");
    if (spark4()) {
      assertThat(SEEN.get("1/0")).contains("DIVIDE_BY_ZERO");
    } else {
      assertThat(SEEN.get("1/0")).isEqualTo("null");
    }

    // transforms.properties chooses the other mode.
    String chosen = spark4() ? "false" : "true";
    java.nio.file.Path file = Files.writeString(dir.resolve("transforms.properties"),
        "spark.sql.ansi.enabled=" + chosen + "\n");
    TransformsConfig configured = TransformsConfig.load(Optional.of(file), Optional.of(dir.resolve("warehouse")),
        Map.of(), dir);
    SEEN.clear();
    try (Transforms other = Transforms.open(configured)) {
      TransformResult result = other.build(Transforms.Selection.of(Settings.class).force()).results().get(0);
      assertThat(result.status()).as(String.valueOf(result.error().orElse(null))).isEqualTo(TransformResult.Status.SUCCEEDED);
    }
    assertThat(SEEN).containsEntry("ansi", chosen).containsEntry("store", "ANSI");
    if (spark4()) {
      assertThat(SEEN.get("1/0")).isEqualTo("null");
    } else {
      assertThat(SEEN.get("1/0")).contains("DIVIDE_BY_ZERO");
    }
  }

  @Test
  void parameterizedSqlReachesThroughTheSdksParser() {
    // The SDK's parser wraps Spark's; on 4.1 named parameters go through parsePlanWithParameters.
    List<Row> rows = spark.sql("SELECT :n + 1 AS m", java.util.Map.of("n", 41)).collectAsList();
    assertThat(rows.get(0).getInt(0)).isEqualTo(42);
  }
}
