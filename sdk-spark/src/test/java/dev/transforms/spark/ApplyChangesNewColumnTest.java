package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.Incremental;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import org.junit.jupiter.api.Test;

/**
 * An input that gains an optional column keeps {@link SparkApplyChanges} incremental, and its incremental
 * build must give the rows a full build gives: the new column with its values. It used to fail writing
 * rows wider than the output (INSERT_COLUMN_ARITY_MISMATCH). Under the default policy, {@code fail}, the
 * build fails naming the column instead.
 */
public class ApplyChangesNewColumnTest extends SparkTestBase {

  static final String IN = "/Cdc/in/customers";

  /** Type 1, its output taking new columns. */
  public static class Latest {
    @Transform(name = "latest")
    @Incremental(changes = true)
    public void latest(SparkTransformContext ctx, @TableInput(IN) TableTransformInput in,
        @TableOutput(value = "/Cdc/out/latest", onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS)
        TableTransformOutput out) {
      SparkApplyChanges.scd1("id").sequenceBy("seq").applyTo(ctx, in, out);
    }
  }

  /** Type 2 under the default policy. */
  public static class StrictHistory {
    @Transform(name = "history-strict")
    @Incremental(changes = true)
    public void history(SparkTransformContext ctx, @TableInput(IN) TableTransformInput in,
        @TableOutput("/Cdc/out/history-strict") TableTransformOutput out) {
      SparkApplyChanges.scd2("id").sequenceBy("seq").applyTo(ctx, in, out);
    }
  }

  @Test
  void anIncrementalBuildKeepsTheValuesOfANewInputColumn() {
    createTable(IN, "id BIGINT NOT NULL, name STRING, seq BIGINT", "1, 'Ada', 1", "2, 'Bo', 1");
    assertThat(only(build(Latest.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    sql("ALTER TABLE " + id(IN) + " ADD COLUMN email STRING");
    sql("MERGE INTO " + id(IN) + " t USING (SELECT 2L AS id, 'Bo' AS name, 2L AS seq, 'bo@x' AS email) s "
        + "ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");

    TransformResult result = only(build(Latest.class));

    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(result.incremental()).as(result.reason()).isTrue();
    assertThat(rows("/Cdc/out/latest")).containsExactly("[1,Ada,1,null]", "[2,Bo,2,bo@x]");
  }

  @Test
  void underPolicyFailTheBuildFailsNamingTheNewColumn() {
    createTable(IN, "id BIGINT NOT NULL, name STRING, seq BIGINT", "1, 'Ada', 1");
    assertThat(only(build(StrictHistory.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    sql("ALTER TABLE " + id(IN) + " ADD COLUMN email STRING");
    insert(IN, "2, 'Bo', 2, 'bo@x'");

    BuildReport report = build(StrictHistory.class);

    TransformResult result = only(report);
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(report.format()).contains("/Cdc/out/history-strict").contains("email");
    assertThat(spark.table(id("/Cdc/out/history-strict")).columns()).doesNotContain("email");
  }
}
