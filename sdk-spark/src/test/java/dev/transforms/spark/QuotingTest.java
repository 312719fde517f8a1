package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** Paths with hyphens, spaces, quotes and backticks work verbatim through identifier() in every statement. */
public class QuotingTest extends SparkTestBase {

  static final String IN = "/odd ns-1/it's a `quoted` folder/source table";
  static final String OUT = "/odd ns-1/it's a `quoted` folder/out-put 'x' `y`";

  /** What the second run saw, by name. */
  static final Map<String, String> SEEN = new ConcurrentHashMap<>();

  /** Seeds on the first build; edits, inspects and compacts on the next. */
  public static class OddNames {
    @Transform(name = "odd-names")
    public void run(SparkTransformContext ctx, @TableInput(IN) TableTransformInput in,
        @TableOutput(OUT) TableTransformOutput out) {
      SparkSession spark = ctx.sparkSession();
      if (!out.exists()) {
        out.writeDataFrame(in.dataframe());
        return;
      }
      SEEN.put("staging.branch", spark.conf().get(RunningOutputs.SESSION_KEY));
      SEEN.put("overwrite", spark.conf().get("spark.sql.sources.partitionOverwriteMode"));
      SEEN.put("assignment", spark.conf().get("spark.sql.storeAssignmentPolicy"));
      SEEN.put("catalog", spark.conf().get("spark.sql.catalog." + out.catalog()));
      SEEN.put("cache", spark.conf().get("spark.sql.catalog." + out.catalog() + ".cache-enabled"));
      spark.sql("MERGE INTO " + out.identifier() + " AS t USING " + in.identifier()
          + " AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
      spark.sql("UPDATE " + out.identifier() + " SET status = 'Archived' WHERE status = 'Stale'");
      spark.sql("DELETE FROM " + out.identifier() + " WHERE id = 1");
      // Metadata tables and time travel read through the same identifier.
      SEEN.put("output snapshots", spark.sql("SELECT count(*) FROM " + out.identifier() + ".snapshots")
          .first().get(0).toString());
      SEEN.put("input at previous", spark.sql("SELECT count(*) FROM " + in.identifier() + " VERSION AS OF "
          + in.previousSnapshotId().orElseThrow()).first().get(0).toString());
      SEEN.put("ancestors", Integer.toString(spark.sql("CALL " + in.catalog() + ".system.ancestors_of(table => "
          + in.identifierLiteral() + ")").collectAsList().size()));
      // Compaction of an output runs on the staging branch.
      spark.sql("CALL " + out.catalog() + ".system.rewrite_data_files(table => " + out.identifierLiteral()
          + ", options => map('rewrite-all', 'true'))").collectAsList();
      try {
        spark.sql("CALL " + out.catalog() + ".system.rewrite_manifests(table => " + out.identifierLiteral() + ")")
            .collectAsList();
        SEEN.put("rewrite_manifests", "ran");
      } catch (RuntimeException e) {
        SEEN.put("rewrite_manifests", String.valueOf(e.getMessage()));
      }
    }
  }

  @Test
  void oddPathsWorkInMergeUpdateDeleteCallAndMetadataTables() {
    createTable(IN, "id BIGINT, status STRING", "1, 'Open'", "2, 'Stale'");
    assertThat(id(IN)).isEqualTo("`local`.`odd ns-1`.`it's a ``quoted`` folder`.`source table`");

    BuildReport first = build(OddNames.class);
    assertThat(first.succeeded()).as(first.format()).isTrue();
    assertThat(rows(OUT)).containsExactly("[1,Open]", "[2,Stale]");

    insert(IN, "3, 'Stale'", "4, 'Open'");
    long before = mainSnapshot(OUT);
    BuildReport second = build(OddNames.class);
    TransformResult result = only(second);
    assertThat(result.status()).as(second.format() + result.error()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(rows(OUT)).containsExactly("[2,Archived]", "[3,Archived]", "[4,Open]");

    assertThat(SEEN).containsEntry("overwrite", "dynamic").containsEntry("assignment", "ANSI")
        .containsEntry("catalog", TransformsSparkCatalog.class.getName()).containsEntry("cache", "false")
        .containsEntry("input at previous", "2").containsEntry("ancestors", "2");
    assertThat(SEEN.get("staging.branch")).startsWith("transforms_" + second.buildId());
    assertThat(Integer.parseInt(SEEN.get("output snapshots"))).isGreaterThanOrEqualTo(1);
    assertThat(SEEN.get("rewrite_manifests")).contains("refused").contains("rewrite_manifests");

    // Merge, update, delete and the compaction reached main together, the compaction last: the build's
    // state is stored with the publication itself, so no commit follows the compaction.
    Table table = table(OUT);
    List<String> operations = new ArrayList<>();
    for (Snapshot s = table.currentSnapshot(); s.snapshotId() != before; s = table.snapshot(s.parentId())) {
      operations.add(0, s.operation());
    }
    assertThat(operations).containsExactly("overwrite", "overwrite", "overwrite", "replace");
    assertThat(table.properties()).containsEntry("transforms.state.build-id", second.buildId());
    assertThat(table.refs()).containsOnlyKeys("main");
    // The session the test reads with never had the staging branch.
    assertThat(spark.conf().getOption(RunningOutputs.SESSION_KEY).isDefined()).isFalse();
  }
}
