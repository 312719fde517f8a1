package dev.transforms.singlenode.sql;

import static org.assertj.core.api.Assertions.assertThat;
import dev.transforms.Transforms;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.singlenode.IcebergInput;
import dev.transforms.singlenode.IcebergOutput;
import dev.transforms.singlenode.SingleNodeTransformContext;
import dev.transforms.singlenode.SqlSession;
import dev.transforms.singlenode.internal.engine.DuckDbSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The session's resources: configuration, and nothing left behind after many builds. */
public class SqlSessionResourcesTest {

  static final Schema EVENTS = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "kind", Types.StringType.get()));

  @TempDir Path dir;

  private Catalog events(Transforms runner) {
    Catalog catalog = runner.catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("app"));
    Table table = catalog.createTable(TableIdentifier.of("app", "events"), EVENTS);
    List<Record> rows = new ArrayList<>();
    for (long i = 0; i < 1000; i++) {
      rows.add(SqlTables.row(EVENTS, i, i % 3 == 0 ? "click" : "view"));
    }
    SqlTables.append(table, rows);
    return catalog;
  }

  /** Queries the input several ways, leaves a result unread, and fails when asked to. */
  public static class Kinds {
    static boolean fail;

    @Transform(name = "kinds")
    public void kinds(SingleNodeTransformContext ctx, @TableInput("/app/events") IcebergInput events,
        @TableOutput("/app/kinds") IcebergOutput kinds) {
      SqlSession sql = ctx.sql();
      ArrowReader unread = sql.query("SELECT * FROM events e1 JOIN events e2 USING (id)");
      assertThat(unread).isNotNull();
      kinds.writeTable(sql.query("SELECT kind, count(*) AS n FROM events GROUP BY kind"));
      if (fail) {
        throw new IllegalStateException("asked to fail");
      }
    }
  }

  /**
   * This JVM's DuckDB spill folders that are on disk (other JVMs on the machine make and delete their own
   * in the same temporary folder, so counting the folder's entries would count theirs).
   */
  private static List<Path> spillFolders() {
    return DuckDbSession.spillFolders().stream().filter(Files::isDirectory).toList();
  }

  @Test
  void hundredBuildsLeaveNoArrowMemoryNoConnectionAndNoSpillFolder() throws IOException {
    List<Path> foldersBefore = null;
    try (Transforms runner = Transforms.open(TransformsConfig.embedded(dir.resolve("warehouse")))) {
      Catalog catalog = events(runner);
      for (int build = 0; build < 100; build++) {
        if (build == 1) {
          // the JVM's DuckDB database, and its spill folder, may have been opened by the first build
          foldersBefore = spillFolders();
        }
        Kinds.fail = build % 10 == 9;
        BuildReport report = dev.transforms.singlenode.Builds.forced(runner, Kinds.class);
        TransformResult result = report.results().get(0);
        // A leak of Arrow memory fails the transform (the run's allocators are closed and checked).
        if (Kinds.fail) {
          assertThat(result.status()).isEqualTo(TransformResult.Status.FAILED);
          assertThat(result.error().orElseThrow()).hasMessageContaining("asked to fail");
        } else {
          assertThat(result.error()).as("build " + build).isEmpty();
        }
        assertThat(DuckDbSession.openSessions()).as("open DuckDB sessions after build " + build).isZero();
      }
      Table kinds = catalog.loadTable(TableIdentifier.of("app", "kinds"));
      assertThat(SqlTables.read(kinds)).hasSize(2);
    } finally {
      Kinds.fail = false;
    }
    assertThat(foldersBefore).as("this JVM's spill folders after the first build").isNotEmpty();
    assertThat(spillFolders()).as("this JVM's spill folders after 100 builds").isEqualTo(foldersBefore);
  }

  /** Reads a result in a try-with-resources, so that it is closed before the session closes it. */
  public static class ClosesItsResult {
    @Transform(name = "closes_its_result")
    public void run(SingleNodeTransformContext ctx, @TableInput("/app/events") IcebergInput events,
        @TableOutput("/app/closed_early") IcebergOutput out) throws IOException {
      try (ArrowReader counted = ctx.sql().query("SELECT count(*) AS n FROM events")) {
        assertThat(counted.loadNextBatch()).isTrue();
        assertThat(counted.getVectorSchemaRoot().getVector("n").getObject(0)).isEqualTo(1000L);
      }
      out.writeTable(ctx.sql().query("SELECT kind, count(*) AS n FROM events GROUP BY kind"));
    }
  }

  @Test
  void aResultTheTransformClosesIsNotClosedAgain() {
    try (Transforms runner = Transforms.open(TransformsConfig.embedded(dir.resolve("warehouse")))) {
      Catalog catalog = events(runner);
      TransformResult result = dev.transforms.singlenode.Builds.forced(runner, ClosesItsResult.class).results().get(0);
      assertThat(result.error()).isEmpty();
      assertThat(SqlTables.read(catalog.loadTable(TableIdentifier.of("app", "closed_early")))).hasSize(2);
    }
  }

  /** Writes the session's settings. */
  public static class Settings {
    @Transform(name = "settings")
    public void settings(SingleNodeTransformContext ctx, @TableInput("/app/events") IcebergInput events,
        @TableOutput("/app/settings") IcebergOutput out) throws SQLException {
      try (Statement st = ctx.sql().connection().createStatement();
          ResultSet tables = st.executeQuery("SELECT count(*) FROM information_schema.tables WHERE table_name = 'events'")) {
        tables.next();
        assertThat(tables.getLong(1)).as("connection() loads every registered name").isEqualTo(1);
      }
      out.writeTable(ctx.sql().query("SELECT current_setting('threads') AS threads,"
          + " current_setting('memory_limit') AS memory, current_setting('TimeZone') AS zone,"
          + " current_setting('preserve_insertion_order') AS keep_order"));
    }
  }

  private Transforms configured(String properties) throws IOException {
    Path file = dir.resolve("transforms.properties");
    Files.writeString(file, "warehouse=" + dir.resolve("warehouse") + "\n" + properties);
    return Transforms.open(TransformsConfig.load(Optional.of(file), Optional.empty(), Map.of(), dir));
  }

  @Test
  void memoryLimitAndThreadsComeFromTheConfiguration() throws IOException {
    try (Transforms runner = configured("duckdb.threads=1\nduckdb.memory-limit=256MB\n")) {
      Catalog catalog = events(runner);
      TransformResult result = dev.transforms.singlenode.Builds.forced(runner, Settings.class).results().get(0);
      assertThat(result.error()).isEmpty();
      Record settings = SqlTables.read(catalog.loadTable(TableIdentifier.of("app", "settings"))).get(0);
      assertThat(settings.getField("threads")).isEqualTo(1L);
      assertThat((String) settings.getField("memory")).matches("24[0-9](\\.[0-9]+)? MiB");
      assertThat(settings.getField("zone")).isEqualTo("UTC");
      // loading sets it aside; the user's queries see DuckDB's default again
      assertThat(settings.getField("keep_order")).isEqualTo(true);
    }
  }

  @Test
  void aBadSettingIsRefusedNamingTheKey() throws IOException {
    try (Transforms runner = configured("duckdb.memory-limit=plenty\n")) {
      events(runner);
      TransformResult result = dev.transforms.singlenode.Builds.forced(runner, Settings.class).results().get(0);
      assertThat(SqlSessionTest.errorText(result)).contains("Configuration key 'duckdb.memory-limit' = 'plenty'");
    }
    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> configured("duckdb.threads=0\n")))
        .hasMessageContaining("'duckdb.threads'").hasMessageContaining("positive whole number");
    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> configured("duckdb.thread=2\n")))
        .hasMessageContaining("Unknown configuration key 'duckdb.thread'");
  }
}
