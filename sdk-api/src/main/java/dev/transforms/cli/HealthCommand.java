package dev.transforms.cli;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.maintenance.TableHealth;
import dev.transforms.runtime.maintenance.TableMaintenance;
import dev.transforms.runtime.secrets.CauseChain;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code transforms health PATH...}: a table's files, deletes, snapshots and metadata against the
 * maintenance guide, with the {@code transforms maintain} command for each recommendation
 * ({@link TableHealth}).
 *
 * <p>Every path is checked first (a malformed one refuses the command); then each table is shown in
 * turn, and one that does not exist or cannot be read is reported without stopping the others. The
 * exit code is that of the first table that failed ({@link ExitCodes#of}).
 */
@Command(name = "health", description = {"Shows a table's file sizes, deletes, snapshots and metadata, and which "
    + "maintenance to run.", "Every table named is shown; one that is missing or unreadable is reported and the "
        + "others still shown."},
    footer = {"", "Examples:",
        "  transforms health /Shop/raw/orders",
        "  transforms health /Shop/raw/orders /Shop/clean/orders"})
final class HealthCommand implements Callable<Integer> {

  @ParentCommand TransformsCli parent;

  @Parameters(paramLabel = "PATH", arity = "1..*", description = "Dataset paths of tables.")
  List<String> paths = new ArrayList<>();

  @Override
  public Integer call() {
    List<DatasetPath> datasets = paths.stream().map(DatasetPath::of).toList();
    TransformsConfig config = parent.loadConfig();
    PrintWriter out = parent.out();
    PrintWriter err = parent.err();
    TableResolver resolver = new TableResolver(config);
    int code = ExitCodes.OK;
    try (TableMaintenance maintenance = TableMaintenance.open(config, null)) {
      for (DatasetPath path : datasets) {
        TableHealth health;
        try {
          health = TableHealth.of(path.toString(), maintenance.load(path));
        } catch (RuntimeException e) {
          out.flush();
          err.print(CauseChain.of(e, config.masker()).format("error: ", "  "));
          err.flush();
          code = code == ExitCodes.OK ? ExitCodes.of(e) : code;
          continue;
        }
        out.printf("%s (%s)%n", path, resolver.resolve(path).sparkIdentifier());
        health.lines().forEach(line -> out.println("  " + line));
        out.flush();
      }
    }
    out.flush();
    return code;
  }
}
