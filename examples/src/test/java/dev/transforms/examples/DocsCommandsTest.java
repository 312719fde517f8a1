package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.cli.TransformsCli;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.discovery.TransformIndex;
import dev.transforms.spark.SparkSessions;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable shell blocks of the docs ({@code <!-- run: demo -->}, {@code <!-- run: project -->}),
 * run in this JVM line by line, each {@code ./transforms ...} through {@link TransformsCli} as the
 * launcher would run it; the {@code <!-- output -->} block after one is compared with what it printed.
 *
 * <p>{@code demo}: in a folder where {@code ./transforms demo} has seeded and built the examples.
 * {@code project}: in a folder holding the page's project, its {@code <!-- file: -->} blocks written
 * out and its Java files compiled (with the transform index), and only those transforms on the
 * classpath. CI also runs getting-started's block for real, in a fresh Maven project
 * ({@code .ci/new-user-check}).
 */
@TransformsTest
class DocsCommandsTest {

  @TempDir Path dir;

  @Test
  void theReadmeCommandsRunOnTheDemoWarehouse(TestWarehouse warehouse) throws Exception {
    warehouse.sparkSession(); // the test JVM's session, which every build here derives its own from
    Path work = Files.createDirectories(dir.resolve("demo"));
    List<DocBlocks.Block> blocks = DocBlocks.read(DocSnippets.REPO.resolve("README.md"));
    writeFiles(blocks, work);
    demo(work);
    int run = runBlocks(blocks, "demo", work, Thread.currentThread().getContextClassLoader());
    assertThat(run).as("runnable blocks of README.md").isGreaterThanOrEqualTo(1);
  }

  @Test
  void gettingStartedRunsEndToEnd(TestWarehouse warehouse) throws Exception {
    warehouse.sparkSession();
    Path work = Files.createDirectories(dir.resolve("shop-pipeline"));
    List<DocBlocks.Block> blocks = DocBlocks.read(DocSnippets.REPO.resolve("docs/getting-started.md"));
    writeFiles(blocks, work);
    Path classes = Files.createDirectories(work.resolve("target/classes"));
    List<DocSnippets.Unit> units = new ArrayList<>();
    for (DocBlocks.Block block : blocks) {
      if (block.language().equals("java") && block.argument().startsWith("src/main/java/")) {
        units.add(DocSnippets.unit(block, units.size()));
      }
    }
    assertThat(units).as("the project's main classes").isNotEmpty();
    assertThat(DocSnippets.compile(units, classes)).isEmpty();
    try (ProjectLoader loader = new ProjectLoader(classes, Thread.currentThread().getContextClassLoader())) {
      assertThat(runBlocks(blocks, "project", work, loader)).as("runnable blocks of getting-started.md").isEqualTo(1);
    }
  }

  /** What {@code ./transforms demo} does, in this JVM: seed the sample inputs, then build everything. */
  private static void demo(Path work) throws IOException {
    TransformsConfig config = TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(), work);
    Files.createDirectories(config.warehouse());
    SparkSession spark = SparkSessions.forBuild(SparkSession.active(), config);
    try {
      new SampleInputs(spark, new TableResolver(config)).seedOrDeliver();
    } finally {
      SparkSessions.closeCatalogs(spark, config.catalogs().keySet());
    }
    Result build = cli(work, List.of("build"));
    assertThat(build.code()).as("./transforms demo\n" + build.out() + build.err()).isZero();
  }

  private static void writeFiles(List<DocBlocks.Block> blocks, Path work) throws IOException {
    for (DocBlocks.Block block : blocks) {
      if (block.directive().filter("file"::equals).isPresent() && !block.language().equals("java")) {
        Path file = work.resolve(block.argument());
        Files.createDirectories(file.getParent());
        Files.writeString(file, block.text());
      }
    }
  }

  /** Runs the blocks marked {@code run: SETTING} and checks the output blocks after them; returns how many. */
  private static int runBlocks(List<DocBlocks.Block> blocks, String setting, Path work, ClassLoader loader)
      throws IOException {
    int count = 0;
    for (int i = 0; i < blocks.size(); i++) {
      DocBlocks.Block block = blocks.get(i);
      if (!block.directive().filter("run"::equals).isPresent()) {
        continue;
      }
      assertThat(block.argument()).as(block.where() + ": the run setting").isEqualTo(setting);
      count++;
      StringBuilder out = new StringBuilder();
      List<String> lines = block.text().lines().toList();
      for (int n = 0; n < lines.size(); n++) {
        String where = block.page().getFileName() + ":" + (block.firstLine() + n);
        List<String> words = DocCommands.words(lines.get(n));
        if (words.isEmpty()) {
          continue;
        }
        if (words.size() == 3 && words.get(0).equals("chmod") && words.get(1).equals("+x")) {
          assertThat(work.resolve(words.get(2)).toFile().setExecutable(true)).as(where).isTrue();
          continue;
        }
        assertThat(words.get(0)).as(where + ": a runnable line runs ./transforms").isEqualTo("./transforms");
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        Result result;
        try {
          result = cli(work, words.subList(1, words.size()));
        } finally {
          thread.setContextClassLoader(previous);
        }
        assertThat(result.code()).as(where + ": " + lines.get(n) + "\n" + result.out() + result.err()).isZero();
        out.append(result.out());
      }
      if (i + 1 < blocks.size() && blocks.get(i + 1).directive().filter("output"::equals).isPresent()) {
        DocBlocks.Block expected = blocks.get(i + 1);
        assertThat(DocCommands.mismatch(expected.text(), out.toString())).as(expected.where()).isEmpty();
      }
    }
    return count;
  }

  private record Result(int code, String out, String err) {}

  private static Result cli(Path work, List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = TransformsCli.execute(new TransformsCli(Map.of(), work), new PrintWriter(out, true),
        new PrintWriter(err, true), args.toArray(new String[0]));
    return new Result(code, out.toString(), err.toString());
  }

  /**
   * The project's classes before the test classpath, whose transform index it hides: only the project's
   * transforms are found, as in the project itself.
   */
  private static final class ProjectLoader extends URLClassLoader {
    ProjectLoader(Path classes, ClassLoader parent) throws IOException {
      super(new URL[] {classes.toUri().toURL()}, parent);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
      return name.equals(TransformIndex.RESOURCE) ? findResources(name) : super.getResources(name);
    }
  }
}
