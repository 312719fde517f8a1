package dev.transforms.cli;

import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.build.BuildOptions;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.publish.BuildBranch;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code transforms plan}: the build order, what a build would run or skip, and where each path resolves. */
@Command(name = "plan", description = "Shows the order a build runs transforms in, which ones it would run or "
    + "skip as up to date, and where each path resolves.",
    footer = {"", "Examples:",
        "  transforms plan",
        "  transforms plan CleanOrders.cleanOrders",
        "  transforms plan --config team.properties",
        "  transforms plan --branch new-totals"})
final class PlanCommand implements Callable<Integer> {
  @ParentCommand TransformsCli parent;

  @Parameters(paramLabel = "TRANSFORM", arity = "0..*", description = "Plan only these transforms and their upstream.")
  List<String> names = new ArrayList<>();

  @Option(names = "--branch", paramLabel = "NAME", description = "Plan a build on branch NAME: each output as "
      + "its branch NAME holds it (main where it is not cut yet), each input at NAME or along branch.fallbacks.")
  String branch;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (branch != null) {
      BranchCommand.checkName(spec, branch);
    }
    TransformsConfig config = parent.loadConfig();
    BuildPlan plan = parent.plan(names);
    TableResolver resolver = new TableResolver(config);
    PrintWriter out = parent.out();
    int position = 1;
    BuildBranch planned = BuildOptions.NONE.withBranch(branch, config.values()).branch();
    if (!planned.isMain()) {
      out.printf("On branch %s (inputs it lacks read at %s)%n", planned.name(), String.join(", then ",
          planned.fallbacks()));
    }
    try (PlanState state = new PlanState(config, planned)) {
      Map<String, String> decisions = state.decisions(plan);
      for (TransformSpec spec : plan.transforms()) {
        out.printf("%d. %s [%s]%s%n", position++, spec.name(), spec.engine(),
            plan.upstreamOf(spec.name()).isEmpty() ? "" : " after " + String.join(", ", plan.upstreamOf(spec.name())));
        out.printf("     %s%n", decisions.get(spec.name()));
        for (ParameterSpec p : spec.inputs()) {
          out.printf("     in   %s -> %s%n", p.requirePath(), resolver.resolve(p.requirePath()).sparkIdentifier());
        }
        for (ParameterSpec p : spec.outputs()) {
          out.printf("     out  %s -> %s%n", p.requirePath(), resolver.resolve(p.requirePath()).sparkIdentifier());
          ListCommand.printChecks(out, p, "            ");
          if (p.kind().orElse(null) == dev.transforms.runtime.spi.DatasetKind.TABLE) {
            state.shape(spec, p).forEach(line -> out.printf("            %s%n", line));
          }
        }
      }
    }
    printLevels(out, plan, config.buildThreads());
    return ExitCodes.OK;
  }

  /** What can run at once, level by level, and the chain no number of threads shortens. */
  private static void printLevels(PrintWriter out, BuildPlan plan, int threads) {
    List<List<String>> levels = plan.levels();
    if (levels.isEmpty()) {
      return;
    }
    out.printf("%nLevels (the transforms of a level can run at once, up to %d at a time, build.threads):%n",
        threads);
    for (int i = 0; i < levels.size(); i++) {
      out.printf("  %d. %s%n", i + 1, String.join(", ", levels.get(i)));
    }
    List<String> critical = plan.criticalPath();
    out.printf("Critical path (%d transform%s): %s%n", critical.size(), critical.size() == 1 ? "" : "s",
        String.join(" -> ", critical));
  }
}
