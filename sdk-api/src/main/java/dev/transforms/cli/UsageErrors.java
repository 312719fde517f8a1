package dev.transforms.cli;

import dev.transforms.runtime.secrets.SecretMasker;
import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * What every command of the command line has in common: {@code --help} and {@code -h}, examples and
 * exit codes in its help ({@link #standardize}), file arguments that may not be empty, global options on
 * one side of the command ({@link #refuseGlobalOptionsOnBothSides}), and the way a usage error is printed:
 * {@code error:} and the message, where the option belongs if another command has it, picocli's
 * suggestions, the command's synopsis, and how to get its help. Exit code {@value ExitCodes#REFUSED}.
 */
final class UsageErrors implements CommandLine.IParameterExceptionHandler {

  /** The examples of commands that other modules add and that bring none of their own. */
  private static final Map<String, List<String>> EXAMPLES = Map.of(
      "graph", List.of(
          "  transforms graph                        # pipeline-graph.html here",
          "  transforms graph --format mermaid -o lineage.mmd",
          "  transforms graph --select +Shop.cleanOrders --format dot -o -",
          "  transforms graph --plan-only"),
      "help", List.of(
          "  transforms help",
          "  transforms help load"));

  @Override
  public int handleParseException(CommandLine.ParameterException error, String[] args) {
    CommandLine line = error.getCommandLine();
    PrintWriter err = line.getErr();
    String afterDashes = error instanceof UnmatchedArgumentException unmatched ? afterDashes(line, unmatched, args)
        : null;
    err.println("error: " + SecretMasker.allLoaded().mask(afterDashes != null ? afterDashes : message(error)));
    if (error instanceof UnmatchedArgumentException unmatched && afterDashes == null) {
      List<String> hints = elsewhere(line, unmatched.getUnmatched());
      hints.forEach(err::println);
      // picocli's suggestions are the options of this command that look alike ("--verbose" for "--version"):
      // beside the option's true owner they mislead.
      if (hints.stream().noneMatch(h -> h.contains(ROOT_OWNER))) {
        UnmatchedArgumentException.printSuggestions(unmatched, err);
      }
    }
    CommandLine.Help help = line.getHelp();
    err.print(help.synopsisHeading());
    err.print(help.abbreviatedSynopsis());
    err.printf("Run '%s --help' for its options, examples and exit codes.%n", line.getCommandSpec().qualifiedName());
    err.flush();
    return ExitCodes.REFUSED;
  }

  /** The error's message; an unknown command is called that, with the commands there are. */
  private static String message(CommandLine.ParameterException error) {
    CommandLine line = error.getCommandLine();
    if (error instanceof UnmatchedArgumentException unmatched && !line.getSubcommands().isEmpty()
        && line.getParseResult() != null && !line.getParseResult().hasSubcommand()) {
      List<String> arguments = unmatched.getUnmatched();
      if (!arguments.isEmpty() && !arguments.get(0).startsWith("-")) {
        List<String> names = line.getSubcommands().values().stream().distinct()
            .filter(c -> !c.getCommandSpec().usageMessage().hidden()).map(CommandLine::getCommandName).toList();
        return "Unknown command '" + arguments.get(0) + "'; the commands are " + String.join(", ", names);
      }
    }
    if (error instanceof CommandLine.OverwrittenOptionException twice
        && twice.getOverwritten() instanceof OptionSpec option) {
      // picocli's words ("should be specified only once") for what a global option on both sides says too
      return "Option '" + option.longestName() + "' is given twice; give it once";
    }
    return String.valueOf(error.getMessage());
  }

  /** How a hint names the command line itself as the owner of an option. */
  private static final String ROOT_OWNER = "is an option of transforms itself";

  /**
   * The message of a word that picocli could not place because it follows {@code --}: after it, every word
   * is an argument, so {@code transforms -- build} has no command, and picocli calls {@code build} an
   * unknown command and suggests {@code build}. Null when no {@code --} comes before the word.
   */
  private static String afterDashes(CommandLine line, UnmatchedArgumentException error, String[] args) {
    List<String> unmatched = error.getUnmatched();
    int dashes = Arrays.asList(args).indexOf("--");
    if (unmatched.isEmpty() || dashes < 0) {
      return null;
    }
    String word = unmatched.get(0);
    if (!Arrays.asList(args).subList(dashes + 1, args.length).contains(word)) {
      return null;
    }
    String name = line.getCommandSpec().qualifiedName();
    boolean command = line.getSubcommands().containsKey(word);
    return "'" + word + "' follows '--', after which every word is taken as an argument, never as a command or an "
        + "option; " + name + (line.getCommandSpec().parent() == null ? " itself" : "") + " takes no "
        + (line.getCommandSpec().positionalParameters().isEmpty() ? "argument" : "more arguments")
        + (command ? ": leave out '--' (" + name + " " + word + ")" : ": leave out '--'");
  }

  /** For each unknown option that another command, or the command line itself, has, a line saying which. */
  private static List<String> elsewhere(CommandLine line, List<String> unmatched) {
    List<String> hints = new ArrayList<>();
    CommandSpec root = line.getCommandSpec().root();
    for (String argument : unmatched) {
      if (!argument.startsWith("-")) {
        continue;
      }
      String name = argument.contains("=") ? argument.substring(0, argument.indexOf('=')) : argument;
      OptionSpec own = root.findOption(name);
      if (line.getCommandSpec() != root && own != null && own.scopeType() != CommandLine.ScopeType.INHERIT) {
        // --version (-V): of transforms alone, before any command.
        hints.add(name + " " + ROOT_OWNER + ", given before any command: " + root.qualifiedName() + " " + name);
        continue;
      }
      List<String> owners = new ArrayList<>();
      for (CommandLine sub : root.subcommands().values()) {
        OptionSpec option = sub.getCommandSpec().findOption(name);
        if (option != null && !option.inherited() && !owners.contains(sub.getCommandSpec().qualifiedName())) {
          owners.add(sub.getCommandSpec().qualifiedName());
        }
      }
      if (!owners.isEmpty()) {
        hints.add(name + " is an option of " + String.join(", ", owners));
      }
    }
    return hints;
  }

  /**
   * Gives every command of a command line, whatever module it comes from, {@code --help} and {@code -h},
   * its exit codes, and examples in its help; and makes every {@link Path} argument refuse an empty
   * value (which would otherwise mean the current folder).
   *
   * @param root the command line, with all its commands added
   */
  static void standardize(CommandLine root) {
    standardize(root, root);
    root.registerConverter(Path.class, UsageErrors::path);
  }

  private static void standardize(CommandLine line, CommandLine root) {
    CommandSpec spec = line.getCommandSpec();
    boolean hasHelp = spec.options().stream().anyMatch(OptionSpec::usageHelp);
    if (!hasHelp) {
      spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true)
          .description("Show this help: usage, options, examples and exit codes.").build());
    }
    spec.usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCodes.usageList());
    if (spec.userObject() instanceof CommandLine.HelpCommand) {
      // picocli's own help command: a header line before its usage, which no other command has.
      spec.usageMessage().header(new String[0]).synopsisHeading("Usage: ").description("Shows the help of a command: its usage, options, "
          + "examples and exit codes (the same as COMMAND --help).");
    }
    boolean hasExamples = Arrays.stream(spec.usageMessage().footer()).anyMatch(l -> l.startsWith("Examples:"));
    List<String> examples = EXAMPLES.get(spec.name());
    if (!hasExamples && examples != null && line != root) {
      List<String> footer = new ArrayList<>(Arrays.asList(spec.usageMessage().footer()));
      footer.add("");
      footer.add("Examples:");
      footer.addAll(examples);
      spec.usageMessage().footer(footer.toArray(String[]::new));
    }
    for (CommandLine sub : line.getSubcommands().values()) {
      if (sub.getParent() == line) {
        standardize(sub, root);
      }
    }
  }

  /**
   * Refuses a global option given both before the command and after it ({@code --config a.properties plan
   * --config b.properties}): picocli keeps the last one and drops the other without a word, while the
   * same option twice on one side is refused. {@code --class}, which may be repeated, is given on one side.
   */
  static void refuseGlobalOptionsOnBothSides(CommandLine.ParseResult root) {
    for (OptionSpec option : root.commandSpec().options()) {
      if (option.scopeType() != CommandLine.ScopeType.INHERIT) {
        continue;
      }
      CommandLine.ParseResult before = root;
      for (CommandLine.ParseResult after = root.subcommand(); after != null; after = after.subcommand()) {
        OptionSpec first = before.matchedOption(option.longestName());
        OptionSpec second = after.matchedOption(option.longestName());
        if (first != null && second != null) {
          throw new CommandLine.ParameterException(after.commandSpec().commandLine(),
              givenOnBothSides(option, first, second));
        }
        if (second != null) {
          before = after;
        }
      }
    }
  }

  /** The message of a global option given before the command and after it, with the values given. */
  private static String givenOnBothSides(OptionSpec option, OptionSpec before, OptionSpec after) {
    String name = option.longestName();
    if (option.arity().max() == 0) {
      return "Option '" + name + "' is given twice, before the command and after it; give it once";
    }
    String first = String.join(" ", before.originalStringValues());
    String second = String.join(" ", after.originalStringValues());
    if (option.isMultiValue()) {
      return "Option '" + name + "' is given both before the command (" + first + ") and after it (" + second
          + "); give all its " + (name.equals("--class") ? "classes" : "values") + " on one side (" + name
          + " A,B, or " + name + " A " + name + " B)";
    }
    return "Option '" + name + "' is given twice, before the command (" + first + ") and after it (" + second
        + "); give it once";
  }

  /** Converts a file argument: empty is refused, as it would name the current folder. */
  private static Path path(String value) {
    if (value.isEmpty()) {
      throw new CommandLine.TypeConversionException("the value is empty; name a file or folder");
    }
    try {
      return Path.of(value);
    } catch (InvalidPathException e) {
      throw new CommandLine.TypeConversionException("'" + value + "' is not a valid path: " + e.getReason());
    }
  }
}
