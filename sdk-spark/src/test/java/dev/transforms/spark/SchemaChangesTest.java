package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.Incremental;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.api.SchemaMismatchException;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.TransformResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Spark output takes the shape of what its transform writes, in the commit that publishes the rows:
 * full builds add, drop, replace and widen columns and re-partition; incremental builds change the
 * schema as the output's policy allows, or fail naming each column; readers never see a new shape
 * before the rows, and time travel keeps the old one.
 */
public class SchemaChangesTest extends SparkTestBase {

  static final String IN = "/Shape/in/people";
  static final String OUT = "/Shape/clean/people";

  enum Version { V1, WITH_EMAIL, NO_AGE, ID_AS_STRING, AGE_AS_LONG, PARTITIONED, ALTER_ADD_COLUMN }

  static volatile Version version = Version.V1;
  static final Map<String, String> SEEN = new ConcurrentHashMap<>();

  /** A full build whose code changes between builds, the way a pipeline changes week to week. */
  public static class People {
    @Transform(name = "people")
    public void clean(SparkTransformContext ctx, @TableInput(IN) TableTransformInput in,
        @TableOutput(OUT) TableTransformOutput out) throws Exception {
      SparkSession spark = ctx.sparkSession();
      switch (version) {
        case V1 -> out.writeDataFrame(in.dataframe().selectExpr("id", "name", "age"));
        case WITH_EMAIL -> out.writeDataFrame(in.dataframe().selectExpr("id", "name", "age",
            "concat(name, '@example.com') AS email"));
        case NO_AGE -> out.writeDataFrame(in.dataframe().selectExpr("id", "name"));
        case ID_AS_STRING -> out.writeDataFrame(in.dataframe().selectExpr("CAST(id AS STRING) AS id", "name", "age"));
        case AGE_AS_LONG -> out.writeDataFrame(in.dataframe().selectExpr("id", "name", "CAST(age AS BIGINT) AS age"));
        case PARTITIONED -> in.dataframe().selectExpr("id", "name", "age").writeTo(out.identifier())
            .partitionedBy(org.apache.spark.sql.functions.bucket(4, org.apache.spark.sql.functions.col("id")))
            .createOrReplace();
        case ALTER_ADD_COLUMN -> {
          spark.sql("ALTER TABLE " + out.identifier() + " ADD COLUMN nickname STRING");
          spark.sql("ALTER TABLE " + out.identifier() + " SET TBLPROPERTIES ('owner.team' = 'people')");
          spark.sql("INSERT OVERWRITE " + out.identifier() + " SELECT id, name, age, lower(name) FROM " + in.identifier());
        }
        default -> throw new IllegalArgumentException(String.valueOf(version));
      }
      // What a reader of main sees while the transform runs, just before it returns.
      try {
        SEEN.put("columns on main during the run", columns(CURRENT.get().table(OUT)).toString());
      } catch (org.apache.iceberg.exceptions.NoSuchTableException e) {
        SEEN.put("columns on main during the run", "no table");
      }
    }
  }

  static final ThreadLocal<SchemaChangesTest> CURRENT = new InheritableThreadLocal<>();

  /** An incremental copy whose rows gain a column; the policy is the one under test. */
  public static class Appends {
    @Transform(name = "appends-fail")
    @Incremental
    public void failing(@TableInput(IN) IncrementalTransformInput in, @TableOutput(OUT) TableTransformOutput out) {
      out.writeDataFrame(rows(in));
    }
  }

  /** The same, adding new columns. */
  public static class AppendsNewColumns {
    @Transform(name = "appends-new")
    @Incremental
    public void appending(@TableInput(IN) IncrementalTransformInput in,
        @TableOutput(value = OUT, onSchemaChange = SchemaChangePolicy.APPEND_NEW_COLUMNS) TableTransformOutput out) {
      out.writeDataFrame(rows(in));
    }
  }

