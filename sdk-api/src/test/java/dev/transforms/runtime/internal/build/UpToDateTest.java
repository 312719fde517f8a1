package dev.transforms.runtime.internal.build;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.incremental.CodeFingerprint;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.validate.ReflectiveModels;
import dev.transforms.runtime.spi.TransformSpec;
import dev.transforms.testengine.IdTables;
import dev.transforms.testengine.TestEngine;
import dev.transforms.testengine.TestInput;
import dev.transforms.testengine.TestOutput;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A build does only the work that changed: a transform whose inputs, code and settings are those of the
 * build that published its outputs is skipped, commits nothing and starts no engine; what is downstream
 * of a change runs; a change of the code (another class file) runs the transform again.
 */
public class UpToDateTest {

  static final TableIdentifier LEFT = TableIdentifier.of(Namespace.of("src"), "left");
  static final TableIdentifier RIGHT = TableIdentifier.of(Namespace.of("src"), "right");

  @TempDir Path warehouse;
  @TempDir Path sources;
  BuildRunner runner;
  Catalog catalog;

  /** /src/left -> a -> /out/a -> b -> /out/b; /src/right -> c -> /out/c. */
  public static class Pipeline {
    @Transform(name = "a")
    public void a(@TableInput("/src/left") TestInput in, @TableOutput("/out/a") TestOutput out) {
      out.append(in.ids().stream().mapToLong(Long::longValue).toArray());
    }

    @Transform(name = "b")
    public void b(@TableInput("/out/a") TestInput in, @TableOutput("/out/b") TestOutput out) {
      out.append(in.ids().stream().mapToLong(v -> v * 2).toArray());
    }

    @Transform(name = "c")
    public void c(@TableInput("/src/right") TestInput in, @TableOutput("/out/c") TestOutput out) {
      out.append(in.ids().stream().mapToLong(Long::longValue).toArray());
    }
  }

