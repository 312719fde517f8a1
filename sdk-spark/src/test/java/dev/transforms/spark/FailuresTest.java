package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.DatasetNotFoundException;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every way a transform can fail leaves its output exactly as it was. */
public class FailuresTest extends SparkTestBase {

  static final String IN = "/Fail/in/changes";
  static final String OUT = "/Fail/out/accounts";
  static final String MISSING = "/Fail/in/never-built";

  enum Scenario { MERGE_THEN_THROW, MERGE, REPLACE, REPLACE_THEN_THROW, REPLACE_NEW_SCHEMA_THEN_THROW, DROP, WRITE_MAIN,
    OVERWRITE_MAIN, OTHER_WRITER, SET_LOCATION, ADD_COLUMN_THEN_THROW, CREATE_BRANCH, MERGE_THEN_LOSE_A_FILE }

  static volatile Scenario scenario;
  static volatile SparkSession otherWriter;

  /** Does what the scenario says to its output. */
  public static class Misbehaving {
    @Transform(name = "misbehave")
    public void run(SparkTransformContext ctx, @TableInput(IN) TableTransformInput in,
        @TableOutput(OUT) TableTransformOutput out) {
      SparkSession spark = ctx.sparkSession();
      String merge = "MERGE INTO " + out.identifier() + " AS t USING " + in.identifier()
          + " AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *";
      switch (scenario) {
        case MERGE_THEN_THROW -> {
          spark.sql(merge);
          throw new IllegalStateException("audit failed after the merge");
        }
        case MERGE -> spark.sql(merge);
        case MERGE_THEN_LOSE_A_FILE -> {
          // as a writer that named a file it never finished writing: the file the merge wrote is gone
          String files = "SELECT DISTINCT _file FROM " + out.identifier();
          java.util.Set<String> before = new java.util.HashSet<>(spark.sql(files)
              .as(org.apache.spark.sql.Encoders.STRING()).collectAsList());
          spark.sql(merge);
          String written = spark.sql(files).as(org.apache.spark.sql.Encoders.STRING()).collectAsList().stream()
              .filter(f -> !before.contains(f)).findFirst().orElseThrow();
          new java.io.File(java.net.URI.create(written.startsWith("/") ? "file:" + written : written)).delete();
        }
        case REPLACE -> in.dataframe().writeTo(out.identifier()).createOrReplace();
        case REPLACE_THEN_THROW -> {
          in.dataframe().writeTo(out.identifier()).createOrReplace();
          throw new IllegalStateException("audit failed after the replace");
        }
        case REPLACE_NEW_SCHEMA_THEN_THROW -> {
          in.dataframe().selectExpr("id", "status", "'x' AS note").writeTo(out.identifier()).createOrReplace();
          throw new IllegalStateException("audit failed after the new schema");
        }
        case DROP -> spark.sql("DROP TABLE " + out.identifier());
        case WRITE_MAIN -> spark.sql("INSERT INTO " + out.identifier() + ".branch_main VALUES (99, 'sneaky')");
        case OVERWRITE_MAIN -> spark.sql("INSERT OVERWRITE " + out.identifier() + ".branch_main VALUES (99, 'sneaky')");
        case SET_LOCATION -> spark.sql("ALTER TABLE " + out.identifier() + " SET LOCATION '/tmp/elsewhere'");
        case CREATE_BRANCH -> spark.sql("ALTER TABLE " + out.identifier() + " CREATE BRANCH audit");
        case ADD_COLUMN_THEN_THROW -> {
          spark.sql("ALTER TABLE " + out.identifier() + " ADD COLUMN note STRING");
          spark.sql("ALTER TABLE " + out.identifier() + " SET TBLPROPERTIES ('write.target-file-size-bytes' = '1024')");
          spark.sql("INSERT INTO " + out.identifier() + " SELECT id, status, 'noted' FROM " + in.identifier());
          throw new IllegalStateException("audit failed after the alter");
        }
        case OTHER_WRITER -> {
          spark.sql(merge);
          otherWriter.sql("INSERT INTO " + out.identifier() + " VALUES (99, 'concurrent')");
        }
        default -> throw new IllegalArgumentException(String.valueOf(scenario));
      }
    }
  }

  /** Reads an input nobody built. */
  public static class ReadsMissing {
    @Transform(name = "reads-missing")
    public void run(@TableInput(MISSING) TableTransformInput in, @TableOutput(OUT) TableTransformOutput out) {
      out.writeDataFrame(in.dataframe());
    }
  }

  private long before;
  private List<String> rowsBefore;
  private java.util.Map<String, String> propertiesBefore;
  private long snapshotsBefore;
  private String schemaBefore;
  private java.util.Set<Integer> schemasBefore;

  @BeforeEach
  void seed() {
    createTable(IN, "id BIGINT, status STRING", "2, 'Closed'", "3, 'Open'");
    createTable(OUT, "id BIGINT, status STRING", "1, 'Open'", "2, 'Open'");
    before = mainSnapshot(OUT);
    rowsBefore = rows(OUT);
    propertiesBefore = table(OUT).properties();
    snapshotsBefore = snapshotCount(OUT);
    schemaBefore = table(OUT).schema().toString();
    schemasBefore = table(OUT).schemas().keySet();
  }

  private long snapshotCount(String path) {
    return java.util.stream.StreamSupport.stream(table(path).snapshots().spliterator(), false).count();
  }

  private TransformResult fails(Scenario which) {
    scenario = which;
    BuildReport report = build(Misbehaving.class);
    TransformResult result = only(report);
    assertThat(result.status()).as(report.format()).isEqualTo(TransformResult.Status.FAILED);
    return result;
  }

