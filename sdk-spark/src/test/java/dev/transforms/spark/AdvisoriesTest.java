package dev.transforms.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.AdvisoryException;
import dev.transforms.api.AdvisoryLevel;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.Advisory;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.Transforms;
import dev.transforms.runtime.TransformsConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Each Spark advisory: a transform that earns it beside a near-identical one that does not, all in
 * one build to keep the test short; then the levels: off, error (nothing published), and the
 * annotation overriding the configuration both ways. Thresholds are lowered through the configuration.
 */
public class AdvisoriesTest extends SparkTestBase {

  static final String IN = "/Advice/in/rows";
  static final String PARTITIONED = "/Advice/out/partitioned";
  static final String MERGED = "/Advice/out/merged";
  static volatile String jsonFile;

  static final String THRESHOLDS = """
      advisories.withcolumn-loop.projections=8
      advisories.driver-collect.rows=50
      advisories.small-files.min-files=4
      advisories.small-files.fraction=1
      """;

  /** Opens the runner on a configuration with the given lines added to the test thresholds. */
  private void configure(String lines) throws IOException {
    runner.close();
    Path file = dir.resolve(TransformsConfig.FILE_NAME);
    Files.writeString(file, THRESHOLDS + lines);
    config = TransformsConfig.load(Optional.of(file), Optional.of(dir.resolve("warehouse")), Map.of(), dir);
    runner = Transforms.open(config);
  }

  private void seed() {
    List<String> rows = new ArrayList<>();
    for (int i = 1; i <= 12; i++) {
      rows.add(i + ", " + (i % 3 == 0 ? "NULL" : "'k" + (i % 4) + "'") + ", " + i * 10);
    }
    createTable(IN, "id BIGINT, k STRING, v INT", rows.toArray(String[]::new));
  }

  private static SparkSession spark(TableTransformInput in) {
    return in.dataframe().sparkSession();
  }

  // ---- withcolumn-loop

  /** Adds ten columns one withColumn at a time. */
  public static class Loop {
    @Transform(name = "loop")
    public void run(@TableInput(IN) TableTransformInput in, @TableOutput("/Advice/out/loop") TableTransformOutput out) {
      Dataset<Row> df = in.dataframe();
      for (int i = 0; i < 10; i++) {
        df = df.withColumn("c" + i, lit(i));
      }
      out.writeDataFrame(df);
    }
  }

  /** Adds the same ten columns in one select. */
  public static class OneSelect {
    @Transform(name = "one-select")
    public void run(@TableInput(IN) TableTransformInput in,
        @TableOutput("/Advice/out/one-select") TableTransformOutput out) {
      List<Column> columns = new ArrayList<>(List.of(col("id"), col("k"), col("v")));
      for (int i = 0; i < 10; i++) {
        columns.add(lit(i).as("c" + i));
      }
      out.writeDataFrame(in.dataframe().select(columns.toArray(Column[]::new)));
    }
  }

  // ---- cartesian-product and null-unsafe-join

  /** Pairs every row with every row. */
  public static class Cross {
    @Transform(name = "cross")
    public void run(@TableInput(IN) TableTransformInput in, @TableOutput("/Advice/out/cross") TableTransformOutput out) {
      Dataset<Row> a = in.dataframe().as("a");
      Dataset<Row> b = in.dataframe().as("b");
      out.writeDataFrame(a.crossJoin(b).select(col("a.id"), col("b.v")));
    }
  }

  /** Joins the rows with themselves on k with =, so rows with a null k drop out. */
  public static class NullUnsafe {
    @Transform(name = "null-unsafe")
    public void run(@TableInput(IN) TableTransformInput in,
        @TableOutput("/Advice/out/null-unsafe") TableTransformOutput out) {
      Dataset<Row> a = in.dataframe().as("a");
      Dataset<Row> b = in.dataframe().as("b");
      out.writeDataFrame(a.join(b, col("a.k").equalTo(col("b.k"))).select(col("a.id"), col("b.v")));
    }
  }

  /** The same self-join with eqNullSafe. */
  public static class NullSafe {
    @Transform(name = "null-safe")
    public void run(@TableInput(IN) TableTransformInput in,
        @TableOutput("/Advice/out/null-safe") TableTransformOutput out) {
      Dataset<Row> a = in.dataframe().as("a");
      Dataset<Row> b = in.dataframe().as("b");
      out.writeDataFrame(a.join(b, col("a.k").eqNullSafe(col("b.k"))).select(col("a.id"), col("b.v")));
    }
  }