  @BeforeEach
  void setUp() {
    runner = new BuildRunner(TransformsConfig.embedded(warehouse));
    catalog = runner.catalogs().catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("src"));
    IdTables.append(catalog.createTable(LEFT, IdTables.SCHEMA), null, Map.of(), 1, 2);
    IdTables.append(catalog.createTable(RIGHT, IdTables.SCHEMA), null, Map.of(), 7);
  }

  @AfterEach
  void tearDown() {
    runner.close();
  }

  private BuildReport build(List<TransformSpec> specs) {
    return runner.run(BuildPlan.of(specs), BuildListener.NONE);
  }

  private static Map<String, TransformResult.Status> statuses(BuildReport report) {
    Map<String, TransformResult.Status> statuses = new TreeMap<>();
    report.results().forEach(r -> statuses.put(r.transform(), r.status()));
    return statuses;
  }

  /** Where every table's metadata points: a build that commits nothing leaves every one as it was. */
  private Map<String, String> metadataLocations() {
    Map<String, String> locations = new TreeMap<>();
    for (Namespace namespace : ((SupportsNamespaces) catalog).listNamespaces()) {
      for (TableIdentifier id : catalog.listTables(namespace)) {
        locations.put(id.toString(), ((HasTableOperations) catalog.loadTable(id)).operations().current()
            .metadataFileLocation());
      }
    }
    return locations;
  }

  @Test
  void aSecondBuildRunsNothingAndAChangedInputRunsExactlyWhatIsDownstreamOfIt() {
    List<TransformSpec> pipeline = ReflectiveModels.transformsOf(Pipeline.class);
    assertThat(build(pipeline).succeeded()).isTrue();
    Map<String, String> before = metadataLocations();
    int starts = TestEngine.starts;

    BuildReport again = build(pipeline);

    assertThat(statuses(again)).containsOnly(Map.entry("a", TransformResult.Status.UP_TO_DATE),
        Map.entry("b", TransformResult.Status.UP_TO_DATE), Map.entry("c", TransformResult.Status.UP_TO_DATE));
    assertThat(again.succeeded()).isTrue();
    assertThat(metadataLocations()).as("nothing committed").isEqualTo(before);
    assertThat(TestEngine.starts).as("no engine started").isEqualTo(starts);

    IdTables.append(catalog.loadTable(LEFT), null, Map.of(), 3);
    BuildReport changed = build(pipeline);

    assertThat(statuses(changed)).containsOnly(Map.entry("a", TransformResult.Status.SUCCEEDED),
        Map.entry("b", TransformResult.Status.SUCCEEDED), Map.entry("c", TransformResult.Status.UP_TO_DATE));
    assertThat(changed.result("a").orElseThrow().reason()).isEqualTo("not an incremental transform");
    assertThat(changed.result("c").orElseThrow().reason()).startsWith("up to date: inputs and code unchanged");
    assertThat(IdTables.ids(catalog.loadTable(TableIdentifier.of("out", "b")), null)).contains(6L);
  }

  /** Writes version {@code version} of a transform class {@code Versioned} into a folder of its own. */
  private Path compile(String version, String body) throws IOException {
    Path folder = sources.resolve(version);
    Path source = folder.resolve("Versioned.java");
    Files.createDirectories(folder);
    Files.writeString(source, """
        import dev.transforms.api.TableInput;
        import dev.transforms.api.TableOutput;
        import dev.transforms.api.Transform;
        import dev.transforms.testengine.TestInput;
        import dev.transforms.testengine.TestOutput;

        public class Versioned {
          @Transform(name = "a")
          public void a(@TableInput("/src/left") TestInput in, @TableOutput("/out/a") TestOutput out) {
            %s
          }
        }
        """.formatted(body));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int code = javac.run(null, null, null, "-proc:none", "-classpath", System.getProperty("java.class.path"),
        "-d", folder.toString(), source.toString());
    assertThat(code).as("javac of " + version).isZero();
    return folder;
  }

  private static List<TransformSpec> load(Path folder) throws Exception {
    URLClassLoader loader = new URLClassLoader(new URL[] {folder.toUri().toURL()}, UpToDateTest.class.getClassLoader());
    return ReflectiveModels.transformsOf(loader.loadClass("Versioned"));
  }

  @Test
  void aTransformWhoseCodeChangedRunsAgainAndSoDoesWhatIsDownstreamOfIt() throws Exception {
    Path v1 = compile("v1", "out.append(in.ids().stream().mapToLong(Long::longValue).toArray());");
    Path v2 = compile("v2", "out.append(in.ids().stream().mapToLong(v -> v + 100).toArray());");
    List<TransformSpec> downstream = ReflectiveModels.transformsOf(Pipeline.class).stream()
        .filter(t -> t.name().equals("b")).toList();
    List<TransformSpec> first = new ArrayList<>(load(v1));
    first.addAll(downstream);
    assertThat(build(first).succeeded()).isTrue();

    // The same class file again, loaded anew: up to date.
    List<TransformSpec> same = new ArrayList<>(load(v1));
    same.addAll(downstream);
    assertThat(statuses(build(same))).containsOnly(Map.entry("a", TransformResult.Status.UP_TO_DATE),
        Map.entry("b", TransformResult.Status.UP_TO_DATE));

    // Another class file: a runs, with the reason, and b after it because its input moved.
    List<TransformSpec> edited = new ArrayList<>(load(v2));
    edited.addAll(downstream);
    BuildReport report = build(edited);
    assertThat(statuses(report)).containsOnly(Map.entry("a", TransformResult.Status.SUCCEEDED),
        Map.entry("b", TransformResult.Status.SUCCEEDED));
    assertThat(IdTables.ids(catalog.loadTable(TableIdentifier.of("out", "a")), null)).contains(101L, 102L);

    // What plan and graph would say, from the same decision, before the edit: the code changed.
    TransformsConfig config = TransformsConfig.embedded(warehouse);
    assertThat(CodeFingerprint.of(load(v1).get(0), config))
        .isNotEqualTo(CodeFingerprint.of(load(v2).get(0), config))
        .isEqualTo(CodeFingerprint.of(load(v1).get(0), config));
  }

  @Test
  void forcedTransformsRunAndTheOthersStillSkip() {
    List<TransformSpec> pipeline = ReflectiveModels.transformsOf(Pipeline.class);
    build(pipeline);
    BuildReport forced = runner.run(BuildPlan.of(pipeline), BuildListener.NONE,
        new BuildOptions(Set.of(), Set.of("c")));
    assertThat(statuses(forced)).containsOnly(Map.entry("a", TransformResult.Status.UP_TO_DATE),
        Map.entry("b", TransformResult.Status.UP_TO_DATE), Map.entry("c", TransformResult.Status.SUCCEEDED));
  }

  @Test
  void theSettingsOfTheEngineArePartOfTheFingerprint() {
    Class<?> type = Pipeline.class;
    assertThat(CodeFingerprint.of(type, Map.of("duckdb.threads", "2")))
        .isNotEqualTo(CodeFingerprint.of(type, Map.of("duckdb.threads", "4")))
        .isEqualTo(CodeFingerprint.of(type, Map.of("duckdb.threads", "2")))
        .isNotEqualTo(CodeFingerprint.of(UpToDateTest.class, Map.of("duckdb.threads", "2")))
        .hasSize(24);
  }

  @Test
  void settingsOfWhereAndHowFastItRunsLeaveATransformUpToDateAndOthersDoNot() throws IOException {
    TransformSpec a = ReflectiveModels.transformsOf(Pipeline.class).get(0);
    java.util.function.Function<String, String> fingerprint = settings -> {
      try {
        Path file = sources.resolve("transforms-" + Math.abs(settings.hashCode()) + ".properties");
        Files.writeString(file, settings);
        return CodeFingerprint.of(a, TransformsConfig.load(java.util.Optional.of(file),
            java.util.Optional.of(warehouse), Map.of(), sources));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    };
    String base = fingerprint.apply("duckdb.threads=2\n");
    assertThat(fingerprint.apply("duckdb.threads=4\nduckdb.memory-limit=2GB\n")).isEqualTo(base);
    assertThat(fingerprint.apply("duckdb.threads=2\nduckdb.parquet=false\n")).isNotEqualTo(base);

    assertThat(CodeFingerprint.shapesResults("spark.master")).isFalse();
    assertThat(CodeFingerprint.shapesResults("spark.ui.enabled")).isFalse();
    assertThat(CodeFingerprint.shapesResults("spark.executor.memory")).isFalse();
    assertThat(CodeFingerprint.shapesResults("spark.sql.ansi.enabled")).isTrue();
    assertThat(CodeFingerprint.shapesResults("spark.sql.session.timeZone")).isTrue();
    assertThat(CodeFingerprint.shapesResults("spark.masterish")).isTrue();
  }

  @Test
  void aTransformRunBecauseItsCodeChangedSaysSoAndNotThatItsInputsMoved() throws Exception {
    Path v1 = compile("r1", "out.append(in.ids().stream().mapToLong(Long::longValue).toArray());");
    Path v2 = compile("r2", "out.append(in.ids().stream().mapToLong(v -> v + 1).toArray());");
    assertThat(build(load(v1)).succeeded()).isTrue();

    TransformResult again = build(load(v2)).result("a").orElseThrow();

    assertThat(again.status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(again.reason()).startsWith("its code or settings changed since build ");
  }
}
