package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Spark 4 features in what a transform writes to its outputs (docs/spark.md, "Spark 4.1"): VARIANT
 * columns, collations, and MERGE WITH SCHEMA EVOLUTION, each through the staging branch and the publish.
 * The SQL of these features does not exist on Spark 3.5: there the tests check the error the user gets.
 */
public class SparkFourFeaturesTest extends SparkTestBase {

  static final String IN = "/Four/in/events";
  static final String OUT = "/Four/out/events";

  /** What the transform does with its session and handles; each test sets it. */
  interface Step {
    void run(SparkSession spark, TableTransformInput in, TableTransformOutput out);
  }

  static volatile Step step;
  static final Map<String, String> SEEN = new ConcurrentHashMap<>();
  static final ThreadLocal<SparkFourFeaturesTest> CURRENT = new InheritableThreadLocal<>();

  /** Runs the step, then records what readers of {@code main} see while the transform still runs. */
  public static class Writes {
    @Transform(name = "four")
    public void run(SparkTransformContext ctx, @TableInput(IN) TableTransformInput in,
        @TableOutput(OUT) TableTransformOutput out) {
      step.run(ctx.sparkSession(), in, out);
      try {
        Table main = CURRENT.get().table(OUT);
        SEEN.put("main during the run", main.currentSnapshot().snapshotId() + " "
            + main.schema().columns().stream().map(Types.NestedField::name).toList());
      } catch (org.apache.iceberg.exceptions.NoSuchTableException e) {
        SEEN.put("main during the run", "no table");
      }
    }
  }

  /**
   * Built incrementally: a full build copies the input; an incremental one merges the input's new rows,
   * viewed through {@code in.dataframe()}, with schema evolution (a new column {@code size}).
   */
  public static class IncrementalWrites {
    @dev.transforms.api.Incremental
    @Transform(name = "four-incremental")
    public void run(SparkTransformContext ctx, @TableInput(IN) IncrementalTransformInput in,
        @TableOutput(OUT) TableTransformOutput out) {
      if (!ctx.isIncremental()) {
        out.writeDataFrame(in.dataframe().selectExpr("id", "name"));
        return;
      }
      // The view of the new rows is a table reference on Spark 4.1 (see MergeFromDataFrameTest).
      in.dataframe().selectExpr("id", "name", "length(js) AS size").createOrReplaceTempView("news");
      ctx.sparkSession().sql("MERGE WITH SCHEMA EVOLUTION INTO " + out.identifier() + " t USING news s "
          + "ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *").collect();
    }
  }

  private static boolean spark4() {
    return org.apache.spark.package$.MODULE$.SPARK_VERSION().startsWith("4.");
  }

  private static void sql(SparkSession spark, String statement, TableTransformInput in, TableTransformOutput out) {
    spark.sql(statement.replace("{in}", in.identifier()).replace("{out}", out.identifier())).collect();
  }

  /** A step of SQL statements, with {in} and {out} standing for the handles' identifiers. */
  private static Step statements(String... statements) {
    return (spark, in, out) -> {
      for (String statement : statements) {
        sql(spark, statement, in, out);
      }
    };
  }

  @BeforeEach
  void seed() {
    CURRENT.set(this);
    SEEN.clear();
    createTable(IN, "id INT, name STRING, js STRING",
        "1, 'Ann', '{\"a\": 1, \"b\": \"x\"}'", "2, 'bob', '{\"a\": 2}'");
  }

  private TransformResult run(Step what) {
    step = what;
    BuildReport report = forced(Writes.class);
    return only(report);
  }

  private TransformResult succeeds(Step what) {
    TransformResult result = run(what);
    assertThat(result.status()).as(String.valueOf(result.error().orElse(null))).isEqualTo(TransformResult.Status.SUCCEEDED);
    return result;
  }

  private String failure(Step what) {
    TransformResult result = run(what);
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    return result.error().orElseThrow().getMessage();
  }

  private List<String> query(String statement) {
    return spark.sql(statement.replace("{out}", id(OUT))).collectAsList().stream().map(Row::toString).sorted().toList();
  }

  private int formatVersion() {
    return ((HasTableOperations) table(OUT)).operations().current().formatVersion();
  }

  private boolean outputExists() {
    return spark.catalog().tableExists(id(OUT));
  }

  // VARIANT

