package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.transforms.cli.ExitCodes;
import dev.transforms.cli.TransformsCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * What a new user tries first: {@code --help} and {@code -h} on every command (those other modules add
 * included), {@code help COMMAND}, {@code --version}, the global options after the command, and shell
 * completion.
 */
class CommandLineHelpTest {

  @TempDir Path dir;

  /** Every command of the real command line, by name, as {@code transforms} runs it. */
  static Stream<String> commands() {
    CommandLine root = TransformsCli.commandLine(new TransformsCli(Map.of(), Path.of(".")));
    return root.getSubcommands().keySet().stream();
  }

  @Test
  void theCommandLineHasEveryCommandAUserLooksFor() {
    assertThat(commands()).contains("list", "plan", "build", "show", "load", "maintain", "health", "graph", "completion",
        "help");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void everyCommandAnswersHelpWithItsUsageExamplesAndExitCodes(String command) {
    for (List<String> args : List.of(List.of(command, "--help"), List.of(command, "-h"), List.of("help", command))) {
      Run run = run(args.toArray(String[]::new));
      assertThat(run.code()).as(args + "\n" + run.err()).isZero();
      assertThat(run.err()).as(String.join(" ", args)).isEmpty();
      assertThat(run.out()).as(String.join(" ", args)).startsWith("Usage: transforms " + command)
          .contains("-h, --help", "Exit codes:", "  0   Done.", "  1   The work failed", "  2   Refused before anything",
              "Examples:", "  transforms " + command);
    }
  }

  @Test
  void helpOnACommandWithARequiredArgumentDoesNotAskForIt() {
    for (String command : List.of("show", "health")) {
      Run run = run(command, "--help");
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(run.out()).contains("PATH").doesNotContain("Missing required parameter");
    }
  }

  @Test
  void theTopLevelHelpListsTheCommandsAndSaysWhereGlobalOptionsGo() {
    Run run = run("--help");
    assertThat(run.code()).isZero();
    assertThat(run.out()).contains("Commands:", "  load ", "  maintain ", "  graph ", "  completion ",
        "The global options (--config, --warehouse, --class, --verbose) go before", "-V, --version");
  }

  @Test
  void everyExampleFitsOnOneLineOfTheHelp() {
    CommandLine root = TransformsCli.commandLine(new TransformsCli(Map.of(), Path.of(".")));
    List<CommandLine> all = new ArrayList<>(List.of(root));
    all.addAll(root.getSubcommands().values());
    for (CommandLine command : all) {
      for (String line : command.getCommandSpec().usageMessage().footer()) {
        assertThat(line.length()).as(command.getCommandName() + ": " + line)
            .isLessThanOrEqualTo(command.getCommandSpec().usageMessage().width());
      }
    }
  }

  /**
   * The line {@code --version} prints for Spark is the one this build runs the examples on: Spark 3.5.x
   * with Scala 2.12 by default, 4.1.x with Scala 2.13 under {@code -P spark-4.1}. The build states the
   * versions it put on the classpath (Surefire's {@code transforms.expected.*} properties); the command
   * reads them from the jars, so a jar of the other line on the classpath fails this test.
   */
  @Test
  void versionNamesTheSdkIcebergAndSpark() {
    String spark = expected("transforms.expected.spark");
    String scala = expected("transforms.expected.scala");
    String iceberg = expected("transforms.expected.iceberg");
    Run run = run("--version");
    assertThat(run.code()).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).matches("transforms (\\d+\\.\\d+\\.\\d+.*|unknown .*)");
    assertThat(lines.get(1)).isEqualTo("Iceberg " + iceberg);
    assertThat(lines.get(2)).isEqualTo("Spark " + spark + " (Scala " + scala + ")");
    assertThat(lines.get(3)).startsWith("Java 17");
    assertThat(run("-V").out()).isEqualTo(run.out());
  }

  private static String expected(String property) {
    String value = System.getProperty(property);
    assertThat(value).as("system property %s, which the examples' Surefire configuration sets", property)
        .isNotBlank().doesNotContain("${");
    return value;
  }

  @Test
  void globalOptionsWorkBeforeAndAfterTheCommand() throws IOException {
    Files.writeString(dir.resolve("team.properties"), "mount./Examples=local:elsewhere\n");
    Run before = run("--config", "team.properties", "plan", "SparkRowEdits.editRowsSpark");
    Run after = run("plan", "SparkRowEdits.editRowsSpark", "--config", "team.properties");
    assertThat(before.code()).as(before.err()).isZero();
    assertThat(after.code()).as(after.err()).isZero();
    assertThat(after.out()).isEqualTo(before.out()).contains("`local`.`elsewhere`.`iceberg`.`edited-spark`");

    Run warehouse = run("show", "/Examples/iceberg/edited-spark", "--warehouse", "other");
    assertThat(warehouse.err()).contains("catalog 'local' has no database yet (" + dir.resolve("other/catalog.db"));

    Run verbose = run("show", "/Examples/nothing/here", "--verbose");
    assertThat(verbose.code()).isEqualTo(ExitCodes.REFUSED);
    assertThat(verbose.err()).contains("No table at /Examples/nothing/here", "\tat ");
    assertThat(run("show", "/Examples/nothing/here").err()).doesNotContain("\tat ");

    Run classAfter = run("list", "--class", "no.such.Type");
    assertThat(classAfter.err()).contains("Transform class no.such.Type is not on the classpath");
  }

  @Test
  void completionCoversEveryCommandAndOptionAndCompletesInBash() throws Exception {
    Run run = run("completion");
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).contains("complete -F _complete_transforms", "bashcompinit")
        .contains("--schema-file", "--older-than", "--allow-deleting-files-of-running-writes", "--plan-only");
    commands().forEach(command -> assertThat(run.out()).contains(command));

    assumeTrue(Files.isExecutable(Path.of("/bin/bash")) || Files.isExecutable(Path.of("/usr/bin/bash")), "bash");
    Path script = dir.resolve("transforms-completion");
    Files.writeString(script, run.out());
    assertThat(complete(script, "transforms", "bui")).isEqualTo("build");
    assertThat(complete(script, "transforms", "maintain", "--older")).isEqualTo("--older-than");
    assertThat(complete(script, "transforms", "load", "--schema-f")).isEqualTo("--schema-file");
  }

  /** What bash completes the last word to, with the script sourced. */
  private String complete(Path script, String... words) throws Exception {
    String line = String.join(" ", words);
    String program = "source '" + script + "' 2>/dev/null; COMP_WORDS=(" + line + "); COMP_CWORD=" + (words.length - 1)
        + "; COMP_LINE='" + line + "'; COMP_POINT=${#COMP_LINE}; _complete_transforms 2>/dev/null; "
        + "echo \"${COMPREPLY[*]}\"";
    Process process = new ProcessBuilder("bash", "-c", program).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes()).strip();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  private record Run(int code, String out, String err) {}

  private Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = TransformsCli.execute(new TransformsCli(Map.of(), dir), new PrintWriter(out, true),
        new PrintWriter(err, true), new ArrayList<>(List.of(args)).toArray(String[]::new));
    return new Run(code, out.toString(), err.toString());
  }
}
