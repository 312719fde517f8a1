package dev.transforms.cli;

import picocli.CommandLine;

/**
 * The rule that a global option ({@code --config}, {@code --warehouse}, {@code --class}, {@code --verbose})
 * goes on one side of the command, before it or after it, and is given once.
 */
final class GlobalOptionSides {

  private GlobalOptionSides() {}

  /**
   * Refuses a global option given both before the command and after it ({@code --config a.properties plan
   * --config b.properties}): picocli keeps the last one and drops the other without a word, while the
   * same option twice on one side is refused. {@code --class}, which may be repeated, is given on one side.
   */
  static void check(CommandLine.ParseResult root) {
    for (CommandLine.Model.OptionSpec option : root.commandSpec().options()) {
      if (option.scopeType() != CommandLine.ScopeType.INHERIT) {
        continue;
      }
      CommandLine.ParseResult before = root;
      for (CommandLine.ParseResult after = root.subcommand(); after != null; after = after.subcommand()) {
        CommandLine.Model.OptionSpec first = before.matchedOption(option.longestName());
        CommandLine.Model.OptionSpec second = after.matchedOption(option.longestName());
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
  private static String givenOnBothSides(CommandLine.Model.OptionSpec option, CommandLine.Model.OptionSpec before,
      CommandLine.Model.OptionSpec after) {
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
}
