package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.Incremental;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.TransformResult;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * MERGE INTO an output from a temporary view of an input's DataFrame, the way a transform upserts what
 * it read (rather than naming the input table in the SQL): in a full build, and in an incremental build
 * where the DataFrame reads only the input's new snapshots. Both Spark lines. On Spark 4.1 such a view
 * holds a table reference that Spark leaves in the copy-on-write runtime filter; the 4.1 line's
 * {@code LineExtensions} plans it (without it, these MERGEs fail with "No plan for TableReference").
 */
public class MergeFromDataFrameTest extends SparkTestBase {

  static final String IN = "/Merge/in/updates";
  static final String OUT = "/Merge/out/current";

  static void upsert(SparkTransformContext ctx, org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> news,
      TableTransformOutput out) {
    SparkSession spark = ctx.sparkSession();
    if (!spark.catalog().tableExists(out.identifier())) {
      out.writeDataFrame(news);
      return;
    }
    news.createOrReplaceTempView("news");
    spark.sql("MERGE INTO " + out.identifier() + " t USING news s ON t.id = s.id"
        + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *").collect();
  }

  /** Upserts the whole input, read as a DataFrame. */
  public static class Whole {
    @Transform(name = "merge-whole")
    public void run(SparkTransformContext ctx, @TableInput(IN) TableTransformInput in,
        @TableOutput(OUT) TableTransformOutput out) {
      upsert(ctx, in.dataframe(), out);
    }
  }

  /** Upserts only the rows appended to the input since the last build. */
  public static class NewRows {
    @Incremental
    @Transform(name = "merge-new-rows")
    public void run(SparkTransformContext ctx, @TableInput(IN) IncrementalTransformInput in,
        @TableOutput(OUT) TableTransformOutput out) {
      upsert(ctx, in.dataframe(), out);
    }
  }

  private void succeeds(Class<?> transform, boolean force) {
    TransformResult result = only(force ? forced(transform) : build(transform));
    assertThat(result.status()).as(String.valueOf(result.error().orElse(null)))
        .isEqualTo(TransformResult.Status.SUCCEEDED);
  }

  @Test
  void aFullBuildMergesFromAViewOfTheInputsDataFrame() {
    createTable(IN, "id INT, name STRING", "1, 'a'", "2, 'b'");
    succeeds(Whole.class, true);
    sql("UPDATE " + id(IN) + " SET name = 'B' WHERE id = 2");
    insert(IN, "3, 'c'");
    succeeds(Whole.class, true);
    assertThat(rows(OUT)).containsExactly("[1,a]", "[2,B]", "[3,c]");
  }

  @Test
  void anIncrementalBuildMergesFromAViewOfTheNewRows() {
    createTable(IN, "id INT, name STRING", "1, 'a'", "2, 'b'");
    succeeds(NewRows.class, false);
    insert(IN, "2, 'B'", "3, 'c'");
    TransformResult second = only(build(NewRows.class));
    assertThat(second.status()).as(String.valueOf(second.error().orElse(null)))
        .isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(second.incremental()).as(second.reason()).isTrue();
    assertThat(rows(OUT)).containsExactly("[1,a]", "[2,B]", "[3,c]");
  }

  @Test
  void aCopyOnWriteMergeFromAViewOfATableRewritesOnlyTheFilesWithMatches() {
    createTable(IN, "id INT, name STRING", "1, 'A'", "5, 'e'");
    createTable(OUT, "id INT, name STRING", "1, 'a'", "2, 'b'");
    insert(OUT, "3, 'c'", "4, 'd'");
    assertThat(table(OUT).currentSnapshot().summary()).containsEntry("total-data-files", "4");
    spark.read().table(id(IN)).createOrReplaceTempView("news");
    sql("MERGE INTO " + id(OUT) + " t USING news s ON t.id = s.id"
        + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
    assertThat(rows(OUT)).containsExactly("[1,A]", "[2,b]", "[3,c]", "[4,d]", "[5,e]");
    // The runtime filter still works: of the four files (one per row), only the one holding id 1 is rewritten.
    assertThat(table(OUT).currentSnapshot().summary()).containsEntry("deleted-data-files", "1");
  }
}