  private void assertOutputUnchanged() {
    assertThat(mainSnapshot(OUT)).isEqualTo(before);
    assertThat(rows(OUT)).isEqualTo(rowsBefore).containsExactly("[1,Open]", "[2,Open]");
    assertThat(table(OUT).refs()).containsOnlyKeys("main");
    assertThat(table(OUT).currentSnapshot().summary()).doesNotContainKey(IncrementalState.SUMMARY_BUILD_ID);
    // No lease, no state, no write-audit-publish switch, no snapshot of the failed build left behind.
    assertThat(table(OUT).properties()).isEqualTo(propertiesBefore);
    assertThat(snapshotCount(OUT)).isEqualTo(snapshotsBefore);
    assertThat(table(OUT).schema().toString()).isEqualTo(schemaBefore);
    // No schema the failed build staged is left in the table's metadata either.
    assertThat(table(OUT).schemas().keySet()).isEqualTo(schemasBefore);
  }

  private static String message(TransformResult result) {
    return String.valueOf(result.error().orElseThrow().getMessage());
  }

  @Test
  void aMergeWhoseFileIsGoneBeforePublicationPublishesNothingAndNamesTheFile() {
    TransformResult result = fails(Scenario.MERGE_THEN_LOSE_A_FILE);
    assertThat(message(result)).contains("Cannot commit to table " + OUT).contains("that the commit adds is missing")
        .contains(".parquet");
    assertOutputUnchanged();
  }

  @Test
  void aMethodThatThrowsAfterMergingPublishesNothing() {
    TransformResult result = fails(Scenario.MERGE_THEN_THROW);
    assertThat(message(result)).contains("misbehave").contains("audit failed after the merge");
    assertOutputUnchanged();
  }

  @Test
  void mergeWithDuplicateSourceKeysNamesTransformOutputAndKeys() {
    insert(IN, "2, 'Reopened'");
    TransformResult result = fails(Scenario.MERGE);
    assertThat(message(result)).contains("misbehave").contains(OUT).contains(id(OUT))
        .contains("duplicate keys").contains("t.id = s.id");
    assertOutputUnchanged();
  }

  @Test
  void aMissingInputIsNamedByPathAndIdentifier() {
    BuildReport report = build(ReadsMissing.class);
    TransformResult result = only(report);
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(result.error().orElseThrow()).isInstanceOf(DatasetNotFoundException.class);
    assertThat(message(result)).contains(MISSING).contains(id(MISSING)).contains("reads-missing");
    assertOutputUnchanged();
  }

  @Test
  void createOrReplaceOnAnExistingOutputIsStagedLikeAnyOtherWrite() {
    TransformResult thrown = fails(Scenario.REPLACE_THEN_THROW);
    assertThat(message(thrown)).contains("audit failed after the replace");
    assertOutputUnchanged();

    TransformResult reshaped = fails(Scenario.REPLACE_NEW_SCHEMA_THEN_THROW);
    assertThat(message(reshaped)).contains("audit failed after the new schema");
    assertOutputUnchanged();

    scenario = Scenario.REPLACE;
    TransformResult replaced = only(build(Misbehaving.class));
    assertThat(replaced.status()).as(String.valueOf(replaced.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(rows(OUT)).containsExactly("[2,Closed]", "[3,Open]");
    assertThat(table(OUT).refs()).containsOnlyKeys("main");
    assertThat(table(OUT).currentSnapshot().parentId()).isEqualTo(before);
  }

  @Test
  void droppingAnOutputIsRefused() {
    TransformResult result = fails(Scenario.DROP);
    assertThat(message(result)).contains("DROP TABLE").contains("refused");
    assertOutputUnchanged();
  }

  @Test
  void anExplicitWriteToMainIsRefused() {
    TransformResult result = fails(Scenario.WRITE_MAIN);
    assertThat(message(result)).contains("UNSUPPORTED_FEATURE.TABLE_OPERATION")
        .contains("Table `local`.`Fail`.`out`.`accounts`.`branch_main` (read-only while its transform runs)"
            + " does not support append in batch mode");
    assertOutputUnchanged();

    TransformResult overwrite = fails(Scenario.OVERWRITE_MAIN);
    // Static or dynamic, as the session's partitionOverwriteMode makes it.
    assertThat(message(overwrite))
        .containsPattern("`branch_main` \\(read-only while its transform runs\\) does not support"
            + " (overwrite by filter|dynamic overwrite) in batch mode");
    assertOutputUnchanged();
  }

  @Test
  void alterTableThatWouldReachMainIsRefusedAndAThrowingAlterChangesNothing() {
    TransformResult moved = fails(Scenario.SET_LOCATION);
    assertThat(message(moved)).contains("ALTER TABLE").contains("location").contains(OUT).contains("misbehave");
    assertOutputUnchanged();

    TransformResult branched = fails(Scenario.CREATE_BRANCH);
    assertThat(message(branched)).contains(OUT).contains("refuses").contains("'audit'");
    assertOutputUnchanged();

    TransformResult swallowed = fails(Scenario.ADD_COLUMN_THEN_THROW);
    assertThat(message(swallowed)).contains("audit failed after the alter");
    assertOutputUnchanged();
  }

  @Test
  void anotherWriterMovingMainFailsTheTransformAndNothingOfItIsPublished() {
    otherWriter = spark;
    TransformResult result = fails(Scenario.OTHER_WRITER);
    assertThat(message(result)).contains("moved from snapshot").contains(OUT);
    // The same exception as a race lost at publication, on either engine.
    assertThat(result.error()).get().isInstanceOf(dev.transforms.api.PublishConflictException.class);
    // The other writer's row is there; the transform's merge (which would add id 3) is not.
    assertThat(rows(OUT)).containsExactly("[1,Open]", "[2,Open]", "[99,concurrent]");
    assertThat(table(OUT).refs()).containsOnlyKeys("main");
  }
}
