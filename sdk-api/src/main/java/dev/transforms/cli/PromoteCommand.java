package dev.transforms.cli;

import dev.transforms.Transforms;
import dev.transforms.cli.report.LastBuilds;
import dev.transforms.runtime.TransformsConfig;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code transforms promote NAME}: every output built on branch {@code NAME} gets its {@code main}
 * fast-forwarded to the branch, with the state the branch's builds stored; refused, naming the tables,
 * where {@code main} moved since the branch was cut, and refused as a usage error, naming the branches
 * there are, when no output has the branch. See {@code docs/branches.md}.
 */
@Command(name = "promote", description = "Makes what was built on a branch main's: fast-forwards main of every "
    + "output built on it, or promotes nothing where main moved since the branch was cut.",
    footer = {"", "Examples:",
        "  transforms build --branch new-totals",
        "  transforms promote new-totals"})
final class PromoteCommand implements Callable<Integer> {
  @ParentCommand TransformsCli parent;

  @Spec CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "BRANCH", description = "The branch to promote, as given to build --branch.")
  String branch;

  @Override
  public Integer call() {
    BranchCommand.checkName(spec, branch);
    TransformsConfig config = parent.loadConfig();
    PrintWriter out = parent.out();
    try (Transforms transforms = Transforms.open(config)) {
      List<String> promoted = transforms.promote(parent.selection(), branch);
      if (promoted.isEmpty()) {
        throw BranchCommand.noSuchBranch(spec, transforms, parent.selection(), branch, "nothing was promoted");
      }
      LastBuilds.endBranch(config.warehouse(), branch, parent.selection().transforms(), true);
      out.printf("Promoted branch %s: main of %s now holds what was built on it%n", branch,
          String.join(", ", promoted));
    }
    out.flush();
    return ExitCodes.OK;
  }
}
