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
import dev.transforms.Transforms;
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

  // ---- v1-write, static-overwrite, merge-source-not-unique: outputs that exist before the build

  /** Appends through the v1 writer. */
  public static class V1Save {
    @Transform(name = "v1-save")
    public void run(@TableInput(IN) TableTransformInput in, @TableOutput("/Advice/out/v1") TableTransformOutput out) {
      in.dataframe().write().format("iceberg").mode("append").save(out.identifier());
    }
  }

  /** Appends through the v2 writer. */
  public static class V2Append {
    @Transform(name = "v2-append")
    public void run(@TableInput(IN) TableTransformInput in, @TableOutput("/Advice/out/v2") TableTransformOutput out)
        throws Exception {
      in.dataframe().writeTo(out.identifier()).append();
    }
  }

  /** INSERT OVERWRITE of a partitioned table in static mode. */
  public static class StaticInsert {
    @Transform(name = "static-insert")
    public void run(@TableInput(IN) TableTransformInput in, @TableOutput(PARTITIONED) TableTransformOutput out) {
      insertOverwrite(in, out, "static");
    }
  }

  /** The same INSERT OVERWRITE in dynamic mode. */
  public static class DynamicInsert {
    @Transform(name = "dynamic-insert")
    public void run(@TableInput(IN) TableTransformInput in,
        @TableOutput("/Advice/out/partitioned-dynamic") TableTransformOutput out) {
      insertOverwrite(in, out, "dynamic");
    }
  }

  static void insertOverwrite(TableTransformInput in, TableTransformOutput out, String mode) {
    SparkSession spark = spark(in);
    spark.conf().set("spark.sql.sources.partitionOverwriteMode", mode);
    try {
      spark.sql("INSERT OVERWRITE " + out.identifier() + " SELECT id, k, v FROM " + in.identifier());
    } finally {
      spark.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
    }
  }

  /** MERGE from the input's rows as they are. */
  public static class MergeRaw {
    @Transform(name = "merge-raw")
    public void run(@TableInput(IN) TableTransformInput in, @TableOutput(MERGED) TableTransformOutput out) {
      merge(in, out, "SELECT id, k, v FROM " + in.identifier());
    }
  }

  /** The same MERGE from the rows grouped by the key. */
  public static class MergeGrouped {
    @Transform(name = "merge-grouped")
    public void run(@TableInput(IN) TableTransformInput in,
        @TableOutput("/Advice/out/merged-grouped") TableTransformOutput out) {
      merge(in, out, "SELECT id, max(k) AS k, max(v) AS v FROM " + in.identifier() + " GROUP BY id");
    }
  }

  static void merge(TableTransformInput in, TableTransformOutput out, String source) {
    spark(in).sql("MERGE INTO " + out.identifier() + " t USING (" + source + ") s ON t.id = s.id "
        + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
  }

  // ---- levels

  /** Earns cartesian-product at the configured level. */
  public static class CrossDefault {
    @Transform(name = "cross-default")
    public void run(@TableInput(IN) TableTransformInput in,
        @TableOutput("/Advice/out/cross-default") TableTransformOutput out) {
      cross(in, out);
    }
  }

  /** Earns it with advisories off on the annotation. */
  public static class CrossOff {
    @Transform(name = "cross-off", advisories = AdvisoryLevel.OFF)
    public void run(@TableInput(IN) TableTransformInput in,
        @TableOutput("/Advice/out/cross-off") TableTransformOutput out) {
      cross(in, out);
    }
  }

  /** Earns it at level warn on the annotation. */
  public static class CrossWarn {
    @Transform(name = "cross-warn", advisories = AdvisoryLevel.WARN)
    public void run(@TableInput(IN) TableTransformInput in,
        @TableOutput("/Advice/out/cross-warn") TableTransformOutput out) {
      cross(in, out);
    }
  }

  /** Earns it at level error on the annotation. */
  public static class CrossError {
    @Transform(name = "cross-error", advisories = AdvisoryLevel.ERROR)
    public void run(@TableInput(IN) TableTransformInput in,
        @TableOutput("/Advice/out/cross-error") TableTransformOutput out) {
      cross(in, out);
    }
  }

  static void cross(TableTransformInput in, TableTransformOutput out) {
    Dataset<Row> a = in.dataframe().as("a");
    Dataset<Row> b = in.dataframe().as("b");
    out.writeDataFrame(a.crossJoin(b).select(col("a.id"), col("b.v")));
  }

  @Test
  void writesEarnTheirRulesAndTheirTwinsDoNot() throws IOException {
    configure("");
    seed();
    for (String out : List.of("/Advice/out/v1", "/Advice/out/v2", MERGED, "/Advice/out/merged-grouped")) {
      createTable(out, "id BIGINT, k STRING, v INT", "1, 'old', 0");
    }
    for (String out : List.of(PARTITIONED, "/Advice/out/partitioned-dynamic")) {
      sql("CREATE TABLE " + id(out) + " (id BIGINT, k STRING, v INT) USING iceberg PARTITIONED BY (k)");
      insert(out, "100, 'other', 0");
    }
    BuildReport report = build(V1Save.class, V2Append.class, StaticInsert.class, DynamicInsert.class,
        MergeRaw.class, MergeGrouped.class);
    SoftAssertions soft = new SoftAssertions();
    report.results().forEach(r -> soft.assertThat(r.status()).as(r.transform() + ": " + r.error())
        .isEqualTo(TransformResult.Status.SUCCEEDED));
    pair(soft, report, "v1-write", "v1-save", "v2-append");
    pair(soft, report, "static-overwrite", "static-insert", "dynamic-insert");
    pair(soft, report, "merge-source-not-unique", "merge-raw", "merge-grouped");
    soft.assertThat(report.result("merge-raw").orElseThrow().advisories()).filteredOn(a -> a.rule().startsWith("merge"))
        .allSatisfy(a -> assertThat(a.dataset()).hasValue(dev.transforms.runtime.DatasetPath.of(MERGED)));
    soft.assertAll();
  }

  @Test
  void offRecordsNothingErrorPublishesNothingAndTheAnnotationOverridesTheConfigurationBothWays()
      throws IOException {
    configure("advisories=error\n");
    seed();
    createTable("/Advice/out/cross-default", "id BIGINT, v INT", "7, 70");
    long before = mainSnapshot("/Advice/out/cross-default");
    BuildReport strict = build(CrossDefault.class, CrossOff.class, CrossWarn.class);
    TransformResult failed = strict.result("cross-default").orElseThrow();
    assertThat(failed.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(failed.error()).get().isInstanceOf(AdvisoryException.class).asString()
        .contains("cartesian-product", "Fix:");
    assertThat(failed.advisories()).extracting(Advisory::rule).contains("cartesian-product");
    assertThat(mainSnapshot("/Advice/out/cross-default")).isEqualTo(before);
    assertThat(rows("/Advice/out/cross-default")).containsExactly("[7,70]");
    assertThat(table("/Advice/out/cross-default").refs()).containsOnlyKeys("main");
    TransformResult off = strict.result("cross-off").orElseThrow();
    assertThat(off.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(off.advisories()).isEmpty();
    TransformResult warned = strict.result("cross-warn").orElseThrow();
    assertThat(warned.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(warned.advisories()).extracting(Advisory::rule).contains("cartesian-product");
    assertThat(rows("/Advice/out/cross-warn")).hasSize(144);

    configure("advisories=off\n");
    BuildReport quiet = build(CrossDefault.class, CrossError.class);
    assertThat(quiet.result("cross-default").orElseThrow().status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(quiet.result("cross-default").orElseThrow().advisories()).isEmpty();
    assertThat(quiet.advisories()).extracting(Advisory::transform).containsOnly("cross-error");
    assertThat(quiet.result("cross-error").orElseThrow().status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(runner.catalog(resolved("/Advice/out/cross-error").catalog())
        .tableExists(resolved("/Advice/out/cross-error").identifier())).isFalse();
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
