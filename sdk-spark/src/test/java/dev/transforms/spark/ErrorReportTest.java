package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.SchemaMismatchException;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;

/** What the build report says when a Spark transform fails: the root cause, and every differing column. */
public class ErrorReportTest extends SparkTestBase {

  static final String IN = "/Errors/in/rows";
  static final String OUT = "/Errors/out/copy";

  /** Copies its input. */
  public static class Copy {
    @Transform(name = "copy")
    public void copy(@TableInput(IN) TableTransformInput in, @TableOutput(OUT) TableTransformOutput out) {
      out.writeDataFrame(in.dataframe());
    }
  }

  static volatile boolean wrong;

  /** Incrementally, writes columns the output does not have, and one of the wrong type. */
  public static class WrongColumns {
    @Transform(name = "wrong-columns")
    @dev.transforms.api.Incremental
    public void write(@TableInput(IN) IncrementalTransformInput in, @TableOutput(OUT) TableTransformOutput out) {
      out.writeDataFrame(wrong
          ? in.dataframe().selectExpr("CAST(id AS STRING) AS id", "status", "1 AS extra", "2 AS more")
          : in.dataframe());
    }
  }

  /**
   * A data file deleted under a table: Spark's task fails, and the job fails with a SparkException whose
   * own words are about the stage. The report names the missing file.
   */
  @Test
  void aTaskFailureShowsItsRootCauseTheMissingDataFile() throws Exception {
    createTable(IN, "id BIGINT, status STRING", "1, 'Open'", "2, 'Closed'");
    Table input = table(IN);
    List<String> deleted = new ArrayList<>();
    for (DataFile file : input.currentSnapshot().addedDataFiles(input.io())) {
      Path path = Path.of(URI.create(file.location()));
      Files.delete(path);
      deleted.add(path.toString());
    }

    BuildReport report = build(Copy.class);

    TransformResult result = only(report);
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    String text = report.format();
    assertThat(text).contains("error: TransformFailedException: Transform copy failed: org.apache.spark.SparkException")
        .contains(deleted.get(0).substring(deleted.get(0).lastIndexOf('/') + 1))
        .containsIgnoringCase("does not exist")
        .doesNotContain("\tat ");
  }

  @Test
  void aSchemaMismatchListsEveryDifferingColumnInTheReport() {
    createTable(IN, "id BIGINT, status STRING", "1, 'Open'");
    wrong = false;
    assertThat(only(build(WrongColumns.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    insert(IN, "2, 'Closed'");
    wrong = true;

    BuildReport report = build(WrongColumns.class);

    assertThat(only(report).status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(only(report).incremental()).isTrue();
    assertThat(report.format()).contains("SchemaMismatchException: Cannot write to output " + OUT,
        "schema-change policy fail",
        "- id: table long, rows string: not a widening, so only a full build can change the column's type",
        "- extra: not in the table (rows int)",
        "- more: not in the table (rows int)");
  }
}
