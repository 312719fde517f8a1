package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.StreamSupport;
import org.apache.iceberg.Table;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * How a Spark transform's writes reach readers: new outputs appear with their rows when published, maintenance
 * run inside a transform is published as it is, and the build's state needs no snapshot of its own.
 */
public class PublishProtocolTest extends SparkTestBase {

  static final String IN = "/Protocol/in/events";
  static final String OUT = "/Protocol/out/copy";

  enum Step { CTAS, CREATE_THEN_INSERT, CREATE_ALTER_INSERT, CTAS_THEN_THROW, EXPIRE, COMPACT, ORPHANS_DRY_RUN, READ_MAIN }

  static volatile Step step;
  static final Map<String, String> SEEN = new ConcurrentHashMap<>();

  /** Writes its output the way the step says, and records what readers of main saw meanwhile. */
  public static class Writer {
    @Transform(name = "protocol")
    public void run(SparkTransformContext ctx, @TableInput(IN) TableTransformInput in,
        @TableOutput(OUT) TableTransformOutput out) {
      SparkSession spark = ctx.sparkSession();
      switch (step) {
        case CTAS -> spark.sql("CREATE TABLE " + out.identifier() + " USING iceberg AS SELECT * FROM " + in.identifier());
        case CTAS_THEN_THROW -> {
          spark.sql("CREATE TABLE " + out.identifier() + " USING iceberg AS SELECT * FROM " + in.identifier());
          throw new IllegalStateException("thrown after creating");
        }
        case CREATE_THEN_INSERT -> {
          spark.sql("CREATE TABLE " + out.identifier() + " (id BIGINT, kind STRING) USING iceberg");
          spark.sql("INSERT INTO " + out.identifier() + " SELECT * FROM " + in.identifier());
        }
        case CREATE_ALTER_INSERT -> {
          spark.sql("CREATE TABLE " + out.identifier() + " (id BIGINT) USING iceberg");
          spark.sql("ALTER TABLE " + out.identifier() + " ADD COLUMN kind STRING");
          spark.sql("ALTER TABLE " + out.identifier() + " SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read')");
          spark.sql("INSERT INTO " + out.identifier() + " SELECT * FROM " + in.identifier());
        }
        case EXPIRE -> spark.sql("CALL " + out.catalog() + ".system.expire_snapshots(table => "
            + out.identifierLiteral() + ", older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 1)");
        case COMPACT -> spark.sql("CALL " + out.catalog() + ".system.rewrite_data_files(table => "
            + out.identifierLiteral() + ", options => map('min-input-files', '2'))");
        case ORPHANS_DRY_RUN -> SEEN.put("orphans", Long.toString(spark.sql("CALL " + out.catalog()
            + ".system.remove_orphan_files(table => " + out.identifierLiteral() + ", dry_run => true)").count()));
        case READ_MAIN -> {
          spark.sql("DELETE FROM " + out.identifier() + " WHERE id = 1");
          SEEN.put("branch rows", Long.toString(spark.table(out.identifier()).count()));
          SEEN.put("main rows", Long.toString(spark.sql("SELECT * FROM " + out.identifier()
              + " VERSION AS OF 'main'").count()));
        }
        default -> throw new IllegalArgumentException(String.valueOf(step));
      }
      if (step != Step.EXPIRE && step != Step.COMPACT && step != Step.ORPHANS_DRY_RUN && step != Step.READ_MAIN) {
        // A reader of the catalog while the transform runs: the new table is not there yet.
        SEEN.put("exists during the run", String.valueOf(CURRENT.get().runner.catalog("local")
            .tableExists(CURRENT.get().resolved(OUT).identifier())));
      }
    }

  }

  static final ThreadLocal<PublishProtocolTest> CURRENT = new InheritableThreadLocal<>();

  private TransformResult run(Step which) {
    step = which;
    CURRENT.set(this);
    BuildReport report = forced(Writer.class);
    return only(report);
  }

  private long snapshots(String path) {
    return StreamSupport.stream(table(path).snapshots().spliterator(), false).count();
  }

  private void seed() {
    createTable(IN, "id BIGINT, kind STRING", "1, 'a'", "2, 'b'", "3, 'c'");
  }

