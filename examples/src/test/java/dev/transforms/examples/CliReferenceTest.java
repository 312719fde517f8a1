package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.cli.TransformsCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code docs/cli.md} holds every command, option and exit code of the command line: its reference part is
 * what {@link CliReference} writes from the picocli model, so a new command or option cannot be left out.
 * Run with {@code -Dtransforms.update-docs=true} to rewrite that part after changing the command line.
 */
class CliReferenceTest {

  private static final Path PAGE = DocSnippets.REPO.resolve("docs/cli.md");

  @Test
  void theReferencePageIsWhatTheCommandLineSays() throws IOException {
    CommandLine commandLine = TransformsCli.commandLine(new TransformsCli(Map.of(), Path.of(".")));
    String generated = CliReference.markdown(commandLine);
    String page = Files.readString(PAGE);
    int begin = page.indexOf(CliReference.BEGIN);
    int end = page.indexOf(CliReference.END);
    assertThat(begin).as("docs/cli.md has the line: " + CliReference.BEGIN).isNotNegative();
    assertThat(end).as("docs/cli.md has the line: " + CliReference.END).isGreaterThan(begin);
    String current = page.substring(begin + CliReference.BEGIN.length() + 1, end);
    if (Boolean.getBoolean("transforms.update-docs") && !current.equals(generated + "\n")) {
      Files.writeString(PAGE, page.substring(0, begin + CliReference.BEGIN.length() + 1) + generated + "\n"
          + page.substring(end));
      current = generated + "\n";
    }
    assertThat(current).as("the reference part of docs/cli.md; rewrite it with mvn -pl examples -am verify "
        + "-Dtest=CliReferenceTest -Dsurefire.failIfNoSpecifiedTests=false -Dtransforms.update-docs=true")
        .isEqualTo(generated + "\n");
  }

  @Test
  void theReferenceNamesEveryCommandOptionAndExitCode() {
    CommandLine commandLine = TransformsCli.commandLine(new TransformsCli(Map.of(), Path.of(".")));
    String generated = CliReference.markdown(commandLine);
    commandLine.getSubcommands().forEach((name, sub) -> {
      assertThat(generated).contains("## `transforms " + name + "`");
      sub.getCommandSpec().options().stream().filter(o -> !o.inherited() && !o.usageHelp())
          .forEach(o -> assertThat(generated).as(name + " " + o.longestName()).contains("`" + o.longestName()));
    });
    assertThat(generated).contains("| `--config FILE` |", "| `--verbose` |", "| 0 |", "| 1 |", "| 2 |");
  }
}
