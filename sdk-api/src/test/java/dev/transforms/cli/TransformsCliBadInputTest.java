package dev.transforms.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.testengine.TestInput;
import dev.transforms.testengine.TestOutput;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input through the command line, one row each: the exit code, words of the message (the path, key
 * or argument at fault named), never a raw stack trace, "error: null" or "Unknown failure", and nothing
 * on disk changed: every file below the working directory (the warehouse, with table /cli/in, included)
 * keeps its size, and nothing is added or removed. The one exception: a build that ran and failed
 * records that in the warehouse's {@code .transforms-last-builds.properties}, for {@code transforms
 * graph} ({@code BuildReportPageTest} checks what it holds), under the lock file beside it.
 */
public class TransformsCliBadInputTest {

  private static final String DOUBLER = TransformsCliTest.Doubler.class.getName();
  private static final String FAILING = TransformsCliTest.Failing.class.getName();

  /** Reads a table nobody built. */
  public static class ReadsAbsent {
    @Transform
    public void readsAbsent(@TableInput("/cli/absent") TestInput in, @TableOutput("/cli/from-absent") TestOutput out) {
      out.append(in.ids().stream().mapToLong(Long::longValue).toArray());
    }
  }

  /** A parameter without a path. */
  public static class NoPath {
    @Transform
    public void noPath(TestInput in, @TableOutput("/cli/no-path") TestOutput out) {}
  }

  /** Writes the output Doubler writes. */
  public static class SecondProducer {
    @Transform
    public void alsoDoubles(@TableInput("/cli/in") TestInput in, @TableOutput("/cli/doubled") TestOutput out) {}
  }

  /** Two transforms that read each other's output. */
  public static class Cycle {
    @Transform
    public void ping(@TableInput("/cli/pong") TestInput in, @TableOutput("/cli/ping") TestOutput out) {}

    @Transform
    public void pong(@TableInput("/cli/ping") TestInput in, @TableOutput("/cli/pong") TestOutput out) {}
  }

  /** A class without transforms. */
  public static class NoTransforms {
    public void notATransform() {}
  }

