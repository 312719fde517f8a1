package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.Transforms;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * A branch build on the Spark engine: the input's identifier reads the branch the build reads it at
 * ({@code branch_NAME}), MERGE INTO and DELETE on the output's identifier act on the branch, and readers
 * of {@code main} see nothing until promote.
 */
public class BranchBuildsSparkTest extends SparkTestBase {

  static final String IN = "/Branches/in/people";
  static final String OUT = "/Branches/out/people";

  /** Upserts the input into the output by SQL on both identifiers, then deletes the rows named 'gone'. */
  public static class Upsert {
    @Transform(name = "upsert")
    public void run(SparkTransformContext ctx, @TableInput(IN) TableTransformInput in,
        @TableOutput(OUT) TableTransformOutput out) {
      SparkSession spark = ctx.sparkSession();
      if (!spark.catalog().tableExists(out.identifier())) {
        out.writeDataFrame(in.dataframe());
        return;
      }
      spark.sql("MERGE INTO " + out.identifier() + " t USING " + in.identifier() + " s ON t.id = s.id"
          + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *").collect();
      spark.sql("DELETE FROM " + out.identifier() + " WHERE name = 'gone'").collect();
    }
  }

  private List<String> rowsOn(String path, String branch) {
    return spark.table(id(path) + ".`branch_" + branch + "`").collectAsList().stream().map(Row::toString).sorted()
        .toList();
  }

  @Test
  void aBranchBuildReadsAndWritesTheBranchAndPromoteMakesItMain() {
    createTable(IN, "id INT, name STRING", "1, 'a'", "2, 'b'");
    TransformResult first = only(build(Upsert.class));
    assertThat(first.status()).as(String.valueOf(first.error().orElse(null)))
        .isEqualTo(TransformResult.Status.SUCCEEDED);
    insert(OUT, "9, 'gone'");
    sql("ALTER TABLE " + id(IN) + " CREATE BRANCH dev");
    sql("INSERT INTO " + id(IN) + ".`branch_dev` VALUES (3, 'c')");
    sql("UPDATE " + id(IN) + ".`branch_dev` SET name = 'B' WHERE id = 2");
    long mainBefore = mainSnapshot(OUT);
    List<String> rowsBefore = rows(OUT);

    BuildReport onDev = runner.build(Transforms.Selection.of(Upsert.class).branch("dev"));

    TransformResult result = only(onDev);
    assertThat(result.status()).as(String.valueOf(result.error().orElse(null)))
        .isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(rowsOn(OUT, "dev")).containsExactly("[1,a]", "[2,B]", "[3,c]");
    sql("REFRESH TABLE " + id(OUT));
    assertThat(rows(OUT)).isEqualTo(rowsBefore).contains("[9,gone]");
    assertThat(mainSnapshot(OUT)).isEqualTo(mainBefore);

    assertThat(runner.promote(Transforms.Selection.of(Upsert.class), "dev")).containsExactly(OUT);
    sql("REFRESH TABLE " + id(OUT));
    assertThat(rows(OUT)).containsExactly("[1,a]", "[2,B]", "[3,c]");
  }
}
