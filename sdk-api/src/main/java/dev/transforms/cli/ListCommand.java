package dev.transforms.cli;

import dev.transforms.runtime.Counts;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code transforms list}: the transforms found, with their inputs and outputs. */
@Command(name = "list", description = "Lists the transforms on the classpath, with their inputs, outputs and checks.",
    footer = {"", "Examples:",
        "  transforms list",
        "  transforms list --class com.example.shop.CleanOrders"})
final class ListCommand implements Callable<Integer> {
  @ParentCommand TransformsCli parent;

  @Override
  public Integer call() {
    if (parent.config != null) {
      // list needs no catalog, but a --config that cannot be read is the user's mistake all the same.
      parent.loadConfig();
    }
    List<TransformSpec> specs = parent.transforms();
    PrintWriter out = parent.out();
    for (TransformSpec spec : specs) {
      out.printf("%s [%s]%s%s%n", spec.name(), spec.engine(), spec.incremental().isPresent() ? " incremental" : "",
          spec.description().isEmpty() ? "" : " - " + spec.description());
      for (ParameterSpec p : spec.inputs()) {
        out.printf("    in   %s%n", p.requirePath());
      }
      for (ParameterSpec p : spec.outputs()) {
        out.printf("    out  %s%n", p.requirePath());
        printChecks(out, p, "           ");
      }
    }
    out.printf("%s%n", Counts.of(specs.size(), "transform"));
    return ExitCodes.OK;
  }

  /** Lists the data expectations declared on an output, one a line, with their level. */
  static void printChecks(PrintWriter out, ParameterSpec output, String indent) {
    output.checks().forEach(check -> out.printf("%scheck %s [%s]%n", indent, check.name(), check.level()));
  }
}
