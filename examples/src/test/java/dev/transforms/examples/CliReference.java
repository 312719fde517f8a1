package dev.transforms.examples;

import dev.transforms.cli.ExitCodes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The reference part of {@code docs/cli.md}, written from the picocli model of the command line: the
 * global options, the exit codes ({@link ExitCodes#KINDS}), and for every command its synopsis,
 * description, arguments and options with their defaults, notes and examples. {@link CliReferenceTest}
 * compares it with the page.
 */
final class CliReference {

  /** The line before the generated part of the page. */
  static final String BEGIN = "<!-- Generated from the command line's picocli model by CliReferenceTest: edit the "
      + "@Command and @Option annotations, not this part. -->";
  /** The line after it. */
  static final String END = "<!-- End of the generated reference. -->";

  private CliReference() {}

  /** The reference of a command line, in Markdown, without the {@link #BEGIN} and {@link #END} lines. */
  static String markdown(CommandLine root) {
    StringBuilder page = new StringBuilder();
    CommandSpec top = root.getCommandSpec();
    page.append("## Global options\n\n");
    page.append("They go before or after the command: `transforms --config team.properties plan` and "
        + "`transforms plan --config team.properties` are the same. Each goes on one side only, once (`--class` "
        + "may be repeated there): `transforms --config a.properties plan --config b.properties` is refused, as "
        + "is any option given twice. Every command also takes `-h`, `--help`.\n\n");
    page.append("| option | what it does |\n|---|---|\n");
    for (OptionSpec option : top.options()) {
      page.append("| ").append(names(option)).append(" | ").append(description(option)).append(" |\n");
    }
    page.append("\n## Exit codes\n\n");
    page.append("The same for every command. A command that handles several tables and goes on after one fails "
        + "(`health`, `maintain`) exits with the code of the first failure if nothing was changed, and 1 if some "
        + "tables were changed and others not.\n\n");
    page.append("| code | what happened | for example |\n|---|---|---|\n");
    for (ExitCodes.Kind kind : ExitCodes.KINDS) {
      page.append("| ").append(kind.code()).append(" | ").append(cell(kind.kind())).append(" | ")
          .append(cell(kind.example())).append(" |\n");
    }
    for (CommandLine sub : root.getSubcommands().values()) {
      if (sub.getParent() != root || sub.getCommandSpec().usageMessage().hidden()) {
        continue;
      }
      command(page, sub.getCommandSpec());
    }
    return page.toString();
  }

  private static void command(StringBuilder page, CommandSpec spec) {
    page.append("\n## `").append(spec.qualifiedName()).append("`\n\n");
    for (String line : spec.usageMessage().description()) {
      page.append(line).append("\n\n");
    }
    CommandLine.Help help = new CommandLine.Help(spec, CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
    page.append("```text\n").append(help.abbreviatedSynopsis().strip()).append("\n```\n\n");
    List<String> rows = new ArrayList<>();
    for (PositionalParamSpec parameter : spec.positionalParameters()) {
      if (!parameter.hidden()) {
        rows.add("| `" + escape(parameter.paramLabel()) + "` | " + description(parameter) + " |");
      }
    }
    for (OptionSpec option : spec.options()) {
      if (!option.inherited() && !option.usageHelp() && !option.versionHelp() && !option.hidden()) {
        rows.add("| " + names(option) + " | " + description(option) + " |");
      }
    }
    if (!rows.isEmpty()) {
      page.append("| argument or option | what it does |\n|---|---|\n");
      rows.forEach(row -> page.append(row).append('\n'));
      page.append('\n');
    }
    List<String> footer = new ArrayList<>(Arrays.asList(spec.usageMessage().footer()));
    int examples = footer.indexOf("Examples:");
    List<String> notes = examples < 0 ? footer : footer.subList(0, examples);
    // A note may run over several footer lines, to fit the help's width: one paragraph here.
    String paragraph = "";
    for (String note : notes) {
      if (!note.isBlank()) {
        paragraph = paragraph.isEmpty() ? note.strip() : paragraph + " " + note.strip();
      } else if (!paragraph.isEmpty()) {
        page.append(paragraph).append("\n\n");
        paragraph = "";
      }
    }
    if (!paragraph.isEmpty()) {
      page.append(paragraph).append("\n\n");
    }
    if (examples >= 0) {
      page.append("```bash\n");
      for (String example : footer.subList(examples + 1, footer.size())) {
        if (!example.isBlank()) {
          page.append(example.strip()).append('\n');
        }
      }
      page.append("```\n");
    }
  }

  private static String names(OptionSpec option) {
    List<String> names = new ArrayList<>();
    for (String name : option.names()) {
      names.add("`" + name + (option.typeInfo().isBoolean() && option.arity().max() == 0 ? ""
          : " " + escape(option.paramLabel())) + "`");
    }
    return String.join(", ", names);
  }

  private static String description(ArgSpec arg) {
    String text = String.join(" ", arg.description());
    String defaultValue = arg.defaultValueString();
    text = text.replace("${DEFAULT-VALUE}", defaultValue == null ? "" : defaultValue);
    return cell(text);
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }

  private static String escape(String text) {
    return text.replace("|", "\\|");
  }
}