  /** The same, keeping every column in step with the rows. */
  public static class AppendsInSync {
    @Transform(name = "appends-sync")
    @Incremental
    public void syncing(@TableInput(IN) IncrementalTransformInput in,
        @TableOutput(value = OUT, onSchemaChange = SchemaChangePolicy.SYNC_ALL_COLUMNS) TableTransformOutput out) {
      out.writeDataFrame(rows(in));
    }
  }

  static volatile String incrementalColumns = "id, name, age";

  private static org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> rows(IncrementalTransformInput in) {
    return in.dataframe().selectExpr(incrementalColumns.split(", "));
  }

  private static List<String> columns(Table table) {
    return table.schema().columns().stream().map(c -> c.name() + ":" + c.type() + ":" + c.fieldId()).toList();
  }

  @BeforeEach
  void seed() {
    CURRENT.set(this);
    version = Version.V1;
    incrementalColumns = "id, name, age";
    SEEN.clear();
    createTable(IN, "id INT, name STRING, age INT", "1, 'ann', 30", "2, 'bob', 40");
  }

  private TransformResult buildPeople(Version which) {
    version = which;
    // The version stands for an edit of the code: forced, since the class file stays the same here.
    TransformResult result = only(forced(People.class));
    assertThat(result.status()).as(which + ": " + result.error()).isEqualTo(TransformResult.Status.SUCCEEDED);
    return result;
  }

  @Test
  void aFullBuildThatGainsAColumnPublishesItWithTheRowsAndKeepsTheOldSchemaForTimeTravel() {
    buildPeople(Version.V1);
    Table first = table(OUT);
    long v1 = first.currentSnapshot().snapshotId();
    int idField = first.schema().findField("id").fieldId();

    TransformResult result = buildPeople(Version.WITH_EMAIL);

    // Readers of main saw the old columns until the build published.
    assertThat(SEEN.get("columns on main during the run")).doesNotContain("email");
    Table after = table(OUT);
    assertThat(after.schema().findField("email")).isNotNull();
    assertThat(after.schema().findField("id").fieldId()).isEqualTo(idField);
    assertThat(rows(OUT)).containsExactly("[1,ann,30,ann@example.com]", "[2,bob,40,bob@example.com]");
    assertThat(result.outputs().get(0).schemaChanges()).containsExactly("email added (string)");
    // The snapshot of the rows carries the schema that came with them; the one before keeps its own.
    assertThat(after.currentSnapshot().schemaId()).isEqualTo(after.schema().schemaId());
    assertThat(spark.sql("SELECT * FROM " + id(OUT) + " VERSION AS OF " + v1).columns())
        .containsExactly("id", "name", "age");
    assertThat(after.refs()).containsOnlyKeys("main");
    assertThat(after.properties().keySet()).noneMatch(k -> k.startsWith("transforms.shape."));
  }

  @Test
  void fullBuildsDropReplaceAndWidenColumns() {
    buildPeople(Version.V1);
    int idField = table(OUT).schema().findField("id").fieldId();
    int ageField = table(OUT).schema().findField("age").fieldId();

    buildPeople(Version.NO_AGE);
    assertThat(table(OUT).schema().findField("age")).isNull();
    assertThat(rows(OUT)).containsExactly("[1,ann]", "[2,bob]");

    TransformResult replaced = buildPeople(Version.ID_AS_STRING);
    Types.NestedField id = table(OUT).schema().findField("id");
    assertThat(id.type()).isEqualTo(Types.StringType.get());
    assertThat(id.fieldId()).as("a string id is a new column").isNotEqualTo(idField);
    assertThat(table(OUT).schema().findField("age").fieldId()).as("age comes back as a new column")
        .isNotEqualTo(ageField);
    assertThat(replaced.outputs().get(0).schemaChanges()).anyMatch(c -> c.startsWith("id replaced: int became string"));

    buildPeople(Version.AGE_AS_LONG);
    Types.NestedField age = table(OUT).schema().findField("age");
    assertThat(age.type()).isEqualTo(Types.LongType.get());
    assertThat(rows(OUT)).containsExactly("[1,ann,30]", "[2,bob,40]");
  }