  /** One bad input: what to set up, what to run, and what must come out. */
  record BadInput(String name, int exitCode, List<String> args, Map<String, String> environment, Setup setup,
      List<String> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** Prepares the working directory of a case (a copy of the template) before the snapshot. */
  interface Setup {
    void prepare(Path dir) throws IOException;
  }

  /** A case with no set-up and no environment. */
  private static BadInput bad(String name, int exitCode, List<String> args, String... expected) {
    return new BadInput(name, exitCode, args, Map.of(), dir -> {}, List.of(expected));
  }

  /** A case whose working directory holds {@code transforms.properties} with the given lines. */
  private static BadInput withConfig(String name, int exitCode, List<String> args, List<String> lines,
      String... expected) {
    return new BadInput(name, exitCode, args, Map.of(), dir -> Files.writeString(dir.resolve("transforms.properties"),
        String.join("\n", lines).replace("{dir}", dir.toString())), List.of(expected));
  }

  private static BadInput withEnvironment(String name, int exitCode, List<String> args, Map<String, String> environment,
      String... expected) {
    return new BadInput(name, exitCode, args, environment, dir -> {}, List.of(expected));
  }

  private static BadInput withSetup(String name, int exitCode, List<String> args, Setup setup, String... expected) {
    return new BadInput(name, exitCode, args, Map.of(), setup, List.of(expected));
  }

  static Stream<BadInput> badInputs() {
    List<String> plan = List.of("--class", DOUBLER, "plan");
    List<String> build = List.of("--class", DOUBLER, "build");
    List<String> showIn = List.of("show", "/cli/in");
    List<BadInput> cases = new ArrayList<>(List.of(
        // Usage.
        bad("unknown command", 2, List.of("frobnicate"), "Unknown command 'frobnicate'; the commands are list, plan, build",
            "Run 'transforms --help'"),
        bad("no command", 2, List.of(), "Usage: transforms"),
        bad("unknown option", 2, List.of("build", "--fast"), "Unknown option: '--fast'"),
        bad("--config without a value", 2, List.of("--config"), "Missing required parameter for option '--config'"),
        bad("show without a path", 2, List.of("show"), "Missing required parameter: 'PATH'"),
        bad("show with two paths", 2, List.of("show", "/cli/in", "/cli/doubled"), "Unmatched argument", "/cli/doubled"),
        // A global option goes before the command or after it, once: never on both sides (the last one won).
        withSetup("--config before and after the command", 2,
            List.of("--config", "a.properties", "--class", DOUBLER, "plan", "--config", "b.properties"),
            TransformsCliBadInputTest::twoConfigFiles,
            "Option '--config' is given twice, before the command (a.properties) and after it (b.properties); "
                + "give it once"),
        withSetup("--config twice after the command", 2,
            List.of("--class", DOUBLER, "plan", "--config", "a.properties", "--config", "b.properties"),
            TransformsCliBadInputTest::twoConfigFiles, "Option '--config' is given twice; give it once"),
        bad("--warehouse before and after the command", 2,
            List.of("--warehouse", "a", "--class", DOUBLER, "plan", "--warehouse", "b"),
            "Option '--warehouse' is given twice, before the command (a) and after it (b); give it once"),
        bad("--verbose before and after the command", 2, List.of("--verbose", "list", "--verbose"),
            "Option '--verbose' is given twice, before the command and after it; give it once"),
        bad("--class before and after the command", 2, List.of("--class", DOUBLER, "list", "--class", FAILING),
            "Option '--class' is given both before the command (" + DOUBLER + ") and after it (" + FAILING
                + "); give all its classes on one side (--class A,B, or --class A --class B)"),
        // Where an option of transforms itself goes, and what '--' does.
        bad("--version after a command", 2, List.of("build", "--version"), "Unknown option: '--version'",
            "--version is an option of transforms itself, given before any command: transforms --version"),
        bad("a command after --", 2, List.of("--", "build"),
            "'build' follows '--', after which every word is taken as an argument, never as a command or an option; "
                + "transforms itself takes no argument: leave out '--' (transforms build)"),
        bad("an empty transform name to build", 2, List.of("--class", DOUBLER, "build", ""),
            "An empty transform name was given (''); name a transform, such as Doubler.doubled, or none to take them all"),
        bad("a blank transform name to plan", 2, List.of("--class", DOUBLER, "plan", "Doubler.doubled", " "),
            "An empty transform name was given (' ')"),
        // Dataset paths.
        bad("relative path", 2, List.of("show", "cli/in"), "Invalid dataset path 'cli/in'", "not absolute"),
        bad("path with ..", 2, List.of("show", "/cli/../in"), "Invalid dataset path '/cli/../in'", "'..'"),
        bad("path with an empty segment", 2, List.of("show", "/cli//in"), "Invalid dataset path '/cli//in'"),
        bad("root path", 2, List.of("show", "/"), "Invalid dataset path '/'"),
        bad("path without a folder", 2, List.of("show", "/orders"), "'/orders' resolves to no namespace"),
        bad("folder with a dot on JDBC", 2, List.of("show", "/a.b/t"), "folder 'a.b' with a '.'"),
        bad("table that does not exist", 2, List.of("show", "/cli/nothing"),
            "No table at /cli/nothing (`local`.`cli`.`nothing`)"),
        // Transforms.
        bad("class not on the classpath", 2, List.of("--class", "no.such.Type", "list"),
            "Transform class no.such.Type is not on the classpath"),
        bad("class without transforms", 2, List.of("--class", NoTransforms.class.getName(), "list"),
            "Class " + NoTransforms.class.getName() + " has no @Transform method"),
        bad("invalid transform", 2, List.of("--class", NoPath.class.getName(), "list"),
            "Parameter in of @Transform method NoPath.noPath (TestInput) has no path annotation"),
        bad("unknown transform to build", 2, List.of("--class", DOUBLER, "build", "Tripler.tripled"),
            "No transform is named Tripler.tripled"),
        bad("unknown transform to plan", 2, List.of("--class", DOUBLER, "plan", "nope"), "No transform is named nope"),
        bad("two producers of one output", 2, List.of("--class", DOUBLER + "," + SecondProducer.class.getName(), "plan"),
            "Output /cli/doubled is produced by two transforms", "Doubler.doubled", "SecondProducer.alsoDoubles"),
        bad("cycle", 2, List.of("--class", Cycle.class.getName(), "build"), "Transforms form a cycle", "Cycle.ping",
            "Cycle.pong"),
        // The configuration file.
        bad("missing --config file", 2, List.of("--config", "missing.properties", "plan"),
            "Configuration file {dir}/missing.properties does not exist"),
        bad("missing --config file for list, which needs no catalog", 2, List.of("--config", "missing.properties",
            "--class", DOUBLER, "list"), "Configuration file {dir}/missing.properties does not exist"),
        withSetup("--config naming a folder", 2, List.of("--config", "conf", "plan"),
            dir -> Files.createDirectories(dir.resolve("conf")),
            "Configuration file {dir}/conf is a folder; name a properties file, such as {dir}/conf/transforms.properties"),
        bad("--config naming a device", 2, List.of("--config", "/dev/null", "--class", DOUBLER, "plan"),
            "Configuration file /dev/null exists but is not a regular file (a device, a pipe or a socket); name a "
                + "properties file"),
        withSetup("--config naming a pipe", 2, List.of("--config", "pipe", "--class", DOUBLER, "plan"),
            dir -> mkfifo(dir.resolve("pipe")),
            "Configuration file {dir}/pipe exists but is not a regular file (a device, a pipe or a socket)"),
        withConfig("key set twice", 2, plan, List.of("# threads", "build.threads=2", "", "build.threads = 3"),
            "Configuration key 'build.threads' is set twice in file {dir}/transforms.properties, on line 2 and "
                + "line 4; keep one"),
        withConfig("key set twice, once on a continued line", 2, plan,
            List.of("warehouse=a\\", "  b", "build.threads=2", "warehouse=c"),
            "Configuration key 'warehouse' is set twice in file {dir}/transforms.properties, on line 1 and line 4"),
        bad("empty --config", 2, List.of("--config", "", "plan"),
            "Invalid value for option '--config': the value is empty; name a file"),
        withConfig("unknown key", 2, plan, List.of("colour=blue"), "Unknown configuration key 'colour'"),
        withConfig("unknown advisory level", 2, plan, List.of("advisories=loud"),
            "Configuration key 'advisories' is 'loud'; use off, warn or error",
            "(set by file {dir}/transforms.properties)"),
        withConfig("unknown advisory option", 2, plan, List.of("advisories.colour=blue"),
            "Unknown configuration key 'advisories.colour'"),
        withConfig("catalog without type", 2, plan, List.of("catalog.prod.uri=http://127.0.0.1:1", "mount./=prod"),
            "Catalog 'prod' has neither catalog.prod.type"),
        withConfig("mount of an undefined catalog", 2, plan, List.of("mount./cli=nowhere"),
            "Mount '/cli' names catalog 'nowhere', which is not defined"),
        withConfig("unterminated reference", 2, plan, List.of("catalog.local.type=jdbc",
                "catalog.local.uri=jdbc:sqlite:${DB_DIR/catalog.db", "catalog.local.warehouse=file:/tmp/wh"),
            "Configuration key 'catalog.local.uri'", "unterminated reference '${DB_DIR'"),
        withConfig("invalid reference", 2, plan, List.of("warehouse=${9LIVES}"),
            "Configuration key 'warehouse'", "invalid reference starting '${9LIVES'"),
        withConfig("unset reference", 2, plan, List.of("catalog.prod.type=rest", "catalog.prod.token=${MISSING_TOKEN}",
                "mount./=prod"),
            "Configuration key 'catalog.prod.token' (set by file {dir}/transforms.properties) references "
                + "${MISSING_TOKEN}, which is not set"),
        withConfig("unknown catalog type", 2, plan, List.of("catalog.prod.type=bogus", "mount./=prod"),
            "Catalog 'prod' has type 'bogus' (set by file {dir}/transforms.properties)"),
        withConfig("catalog class not on the classpath", 2, plan, List.of("catalog.prod.catalog-impl=com.example.Cat",
                "mount./=prod"),
            "Catalog 'prod' needs class com.example.Cat", "not on the classpath"),
        withConfig("catalog class that is no catalog", 2, plan, List.of("catalog.prod.catalog-impl=java.lang.String",
                "mount./=prod"),
            "class java.lang.String", "is not an Iceberg catalog"),
        withConfig("type and class both", 2, plan, List.of("catalog.prod.type=rest",
                "catalog.prod.catalog-impl=org.apache.iceberg.rest.RESTCatalog", "mount./=prod"),
            "Catalog 'prod' sets both catalog.prod.type"),
        withConfig("catalog key without property", 2, plan, List.of("catalog.prod=rest"),
            "Configuration key 'catalog.prod' must have the form catalog.NAME.PROPERTY"),
        withConfig("relative mount prefix", 2, plan, List.of("mount.cli=local"),
            "Mount prefix of 'mount.cli' is not a valid path"),
        withConfig("empty namespace level in a mount", 2, plan, List.of("mount./cli=local:a..b"),
            "Mount 'mount./cli=local:a..b' has an empty namespace level"),
        withConfig("malformed unicode escape", 2, plan, List.of("warehouse=\\uZZZZ"),
            "Cannot read configuration file {dir}/transforms.properties, line 1 ('\\uZZZZ')",
            "Malformed \\uxxxx encoding"),
        withSetup("configuration file that is not UTF-8", 2, plan,
            dir -> Files.write(dir.resolve("transforms.properties"), new byte[] {'w', '=', (byte) 0xff, (byte) 0xfe}),
            "Cannot read configuration file {dir}/transforms.properties: it is not UTF-8 text"),
        withConfig("empty warehouse key", 2, plan, List.of("warehouse="),
            "The warehouse folder is empty (set by file {dir}/transforms.properties)"),
        withConfig("empty files.root", 2, plan, List.of("files.root="), "Configuration key 'files.root' is empty"),
        // The environment and the command line.
        withEnvironment("unknown embedded catalog type from the environment", 2, plan,
            Map.of("TRANSFORMS_CATALOG_LOCAL_TYPE", "bogus"),
            "Catalog 'local' has type 'bogus' (set by environment variable TRANSFORMS_CATALOG_LOCAL_TYPE)"),
        withEnvironment("unknown embedded catalog type, build", 2, build, Map.of("TRANSFORMS_CATALOG_LOCAL_TYPE", "bogus"),
            "TRANSFORMS_CATALOG_LOCAL_TYPE"),
        withEnvironment("empty warehouse from the environment", 2, build, Map.of("TRANSFORMS_WAREHOUSE", ""),
            "The warehouse folder is empty (set by environment variable TRANSFORMS_WAREHOUSE)"),
        bad("empty --warehouse", 2, List.of("--warehouse", "", "--class", DOUBLER, "build"),
            "Invalid value for option '--warehouse': the value is empty"),
        // The warehouse and the catalog on disk.
        withSetup("warehouse is a file, build", 2, List.of("--warehouse", "wh-file", "--class", DOUBLER, "build"),
            dir -> Files.writeString(dir.resolve("wh-file"), "not a folder"),
            "Catalog 'local' keeps its database in {dir}/wh-file, but {dir}/wh-file is a file, not a folder"),
        withSetup("warehouse is a file, show", 2, List.of("--warehouse", "wh-file", "show", "/cli/in"),
            dir -> Files.writeString(dir.resolve("wh-file"), "not a folder"), "{dir}/wh-file is a file, not a folder"),
        withSetup("warehouse below a file", 2, List.of("--warehouse", "wh-file/below", "--class", DOUBLER, "build"),
            dir -> Files.writeString(dir.resolve("wh-file"), "not a folder"), "{dir}/wh-file is a file, not a folder"),
        withSetup("read-only catalog database", 2, build, TransformsCliBadInputTest::makeCatalogReadOnly,
            "{dir}/warehouse/catalog.db", "read-only", "nothing was built"),
        withSetup("metadata file of an input deleted, build", 1, build, TransformsCliBadInputTest::deleteInputMetadata,
            "FAILED    Doubler.doubled", "NotFoundException", "{dir}/warehouse/cli/in/metadata/", ".metadata.json"),
        withSetup("metadata file deleted, show", 1, showIn, TransformsCliBadInputTest::deleteInputMetadata,
            "Cannot read table /cli/in (`local`.`cli`.`in`) of catalog 'local'", "NotFoundException",
            "{dir}/warehouse/cli/in/metadata/"),
        withConfig("unreachable REST catalog", 2, build, List.of("catalog.prod.type=rest",
                "catalog.prod.uri=http://127.0.0.1:1/api/catalog?token=cli-secret-4711", "mount./cli=prod:analytics",
                "mount./=local"),
            "Cannot start catalog 'prod' (rest, uri http://127.0.0.1:1/api/catalog?token=****)",
            "Connection refused"),
        // Transforms that fail before writing.
        bad("missing input", 1, List.of("--class", ReadsAbsent.class.getName(), "build"),
            "Input /cli/absent of transform ReadsAbsent.readsAbsent does not exist: no table `local`.`cli`.`absent`"),
        bad("a transform that throws", 1, List.of("--class", FAILING, "build"),
            "Transform Failing.fails failed: java.lang.IllegalArgumentException: bad data")));
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInputs")
  void isRefusedWithAMessageThatSaysWhyAndChangesNothing(BadInput input, @TempDir Path dir) throws IOException {
    // Each case seeds its own warehouse: table locations are absolute, a copy would share the files.
    TransformsCliTest.seed(dir.resolve("warehouse"));
    input.setup().prepare(dir);
    Map<String, Long> before = files(dir);

    Run run = run(dir, input.environment(), input.args());

    String printed = run.out() + run.err();
    assertThat(run.exitCode()).as(printed).isEqualTo(input.exitCode());
    for (String expected : input.expected()) {
      assertThat(printed).contains(expected.replace("{dir}", dir.toString()));
    }
    assertThat(printed).doesNotContain("\tat ", "error: null", "Unknown failure", "Exception in thread",
        "cli-secret-4711");
    assertThat(files(dir)).as("files below the working directory, with their sizes").isEqualTo(before);
  }

  /** Two empty configuration files, a.properties and b.properties. */
  private static void twoConfigFiles(Path dir) throws IOException {
    Files.writeString(dir.resolve("a.properties"), "");
    Files.writeString(dir.resolve("b.properties"), "");
  }

  /** A named pipe: a file that exists and is not a regular file (reading it would wait for a writer). */
  private static void mkfifo(Path path) throws IOException {
    try {
      int code = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start().waitFor();
      org.junit.jupiter.api.Assumptions.assumeTrue(code == 0, "mkfifo");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  @org.junit.jupiter.api.Test
  void theHintsForAnOptionOfTransformsItselfAndForDashDashAreNotContradictedBySuggestions(@TempDir Path dir) {
    Run version = run(dir, Map.of(), List.of("build", "--version"));
    assertThat(version.err()).doesNotContain("Possible solutions");
    Run dashDash = run(dir, Map.of(), List.of("--", "build"));
    assertThat(dashDash.err()).doesNotContain("Did you mean", "Unknown command");
    // A misspelled command still gets picocli's suggestion.
    assertThat(run(dir, Map.of(), List.of("buidl")).err()).contains("Did you mean: transforms build?");
  }

  private record Run(int exitCode, String out, String err) {}

  private static Run run(Path dir, Map<String, String> environment, List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = TransformsCli.execute(new TransformsCli(environment, dir), new PrintWriter(out, true),
        new PrintWriter(err, true), args.toArray(String[]::new));
    return new Run(code, out.toString(), err.toString());
  }

  /**
   * Every file and folder below {@code root}, by relative path, with its size (-1 for a folder). Left
   * out: SQLite's shared-memory index ({@code -shm}) and an empty write-ahead log ({@code -wal}), which
   * a read-only connection to a database in WAL mode creates and cannot remove; they hold no data.
   */
  private static Map<String, Long> files(Path root) throws IOException {
    Map<String, Long> files = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(root)) {
      paths.filter(p -> !p.equals(root)).filter(p -> !isEmptySqliteSideFile(p))
          .filter(p -> !p.getFileName().toString().equals(dev.transforms.cli.report.LastBuilds.FILE_NAME))
          .filter(p -> !p.getFileName().toString().equals(dev.transforms.cli.report.LastBuilds.LOCK_NAME)).forEach(p -> {
        try {
          files.put(root.relativize(p).toString(), Files.isDirectory(p) ? -1 : Files.size(p));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
    return files;
  }

  private static boolean isEmptySqliteSideFile(Path p) {
    try {
      return p.toString().endsWith(".db-shm") || (p.toString().endsWith(".db-wal") && Files.size(p) == 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Makes the catalog database read-only: without write permission, and opened read-only by the driver
   * (root may write whatever the permission says).
   */
  private static void makeCatalogReadOnly(Path dir) throws IOException {
    Path database = dir.resolve("warehouse/catalog.db");
    Files.setPosixFilePermissions(database, PosixFilePermissions.fromString("r--r--r--"));
    Files.writeString(dir.resolve("transforms.properties"), String.join("\n",
        "catalog.local.type=jdbc",
        "catalog.local.uri=jdbc:sqlite:" + database,
        "catalog.local.warehouse=" + dir.resolve("warehouse").toUri(),
        "catalog.local.jdbc.schema-version=V1",
        "catalog.local.jdbc.open_mode=1"));
  }

  /** Deletes the metadata file the catalog points to for /cli/in. */
  private static void deleteInputMetadata(Path dir) throws IOException {
    try (Stream<Path> metadata = Files.list(dir.resolve("warehouse/cli/in/metadata"))) {
      Path current = metadata.filter(p -> p.toString().endsWith(".metadata.json")).max(Comparator.naturalOrder())
          .orElseThrow();
      Files.delete(current);
    }
  }
}