  @Test
  void aVariantColumnIsWrittenToAVersion3OutputAndReadBackWithVariantGet() {
    Step create = statements("CREATE TABLE {out} USING iceberg TBLPROPERTIES ('format-version' = '3') "
        + "AS SELECT id, parse_json(js) AS v FROM {in}");
    if (!spark4()) {
      assertThat(failure(create)).contains("UNRESOLVED_ROUTINE").contains("`parse_json`");
      assertThat(outputExists()).isFalse();
      return;
    }
    succeeds(create);
    assertThat(SEEN.get("main during the run")).isEqualTo("no table");
    assertThat(formatVersion()).isEqualTo(3);
    assertThat(table(OUT).schema().findField("v").type()).isEqualTo(Types.VariantType.get());
    assertThat(spark.table(id(OUT)).schema().apply("v").dataType().typeName()).isEqualTo("variant");
    assertThat(query("SELECT id, variant_get(v, '$.a', 'int'), variant_get(v, '$.b', 'string') FROM {out}"))
        .containsExactly("[1,1,x]", "[2,2,null]");

    // The next build writes on the staging branch of the existing output: writeDataFrame, then a MERGE.
    long before = mainSnapshot(OUT);
    insert(IN, "3, 'cy', '{\"a\": 3, \"c\": [1, 2]}'");
    succeeds((spark, in, out) -> {
      out.writeDataFrame(spark.sql("SELECT id, parse_json(js) AS v FROM " + in.identifier() + " WHERE id > 1"));
      sql(spark, "MERGE INTO {out} t USING (SELECT 4 AS id, parse_json('{\"a\": 4}') AS v) s ON t.id = s.id "
          + "WHEN NOT MATCHED THEN INSERT *", in, out);
    });
    assertThat(SEEN.get("main during the run")).isEqualTo(before + " [id, v]");
    assertThat(mainSnapshot(OUT)).isNotEqualTo(before);
    assertThat(query("SELECT id, variant_get(v, '$.a', 'int'), variant_get(v, '$.c[1]', 'int') FROM {out}"))
        .containsExactly("[2,2,null]", "[3,3,2]", "[4,4,null]");
  }

  @Test
  void aVariantColumnInAVersion2OutputFailsNamingTheFormatVersion() {
    assumeThat(spark4()).as("VARIANT is a Spark 4 type").isTrue();
    // writeDataFrame creates a new output at the catalog's default format version, 2.
    String error = failure((spark, in, out) -> out.writeDataFrame(spark.sql("SELECT id, parse_json(js) AS v FROM "
        + in.identifier())));
    assertThat(error).startsWith("Transform four failed: Invalid type for v: variant is not supported until v3 "
        + "(Iceberg). A VARIANT column needs an Iceberg table of format version 3")
        .contains("output " + OUT + " (" + id(OUT) + ")")
        .contains("TBLPROPERTIES ('format-version' = '3')")
        .contains("tableProperty(\"format-version\", \"3\")");
    assertThat(outputExists()).isFalse();

    // An existing version 2 output: the column cannot be added, and the run may not upgrade the table.
    createTable(OUT, "id INT", "9");
    long before = mainSnapshot(OUT);
    assertThat(failure(statements("ALTER TABLE {out} ADD COLUMN v VARIANT")))
        .contains("Invalid type for v: variant is not supported until v3").contains("has, or would be created with, an older one");
    assertThat(failure(statements("ALTER TABLE {out} SET TBLPROPERTIES ('format-version' = '3')")))
        .contains("refuses a format version upgrade while the transform that writes it runs");
    assertThat(mainSnapshot(OUT)).isEqualTo(before);
    assertThat(formatVersion()).isEqualTo(2);
    assertThat(rows(OUT)).containsExactly("[9]");

    // The same table as a new output at version 3, made with the DataFrame writer.
    sql("DROP TABLE " + id(OUT));
    succeeds((spark, in, out) -> {
      org.apache.spark.sql.DataFrameWriterV2<Row> writer = spark.sql("SELECT id, parse_json(js) AS v FROM "
          + in.identifier()).writeTo(out.identifier());
      writer.tableProperty("format-version", "3"); // sets it on the writer; the return type differs between lines
      TableWrites.create(writer);
    });
    assertThat(formatVersion()).isEqualTo(3);
    assertThat(query("SELECT id, variant_get(v, '$.a', 'int') FROM {out}")).containsExactly("[1,1]", "[2,2]");
  }

  // Collations

  @Test
  void icebergDropsTheCollationOfAnOutputColumn() {
    Step create = statements("CREATE TABLE {out} (id INT, name STRING COLLATE UTF8_LCASE) USING iceberg",
        "INSERT INTO {out} SELECT id, name FROM {in}");
    if (!spark4()) {
      assertThat(failure(create)).contains("PARSE_SYNTAX_ERROR").contains("'COLLATE'");
      assertThat(outputExists()).isFalse();
      return;
    }
    succeeds(create);
    // Iceberg has no collations: the column is a plain string, compared byte for byte.
    assertThat(table(OUT).schema().findField("name").type()).isEqualTo(Types.StringType.get());
    assertThat(spark.table(id(OUT)).schema().apply("name").dataType().sql()).isEqualTo("STRING");
    assertThat(query("SELECT id FROM {out} WHERE name = 'ANN'")).isEmpty();
    assertThat(query("SELECT id FROM {out} WHERE name COLLATE UTF8_LCASE = 'ANN'")).containsExactly("[1]");

    // A CTAS and writeDataFrame lose it the same way, and so does Iceberg outside a transform.
    sql("DROP TABLE " + id(OUT));
    succeeds(statements("CREATE TABLE {out} USING iceberg AS SELECT id, name COLLATE UTF8_LCASE AS name FROM {in}"));
    assertThat(spark.table(id(OUT)).schema().apply("name").dataType().sql()).isEqualTo("STRING");
    sql("DROP TABLE " + id(OUT));
    succeeds((spark, in, out) -> out.writeDataFrame(spark.sql("SELECT id, name COLLATE UTF8_LCASE AS name FROM "
        + in.identifier())));
    assertThat(spark.table(id(OUT)).schema().apply("name").dataType().sql()).isEqualTo("STRING");
    assertThat(rows(OUT)).containsExactly("[1,Ann]", "[2,bob]");
    sql("DROP TABLE " + id(OUT));
    sql("CREATE TABLE " + id(OUT) + " (id INT, name STRING COLLATE UTF8_LCASE) USING iceberg");
    assertThat(spark.table(id(OUT)).schema().apply("name").dataType().sql()).isEqualTo("STRING");
  }

