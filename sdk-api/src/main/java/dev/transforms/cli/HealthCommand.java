package dev.transforms.cli;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.catalog.TableResolver;
import dev.transforms.runtime.maintenance.TableHealth;
import dev.transforms.runtime.maintenance.TableMaintenance;
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
 */
@Command(name = "health", description = "Shows a table's file sizes, deletes, snapshots and metadata, and which "
    + "maintenance to run.")
final class HealthCommand implements Callable<Integer> {

  @ParentCommand TransformsCli parent;

  @Parameters(paramLabel = "PATH", arity = "1..*", description = "Dataset paths of tables.")
  List<String> paths = new ArrayList<>();

  @Override
  public Integer call() {
    TransformsConfig config = parent.loadConfig();
    PrintWriter out = parent.out();
    TableResolver resolver = new TableResolver(config);
    try (Catalogs catalogs = new Catalogs(config)) {
      TableMaintenance maintenance = new TableMaintenance(catalogs, null);
      for (String text : paths) {
        DatasetPath path = DatasetPath.of(text);
        TableHealth health = TableHealth.of(path.toString(), maintenance.load(path));
        out.printf("%s (%s)%n", path, resolver.resolve(path).sparkIdentifier());
        health.lines().forEach(line -> out.println("  " + line));
      }
    }
    out.flush();
    return TransformsCli.OK;
  }
}