  @Test
  void createOrReplaceRepartitionsInAFullBuild() {
    buildPeople(Version.V1);
    long v1 = table(OUT).currentSnapshot().snapshotId();
    buildPeople(Version.PARTITIONED);
    Table after = table(OUT);
    assertThat(after.spec().fields()).singleElement().satisfies(f -> assertThat(f.transform().toString())
        .isEqualTo("bucket[4]"));
    assertThat(rows(OUT)).containsExactly("[1,ann,30]", "[2,bob,40]");
    assertThat(spark.sql("SELECT * FROM " + id(OUT) + " VERSION AS OF " + v1).count()).isEqualTo(2);
  }

  @Test
  void alterTableInATransformIsStagedAndPublishedWithTheRows() {
    buildPeople(Version.V1);
    buildPeople(Version.ALTER_ADD_COLUMN);
    assertThat(SEEN.get("columns on main during the run")).doesNotContain("nickname");
    assertThat(table(OUT).schema().findField("nickname")).isNotNull();
    assertThat(table(OUT).properties()).containsEntry("owner.team", "people");
    assertThat(rows(OUT)).containsExactly("[1,ann,30,ann]", "[2,bob,40,bob]");
  }

  @Test
  void anIncrementalBuildFollowsTheOutputsPolicy() {
    assertThat(only(build(Appends.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    insert(IN, "3, 'cy', 50");
    incrementalColumns = "id, name, age, upper(name) AS shout";
    long before = mainSnapshot(OUT);
    String schemaBefore = table(OUT).schema().toString();

    TransformResult failed = only(build(Appends.class));
    assertThat(failed.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(failed.error().orElseThrow()).cause().isInstanceOf(SchemaMismatchException.class)
        .hasMessageContaining(OUT).hasMessageContaining("shout: not in the table")
        .hasMessageContaining("append_new_columns").hasMessageContaining("--full appends-fail");
    assertThat(mainSnapshot(OUT)).isEqualTo(before);
    assertThat(table(OUT).schema().toString()).isEqualTo(schemaBefore);

    // The same rows, under a transform that may add columns: the earlier rows read the new one as null.
    sql("DROP TABLE " + id(OUT) + " PURGE");
    incrementalColumns = "id, name, age";
    assertThat(only(build(AppendsNewColumns.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    insert(IN, "4, 'di', 60");
    incrementalColumns = "id, name, age, upper(name) AS shout";
    TransformResult added = only(build(AppendsNewColumns.class));
    assertThat(added.status()).as(String.valueOf(added.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(added.incremental()).isTrue();
    assertThat(rows(OUT)).contains("[1,ann,30,null]", "[4,di,60,DI]");

    // Under sync_all_columns, a column the rows lose is dropped and a wider type is taken.
    sql("DROP TABLE " + id(OUT) + " PURGE");
    incrementalColumns = "id, name, age";
    assertThat(only(build(AppendsInSync.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    insert(IN, "5, 'ed', 70");
    incrementalColumns = "id, CAST(age AS BIGINT) AS age";
    TransformResult synced = only(build(AppendsInSync.class));
    assertThat(synced.status()).as(String.valueOf(synced.error())).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(table(OUT).schema().findField("name")).isNull();
    assertThat(table(OUT).schema().findField("age").type()).isEqualTo(Types.LongType.get());
    assertThat(synced.outputs().get(0).schemaChanges()).contains("name dropped (string)",
        "age widened from int to long");

    // A type that is not a widening needs a full build, whatever the policy.
    insert(IN, "6, 'fi', 80");
    incrementalColumns = "id, CAST(age AS STRING) AS age";
    TransformResult narrowed = only(build(AppendsInSync.class));
    assertThat(narrowed.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(narrowed.error().orElseThrow()).cause().hasMessageContaining("age: table long, rows string")
        .hasMessageContaining("only a full build");
  }
}
