package dev.transforms.cli;

import dev.transforms.Transforms;
import dev.transforms.cli.report.LastBuilds;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.build.BuildOptions;
import dev.transforms.runtime.internal.config.BranchNames;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code transforms branch list} and {@code transforms branch drop NAME}: the branches built on the
 * outputs of the transforms, and their removal with the snapshots and files only they hold.
 */
@Command(name = "branch", description = "Lists the branches built on the outputs, or drops one.",
    subcommands = {BranchCommand.ListBranches.class, BranchCommand.Drop.class},
    footer = {"", "Examples:",
        "  transforms branch list",
        "  transforms branch drop new-totals"})
final class BranchCommand implements Callable<Integer> {
  @ParentCommand TransformsCli parent;

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Name a branch command: list or drop BRANCH");
  }

  /** Refuses, as a usage error naming the argument, a branch name no build can use. */
  static void checkName(CommandLine.Model.CommandSpec spec, String branch) {
    try {
      BranchNames.check(branch);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /**
   * The usage error of a branch no output has (a typo, most likely): names it and the branches there are.
   */
  static CommandLine.ParameterException noSuchBranch(CommandLine.Model.CommandSpec spec, Transforms transforms,
      Transforms.Selection selection, String branch, String outcome) {
    Map<String, List<String>> branches = transforms.branches(selection);
    return new CommandLine.ParameterException(spec.commandLine(), "No output has branch '" + branch + "'; "
        + outcome + ". " + (branches.isEmpty() ? "No branch is built on the outputs"
        : "The branches built on the outputs: " + String.join(", ", branches.keySet())));
  }

  /** {@code transforms branch list}. */
  @Command(name = "list", description = "Lists each branch built on the outputs, with the outputs that have it.",
      footer = {"", "Examples:", "  transforms branch list"})
  static final class ListBranches implements Callable<Integer> {
    @ParentCommand BranchCommand branch;

    @Override
    public Integer call() {
      TransformsCli cli = branch.parent;
      PrintWriter out = cli.out();
      try (Transforms transforms = Transforms.open(cli.loadConfig())) {
        Map<String, List<String>> branches = transforms.branches(cli.selection());
        if (branches.isEmpty()) {
          out.println("No branch is built on the outputs");
        }
        branches.forEach((name, outputs) -> out.printf("%s  %s%n", name, String.join(", ", outputs)));
      }
      out.flush();
      return ExitCodes.OK;
    }
  }

  /** {@code transforms branch drop NAME}. */
  @Command(name = "drop", description = "Drops a branch from every output, with the snapshots and files only it "
      + "holds; main is untouched.", footer = {"", "Examples:", "  transforms branch drop new-totals"})
  static final class Drop implements Callable<Integer> {
    @ParentCommand BranchCommand branch;

    @Spec CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "BRANCH", description = "The branch to drop.")
    String name;

    @Override
    public Integer call() {
      checkName(spec, name);
      TransformsCli cli = branch.parent;
      PrintWriter out = cli.out();
      TransformsConfig config = cli.loadConfig();
      try (Transforms transforms = Transforms.open(config)) {
        List<String> dropped = transforms.dropBranch(cli.selection(), name);
        if (dropped.isEmpty()) {
          throw noSuchBranch(spec, transforms, cli.selection(), name, "nothing was dropped");
        }
        LastBuilds.endBranch(config.warehouse(), name, cli.selection().transforms(), false);
        out.println("Dropped branch " + name + " from " + String.join(", ", dropped));
      }
      out.flush();
      return ExitCodes.OK;
    }
  }
}
