package dev.transforms.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.Input;
import dev.transforms.api.Output;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.Locations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** Plain file datasets: read with their declared schema, usable in SQL by identifier(), staged on write. */
public class FileDatasetsTest extends SparkTestBase {

  static final String PEOPLE = "/Files/raw/people";
  static final String EVENTS = "/Files/tables/events";
  static final String UPPER = "/Files/out/people-upper";
  static final String JOINED = "/Files/out/joined";

  static volatile boolean fail;

  /** Joins CSV files with an Iceberg table read through @Input; writes Parquet files and a table. */
  public static class FileDatasets {
    @Transform(name = "files")
    public void run(SparkTransformContext ctx,
        @Input(value = PEOPLE, format = "csv", schema = "id BIGINT, name STRING") TransformInput people,
        @Input(EVENTS) IncrementalTransformInput events,
        @Output(UPPER) TransformOutput upper,
        @TableOutput(JOINED) TableTransformOutput joined) {
      SparkSession spark = ctx.sparkSession();
      upper.writeDataFrame(spark.sql("SELECT id, upper(name) AS name FROM " + people.identifier()));
      joined.writeDataFrame(spark.sql("SELECT e.id, p.name, e.kind FROM " + events.identifier() + " e JOIN "
          + upper.identifier() + " p ON e.id = p.id"));
      if (fail) {
        throw new IllegalStateException("failing after writing files");
      }
    }
  }

  static final String COUNTED = "/Files/out/people-count";

  /** Counts the people of the CSV files into a table: up to date while the files stay as they are. */
  public static class CountPeople {
    @Transform(name = "count-people")
    public void run(SparkTransformContext ctx,
        @Input(value = PEOPLE, format = "csv", schema = "id BIGINT, name STRING") TransformInput people,
        @TableOutput(COUNTED) TableTransformOutput counted) {
      counted.writeDataFrame(ctx.sparkSession().sql("SELECT count(*) AS people FROM " + people.identifier()));
    }
  }

  @Test
  void aFileInputIsUpToDateWhileItsFilesStayTheSame() throws IOException {
    writeCsv("1,ada", "2,grace");
    assertThat(only(build(CountPeople.class)).status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    TransformResult again = only(build(CountPeople.class));
    assertThat(again.status()).as(again.reason()).isEqualTo(TransformResult.Status.UP_TO_DATE);

    writeCsv("1,ada", "2,grace", "3,alan");
    TransformResult changed = only(build(CountPeople.class));
    assertThat(changed.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(rows(COUNTED)).containsExactly("[3]");
  }

  private Path files(String path) {
    return config.filesRoot().resolve(path.substring(1));
  }

  private void writeCsv(String... lines) throws IOException {
    Path folder = files(PEOPLE);
    Files.createDirectories(folder);
    Files.writeString(folder.resolve("part-0.csv"), "id,name\n" + String.join("\n", lines) + "\n");
  }

  private List<String> parquetRows(String path) {
    return spark.read().parquet(Locations.of(files(path))).collectAsList().stream().map(Row::toString).sorted()
        .toList();
  }

  @Test
  void filesAreReadWrittenAndStagedUntilTheTransformReturns() throws IOException {
    writeCsv("1,ada", "2,grace");
    createTable(EVENTS, "id BIGINT, kind STRING", "1, 'login'", "2, 'logout'", "2, 'login'");

    fail = false;
    BuildReport first = build(FileDatasets.class);
    assertThat(first.succeeded()).as(first.format() + only(first).error()).isTrue();
    assertThat(parquetRows(UPPER)).containsExactly("[1,ADA]", "[2,GRACE]");
    assertThat(rows(JOINED)).containsExactly("[1,ADA,login]", "[2,GRACE,login]", "[2,GRACE,logout]");

    writeCsv("1,alan");
    fail = true;
    TransformResult failed = only(build(FileDatasets.class));
    assertThat(failed.status()).isEqualTo(TransformResult.Status.FAILED);
    assertThat(String.valueOf(failed.error().orElseThrow().getMessage())).contains("failing after writing files");
    assertThat(parquetRows(UPPER)).containsExactly("[1,ADA]", "[2,GRACE]");
    assertThat(rows(JOINED)).containsExactly("[1,ADA,login]", "[2,GRACE,login]", "[2,GRACE,logout]");
    // The dataset is a link to the one version readers see; the failed build's version is gone.
    assertThat(Files.isSymbolicLink(files(UPPER))).isTrue();
    try (Stream<Path> siblings = Files.list(files(UPPER).getParent())) {
      assertThat(siblings.map(p -> p.getFileName().toString()).sorted().toList())
          .containsExactly(".people-upper.versions", "people-upper");
    }
    try (Stream<Path> versions = Files.list(files(UPPER).resolveSibling(".people-upper.versions"))) {
      assertThat(versions.map(p -> p.getFileName().toString()).toList()).containsExactly(first.buildId());
    }
  }
}