  @Test
  void aNewOutputAppearsWithItsRowsWhenItsBuildPublishes() {
    seed();
    for (Step way : new Step[] {Step.CTAS, Step.CREATE_THEN_INSERT, Step.CREATE_ALTER_INSERT}) {
      SEEN.clear();
      TransformResult result = run(way);
      assertThat(result.status()).as(way + ": " + result.error()).isEqualTo(TransformResult.Status.SUCCEEDED);
      assertThat(SEEN.get("exists during the run")).as(way.toString()).isEqualTo("false");
      assertThat(rows(OUT)).as(way.toString()).containsExactly("[1,a]", "[2,b]", "[3,c]");
      Table out = table(OUT);
      // One snapshot, holding the rows: no empty snapshot before them.
      assertThat(snapshots(OUT)).as(way.toString()).isEqualTo(1);
      assertThat(out.currentSnapshot().summary()).containsEntry("added-records", "3");
      assertThat(out.refs()).containsOnlyKeys("main");
      assertThat(out.properties()).containsEntry(IncrementalState.BUILD_ID, out.currentSnapshot().summary()
          .get(IncrementalState.SUMMARY_BUILD_ID)).doesNotContainKey("write.wap.enabled");
      assertThat(out.properties().keySet()).noneMatch(k -> k.startsWith("transforms.lease."));
      assertThat(result.outputs().get(0).created()).isTrue();
      if (way == Step.CREATE_ALTER_INSERT) {
        assertThat(out.properties()).containsEntry("write.delete.mode", "merge-on-read");
      }
      sql("DROP TABLE " + id(OUT) + " PURGE");
    }
  }

  @Test
  void aNewOutputWhoseTransformThrowsNeverAppearsAndLeavesNoFile() throws Exception {
    seed();
    TransformResult result = run(Step.CTAS_THEN_THROW);
    assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(runner.catalog("local").tableExists(resolved(OUT).identifier())).isFalse();
    java.nio.file.Path location = dir.resolve("warehouse").resolve("Protocol").resolve("out").resolve("copy");
    assertThat(location).doesNotExist();
  }

  @Test
  void maintenanceInsideATransformIsPublishedWithoutAStampAfterIt() {
    seed();
    createTable(OUT, "id BIGINT, kind STRING", "1, 'a'");
    insert(OUT, "2, 'b'");

    // expire_snapshots(retain_last => 1) leaves exactly one snapshot: the one published.
    TransformResult expired = run(Step.EXPIRE);
    assertThat(expired.status()).as(String.valueOf(expired.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(snapshots(OUT)).isEqualTo(1);
    assertThat(rows(OUT)).containsExactly("[1,a]", "[2,b]");
    assertThat(table(OUT).properties()).containsEntry(IncrementalState.TRANSFORM, "protocol");

    // A compaction is published as the replace it is, the state stored with the publication.
    insert(OUT, "3, 'c'");
    insert(OUT, "4, 'd'");
    long before = mainSnapshot(OUT);
    TransformResult compacted = run(Step.COMPACT);
    assertThat(compacted.status()).as(String.valueOf(compacted.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(table(OUT).currentSnapshot().operation()).isEqualTo("replace");
    // Iceberg's rewrite writes its file groups with the v1 writer; that is not the transform's v1 write.
    assertThat(compacted.advisories()).extracting(dev.transforms.runtime.Advisory::rule).doesNotContain("v1-write");
    assertThat(table(OUT).currentSnapshot().parentId()).isEqualTo(before);
    assertThat(rows(OUT)).containsExactly("[1,a]", "[2,b]", "[3,c]", "[4,d]");
    assertThat(table(OUT).properties()).containsEntry(IncrementalState.SNAPSHOT_ID, Long.toString(mainSnapshot(OUT)));

    // remove_orphan_files runs; a transform that writes nothing publishes no snapshot.
    long head = mainSnapshot(OUT);
    long count = snapshots(OUT);
    TransformResult orphans = run(Step.ORPHANS_DRY_RUN);
    assertThat(orphans.status()).as(String.valueOf(orphans.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(SEEN).containsKey("orphans");
    assertThat(mainSnapshot(OUT)).isEqualTo(head);
    assertThat(snapshots(OUT)).isEqualTo(count);
    assertThat(table(OUT).refs()).containsOnlyKeys("main");
  }

  @Test
  void timeTravelToMainReadsThePublishedRowsWhileTheBranchHasTheTransformsOwn() {
    seed();
    createTable(OUT, "id BIGINT, kind STRING", "1, 'a'", "2, 'b'");
    TransformResult result = run(Step.READ_MAIN);
    assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(SEEN).containsEntry("branch rows", "1").containsEntry("main rows", "2");
    assertThat(rows(OUT)).containsExactly("[2,b]");
  }
}