  // ---- driver-collect

  /** Brings 100 rows to the driver. */
  public static class CollectMany {
    @Transform(name = "collect-many")
    public void run(@TableInput(IN) TableTransformInput in,
        @TableOutput("/Advice/out/collect-many") TableTransformOutput out) {
      assertThat(spark(in).range(100).collectAsList()).hasSize(100);
      out.writeDataFrame(in.dataframe());
    }
  }

  /** Brings 10 rows to the driver. */
  public static class CollectFew {
    @Transform(name = "collect-few")
    public void run(@TableInput(IN) TableTransformInput in,
        @TableOutput("/Advice/out/collect-few") TableTransformOutput out) {
      assertThat(spark(in).range(10).collectAsList()).hasSize(10);
      out.writeDataFrame(in.dataframe());
    }
  }

  // ---- inferred-schema

  /** Reads JSON and lets Spark infer its schema. */
  public static class Inferred {
    @Transform(name = "inferred")
    public void run(@TableInput(IN) TableTransformInput in,
        @TableOutput("/Advice/out/inferred") TableTransformOutput out) {
      out.writeDataFrame(spark(in).read().json(jsonFile).select(col("id"), col("k")));
    }
  }

  /** Reads the same JSON with its schema given. */
  public static class Declared {
    @Transform(name = "declared")
    public void run(@TableInput(IN) TableTransformInput in,
        @TableOutput("/Advice/out/declared") TableTransformOutput out) {
      out.writeDataFrame(spark(in).read().schema("id BIGINT, k STRING").json(jsonFile).select(col("id"), col("k")));
    }
  }

  // ---- small-files

  /** Writes twelve rows as six files. */
  public static class Scattered {
    @Transform(name = "scattered")
    public void run(@TableInput(IN) TableTransformInput in,
        @TableOutput("/Advice/out/scattered") TableTransformOutput out) {
      out.writeDataFrame(in.dataframe().repartition(6));
    }
  }

  /** Writes the same rows as one file. */
  public static class OneFile {
    @Transform(name = "one-file")
    public void run(@TableInput(IN) TableTransformInput in,
        @TableOutput("/Advice/out/one-file") TableTransformOutput out) {
      out.writeDataFrame(in.dataframe().coalesce(1));
    }
  }

  @Test
  void eachSparkRuleIsEarnedByOneTransformAndNotByItsTwin() throws IOException {
    configure("");
    seed();
    Path json = dir.resolve("rows.json");
    Files.writeString(json, "{\"id\": 1, \"k\": \"a\"}\n{\"id\": 2, \"k\": \"b\"}\n");
    jsonFile = json.toString();
    BuildReport report = build(Loop.class, OneSelect.class, Cross.class, NullUnsafe.class, NullSafe.class,
        CollectMany.class, CollectFew.class, Inferred.class, Declared.class, Scattered.class, OneFile.class);
    SoftAssertions soft = new SoftAssertions();
    report.results().forEach(r -> soft.assertThat(r.status()).as(r.transform() + ": " + r.error())
        .isEqualTo(TransformResult.Status.SUCCEEDED));
    pair(soft, report, "withcolumn-loop", "loop", "one-select");
    pair(soft, report, "cartesian-product", "cross", "null-safe");
    pair(soft, report, "null-unsafe-join", "null-unsafe", "null-safe");
    pair(soft, report, "driver-collect", "collect-many", "collect-few");
    pair(soft, report, "inferred-schema", "inferred", "declared");
    pair(soft, report, "small-files", "scattered", "one-file");
    soft.assertThat(report.format()).contains("advisory [withcolumn-loop]");
    soft.assertAll();
  }

  private static void pair(SoftAssertions soft, BuildReport report, String rule, String earns, String twin) {
    soft.assertThat(rules(report, earns)).as(earns + " earns " + rule).contains(rule);
    soft.assertThat(rules(report, twin)).as(twin + " does not earn " + rule).doesNotContain(rule);
  }

  private static List<String> rules(BuildReport report, String transform) {
    return report.result(transform).orElseThrow().advisories().stream().map(Advisory::rule).toList();
  }
}