  @Test
  void aMergeConditionComparesWithItsCollation() {
    createTable(OUT, "id INT, name STRING", "10, 'ANN'", "11, 'carl'");
    long before = mainSnapshot(OUT);
    Step merge = statements("MERGE INTO {out} t USING {in} s ON t.name COLLATE UTF8_LCASE = s.name "
        + "WHEN MATCHED THEN UPDATE SET t.id = s.id WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, s.name)");
    if (!spark4()) {
      assertThat(failure(merge)).contains("PARSE_SYNTAX_ERROR").contains("'COLLATE'");
      assertThat(rows(OUT)).containsExactly("[10,ANN]", "[11,carl]");
      return;
    }
    succeeds(merge);
    assertThat(SEEN.get("main during the run")).isEqualTo(before + " [id, name]");
    // 'ANN' matched 'Ann' case-insensitively and took its id; 'bob' matched nothing and was inserted.
    assertThat(rows(OUT)).containsExactly("[1,ANN]", "[11,carl]", "[2,bob]");
  }

  // MERGE WITH SCHEMA EVOLUTION

  @Test
  void mergeWithSchemaEvolutionAddsTheColumnWhenTheBuildPublishes() {
    createTable(OUT, "id INT, name STRING", "1, 'old'", "5, 'five'");
    long before = mainSnapshot(OUT);
    String merge = "MERGE WITH SCHEMA EVOLUTION INTO {out} t USING (SELECT id, name, length(js) AS size FROM {in}) s "
        + "ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *";
    if (!spark4()) {
      assertThat(failure(statements(merge))).contains("PARSE_SYNTAX_ERROR").contains("'WITH'");
      assertThat(rows(OUT)).containsExactly("[1,old]", "[5,five]");
      return;
    }
    // A failed run publishes neither the column nor the rows.
    failure((spark, in, out) -> {
      sql(spark, merge, in, out);
      throw new IllegalStateException("audit failed after the merge");
    });
    assertThat(mainSnapshot(OUT)).isEqualTo(before);
    assertThat(table(OUT).schema().findField("size")).isNull();

    TransformResult result = succeeds(statements(merge));
    assertThat(SEEN.get("main during the run")).isEqualTo(before + " [id, name]");
    assertThat(result.outputs().get(0).schemaChanges()).containsExactly("size added (int)");
    assertThat(table(OUT).schema().findField("size").type()).isEqualTo(Types.IntegerType.get());
    assertThat(rows(OUT)).containsExactly("[1,Ann,18]", "[2,bob,8]", "[5,five,null]");
    assertThat(table(OUT).refs()).containsOnlyKeys("main");
  }

  @Test
  void anIncrementalBuildsMergeWithSchemaEvolutionIsHeldToTheSchemaChangePolicy() {
    assumeThat(spark4()).as("MERGE WITH SCHEMA EVOLUTION is Spark 4 SQL").isTrue();
    TransformResult first = only(build(IncrementalWrites.class));
    assertThat(first.status()).as(String.valueOf(first.error().orElse(null))).isEqualTo(TransformResult.Status.SUCCEEDED);
    long before = mainSnapshot(OUT);
    insert(IN, "2, 'BOB', '{\"a\": 22}'", "3, 'cy', '{}'");
    TransformResult second = only(build(IncrementalWrites.class));
    assertThat(second.incremental()).as(second.reason()).isTrue();
    assertThat(second.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(second.error().orElseThrow().getMessage())
        .contains("/Four/out/events").contains("schema-change policy (fail)").contains("size");
    assertThat(mainSnapshot(OUT)).isEqualTo(before);
    assertThat(table(OUT).schema().findField("size")).isNull();
    assertThat(rows(OUT)).containsExactly("[1,Ann]", "[2,bob]");
  }

  @Test
  void mergeWithoutSchemaEvolutionIgnoresTheSourcesExtraColumnOnBothLines() {
    createTable(OUT, "id INT, name STRING", "1, 'old'", "5, 'five'");
    TransformResult result = succeeds(statements("MERGE INTO {out} t USING (SELECT id, name, length(js) AS size "
        + "FROM {in}) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *"));
    assertThat(result.outputs().get(0).schemaChanges()).isEmpty();
    assertThat(table(OUT).schema().findField("size")).isNull();
    assertThat(rows(OUT)).containsExactly("[1,Ann]", "[2,bob]", "[5,five]");
  }
}
