package dev.transforms.cli;

import dev.transforms.api.DatasetNotFoundException;
import dev.transforms.api.TransformsException;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.build.CauseChain;
import dev.transforms.runtime.internal.build.Counts;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.catalog.SecretMasker;
import dev.transforms.runtime.internal.catalog.SharedStorageCheck;
import dev.transforms.runtime.internal.catalog.TableResolver;
import dev.transforms.runtime.internal.discovery.TransformIndex;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import dev.transforms.runtime.internal.logging.QuietLogging;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.publish.BuildLease;
import dev.transforms.runtime.internal.publish.StagingMarks;
import dev.transforms.runtime.internal.spec.ParameterSpec;
import dev.transforms.runtime.internal.spec.TransformSpec;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.exceptions.NoSuchTableException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code transforms} command line: list, plan and build the transforms on the classpath, show
 * tables, load files into tables ({@link LoadCommand}), look after them ({@link MaintainCommand},
 * {@link HealthCommand}), and the commands other modules add ({@link CommandExtension}).
 *
 * <p>Every command answers {@code --help} and {@code -h} with its usage, examples and exit codes. The
 * global options ({@code --config}, {@code --warehouse}, {@code --class}, {@code --verbose}) go before
 * or after the command, not both; an option given twice is refused. Exit codes are the same for every command ({@link ExitCodes}): {@value #OK}
 * done; {@value #TRANSFORM_FAILED} the work failed; {@value #BAD_USAGE} refused before anything
 * changed.
 *
 * <p>An error is printed as its message and every cause, one line each ({@link CauseChain}), secrets
 * masked; {@code --verbose} adds the stack traces. A usage error prints the message, the command's
 * synopsis and how to get its help ({@link UsageErrors}).
 */
@Command(
    name = "transforms",
    mixinStandardHelpOptions = true,
    versionProvider = VersionInfo.class,
    description = "Builds annotated Java transforms over Apache Iceberg tables.",
    footer = {"", "The global options (--config, --warehouse, --class, --verbose) go before",
        "or after the command, on one side only; every option is given once.",
        "", "Examples:",
        "  transforms list",
        "  transforms build --report build.html",
        "  transforms plan --config team.properties",
        "  transforms load /Shop/raw/orders orders.csv --schema \"id long, amount double\"",
        "  transforms help load",
        "  source <(transforms completion)"},
    subcommands = {
        TransformsCli.ListCommand.class,
        TransformsCli.PlanCommand.class,
        TransformsCli.BuildCommand.class,
        TransformsCli.ShowCommand.class,
        LoadCommand.class,
        MaintainCommand.class,
        HealthCommand.class})
public final class TransformsCli implements Callable<Integer> {

  /** Exit code: everything done. */
  public static final int OK = ExitCodes.OK;
  /** Exit code: the work failed (a transform, rows that do not fit, a table that cannot be read or written). */
  public static final int TRANSFORM_FAILED = ExitCodes.FAILED;
  /** Exit code: refused before anything changed (usage, configuration, definitions, a missing table or file). */
  public static final int BAD_USAGE = ExitCodes.REFUSED;

  // The global options are inherited: each command takes them too, so that they may follow it
  // (transforms plan --config team.properties); the value lands in these fields either way.
  @Option(names = "--config", paramLabel = "FILE", scope = CommandLine.ScopeType.INHERIT,
      description = "Configuration file (default: ./" + TransformsConfig.FILE_NAME + " if present, else the embedded catalog).")
  Path config;

  @Option(names = "--warehouse", paramLabel = "DIR", scope = CommandLine.ScopeType.INHERIT,
      description = "Local warehouse folder (default: ./warehouse).")
  Path warehouse;

  @Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT,
      description = "Print the stack trace of every error.")
  boolean verbose;

  @Option(names = "--class", paramLabel = "CLASS", split = ",", scope = CommandLine.ScopeType.INHERIT,
      description = "Transform classes to use besides those indexed at compile time (comma-separated, or repeated).")
  List<String> classes = new ArrayList<>();

  @Spec
  CommandLine.Model.CommandSpec spec;

  private final Map<String, String> environment;
  private final Path workingDirectory;

  /** Creates the command with the process's environment and working directory. */
  public TransformsCli() {
    this(System.getenv(), Path.of("").toAbsolutePath());
  }

  /**
   * Creates the command with an explicit environment, for tests and embedding.
   *
   * @param environment environment variables
   * @param workingDirectory the folder relative paths resolve against
   */
  public TransformsCli(Map<String, String> environment, Path workingDirectory) {
    this.environment = environment;
    this.workingDirectory = workingDirectory;
  }

  /**
   * Runs the command line.
   *
   * @param args the arguments
   */
  public static void main(String[] args) {
    QuietLogging.applyUnlessConfigured();
    System.exit(execute(new TransformsCli(), args));
  }

  /**
   * Runs the command line and returns its exit code instead of exiting.
   *
   * @param cli the command
   * @param args the arguments
   * @return the exit code
   */
  public static int execute(TransformsCli cli, String... args) {
    return execute(cli, new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
  }

  /**
   * Runs the command line with its output and errors sent to the given writers, and returns its exit
   * code instead of exiting.
   *
   * @param cli the command
   * @param out where results go
   * @param err where errors go
   * @param args the arguments
   * @return the exit code
   */
  public static int execute(TransformsCli cli, PrintWriter out, PrintWriter err, String... args) {
    CommandLine commandLine = commandLine(cli);
    commandLine.setOut(out);
    commandLine.setErr(err);
    return commandLine.execute(args);
  }

  /**
   * The whole command line of a command object, as {@link #execute} runs it: the built-in commands, those
   * of the {@link CommandExtension}s on the classpath, {@code completion} and {@code help}, each with
   * {@code --help}, examples and exit codes, the error handlers and the converters. The reference page
   * {@code docs/cli.md} and the completion script are generated from it.
   *
   * @param cli the command
   * @return the command line, ready to execute
   */
  public static CommandLine commandLine(TransformsCli cli) {
    CommandLine commandLine = new CommandLine(cli);
    for (CommandExtension extension : java.util.ServiceLoader.load(CommandExtension.class)) {
      commandLine.addSubcommand(extension.command());
    }
    commandLine.addSubcommand(new CompletionCommand());
    commandLine.addSubcommand(new CommandLine.HelpCommand());
    UsageErrors.standardize(commandLine);
    commandLine.setParameterExceptionHandler(new UsageErrors());
    CommandLine.IExecutionStrategy runLast = new CommandLine.RunLast();
    commandLine.setExecutionStrategy(parsed -> {
      refuseGlobalOptionsOnBothSides(parsed);
      return runLast.execute(parsed);
    });
    commandLine.setExecutionExceptionHandler((e, line, parsed) -> cli.report(e, line.getErr()));
    return commandLine;
  }

  /**
   * Refuses a global option given both before the command and after it ({@code --config a.properties plan
   * --config b.properties}): picocli keeps the last one and drops the other without a word, while the
   * same option twice on one side is refused. The one rule: an option is given once ({@code --class}, which
   * may be repeated, on one side of the command).
   */
  private static void refuseGlobalOptionsOnBothSides(CommandLine.ParseResult root) {
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

  /** Prints an error that ended a command, and returns the exit code it means. */
  private int report(Exception error, PrintWriter err) {
    if (error instanceof CommandLine.ParameterException usage) {
      return new UsageErrors().handleParseException(usage, new String[0]);
    }
    SecretMasker masker = SecretMasker.allLoaded();
    err.print(CauseChain.of(error, masker).format("error: ", "  "));
    if (verbose) {
      err.print(CauseChain.stackTrace(error, masker));
    } else if (!(error instanceof TransformsException) && !(error instanceof java.io.UncheckedIOException)) {
      err.println("  (not an error the command expected here: run it again with --verbose for the stack trace)");
    }
    err.flush();
    return ExitCodes.of(error);
  }

  /** {@code transforms} alone: says a command is missing, and prints the usage, to standard error. */
  @Override
  public Integer call() {
    err().println("error: Name a command: transforms COMMAND [OPTIONS]; the commands are below");
    spec.commandLine().usage(err());
    err().flush();
    return BAD_USAGE;
  }

  /**
   * The configuration the options and environment select.
   *
   * @return the configuration
   */
  public TransformsConfig loadConfig() {
    return TransformsConfig.load(Optional.ofNullable(config), Optional.ofNullable(warehouse), environment, workingDirectory);
  }

  /**
   * The transforms found: those indexed at compile time and the classes named with {@code --class}.
   *
   * @return the transforms
   */
  public List<TransformSpec> transforms() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    List<TransformSpec> specs = new ArrayList<>(TransformIndex.discover(loader));
    List<String> known = specs.stream().map(s -> s.method().getDeclaringClass().getName()).toList();
    specs.addAll(TransformIndex.ofClasses(loader, classNames().stream().filter(c -> !known.contains(c)).toList()));
    return specs;
  }

  /** The transforms found, as a build selects them: those indexed on the class path and the --class ones. */
  Transforms.Selection selection() {
    return Transforms.Selection.indexed(Thread.currentThread().getContextClassLoader(), classNames());
  }

  /** The --class names, each checked to be one: an empty one (--class '' or a,,b) is refused. */
  private List<String> classNames() {
    for (String name : classes) {
      if (name.isBlank()) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--class '" + String.join(",", classes)
            + "' holds an empty class name; give fully qualified names, such as com.example.shop.CleanOrders");
      }
    }
    return classes.stream().map(String::strip).toList();
  }

  /**
   * The folder relative paths resolve against.
   *
   * @return the working directory
   */
  public Path workingDirectory() {
    return workingDirectory;
  }

  /**
   * Where results go.
   *
   * @return the output writer
   */
  public PrintWriter out() {
    return spec.commandLine().getOut();
  }

  /**
   * Where warnings and errors go.
   *
   * @return the error writer
   */
  public PrintWriter err() {
    return spec.commandLine().getErr();
  }

  /**
   * The plan of every transform found, or of the named ones and their upstream: unrelated transforms
   * elsewhere on the classpath do not stop it.
   *
   * @param names the transforms to plan, or none for all
   * @return the plan
   */
  public BuildPlan plan(List<String> names) {
    return BuildPlan.of(transforms(), names);
  }

  /** {@code transforms list}: the transforms found, with their inputs and outputs. */
  @Command(name = "list", description = "Lists the transforms on the classpath, with their inputs, outputs and checks.",
      footer = {"", "Examples:",
          "  transforms list",
          "  transforms list --class com.example.shop.CleanOrders"})
  static final class ListCommand implements Callable<Integer> {
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
      return OK;
    }
  }

  /** Lists the data expectations declared on an output, one a line, with their level. */
  static void printChecks(PrintWriter out, ParameterSpec output, String indent) {
    for (dev.transforms.runtime.internal.spec.CheckSpec check : output.checks()) {
      out.printf("%scheck %s [%s]%n", indent, check.name(), check.level());
    }
  }

  /** {@code transforms plan}: the build order, what a build would run or skip, and where each path resolves. */
  @Command(name = "plan", description = "Shows the order a build runs transforms in, which ones it would run or "
      + "skip as up to date, and where each path resolves.",
      footer = {"", "Examples:",
          "  transforms plan",
          "  transforms plan CleanOrders.cleanOrders",
          "  transforms plan --config team.properties"})
  static final class PlanCommand implements Callable<Integer> {
    @ParentCommand TransformsCli parent;

    @Parameters(paramLabel = "TRANSFORM", arity = "0..*", description = "Plan only these transforms and their upstream.")
    List<String> names = new ArrayList<>();

    @Override
    public Integer call() {
      TransformsConfig config = parent.loadConfig();
      BuildPlan plan = parent.plan(names);
      TableResolver resolver = new TableResolver(config);
      PrintWriter out = parent.out();
      int position = 1;
      try (PlanState state = new PlanState(config)) {
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
            printChecks(out, p, "            ");
            if (p.kind().orElse(null) == dev.transforms.runtime.internal.spec.DatasetKind.TABLE) {
              state.shape(spec, p).forEach(line -> out.printf("            %s%n", line));
            }
          }
        }
      }
      printLevels(out, plan, config.buildThreads());
      return OK;
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

  /** {@code transforms build}: runs transforms in dependency order and prints the report. */
  @Command(name = "build", description = "Builds transforms (all, or the named ones with their upstream).",
      footer = {"", "Examples:",
          "  transforms build",
          "  transforms build CleanOrders.cleanOrders --report build.html",
          "  transforms build --config team.properties --verbose"})
  static final class BuildCommand implements Callable<Integer> {
    @ParentCommand TransformsCli parent;

    @Spec CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "TRANSFORM", arity = "0..*", description = "Build only these transforms and their upstream.")
    List<String> names = new ArrayList<>();

    @Option(names = "--report", paramLabel = "FILE.html",
        description = "Also write the build as a self-contained HTML page: timeline, rows, reasons, failures.")
    Path reportFile;

    @Option(names = "--full", description = "Build the named transforms (all, when none is named) in full, whatever "
        + "their incremental state: after a change an incremental build cannot make.")
    boolean full;

    @Option(names = "--force", description = "Run the named transforms (all, when none is named) even when they are "
        + "up to date: after a change the SDK cannot see, such as a library upgrade.")
    boolean force;

    @Option(names = "--threads", paramLabel = "N", description = "Run at most N transforms at once, each as soon as "
        + "its upstream has published (default: build.threads, or the machine's cores, at most 8). 1 runs them one "
        + "by one, in plan order.", converter = ThreadCount.class)
    Integer threads;

    @Option(names = "--fail-fast", description = "After the first failure, start no other transform; those running "
        + "finish and publish or discard as usual.")
    boolean failFast;

    @Override
    public Integer call() {
      TransformsConfig config = parent.loadConfig();
      PrintWriter out = parent.out();
      Optional<Path> reportPath = Optional.ofNullable(reportFile).map(f -> parent.workingDirectory().resolve(f));
      reportPath.ifPresent(f -> dev.transforms.cli.report.OutputFiles.checkWritable(spec.commandLine(), "--report", f));
      Map<String, Instant> startedAt = new java.util.HashMap<>();
      List<dev.transforms.cli.report.TimedResult> timed = new ArrayList<>();
      SharedStorageCheck.warnings(config, SharedStorageCheck.sparkMaster(config))
          .forEach(warning -> parent.spec.commandLine().getErr().println("warning: " + warning));
      BuildReport report;
      try (StopOnSignal stop = StopOnSignal.install()) {
        try (Transforms transforms = Transforms.open(config)) {
          Transforms.Selection selection = parent.selection().only(names).cancellation(stop.cancellation());
          selection = full ? selection.full() : selection;
          selection = force ? selection.force() : selection;
          selection = threads != null ? selection.threads(threads) : selection;
          selection = failFast ? selection.failFast() : selection;
          report = transforms.build(selection.listener(new BuildListener() {
            @Override
            public void planned(List<String> transforms) {
              out.printf("Building %s with catalogs %s (warehouse %s)%n", Counts.of(transforms.size(), "transform"),
                  config.catalogs().keySet(), config.warehouse());
              out.flush();
            }

            @Override
            public void started(String transform, int position, int total) {
              startedAt.put(transform, Instant.now());
              out.printf("[%d/%d] %s ...%n", position, total, transform);
              out.flush();
            }

            @Override
            public void finished(TransformResult result, int position, int total) {
              Instant finished = Instant.now();
              timed.add(new dev.transforms.cli.report.TimedResult(result,
                  startedAt.getOrDefault(result.transform(), finished.minus(result.duration())), finished));
              String why = result.error().map(e -> CauseChain.of(e, config.masker()).summary())
                  .orElse(result.reason());
              out.printf("[%d/%d] %s %s%s%n", position, total, result.transform(), result.status(),
                  why.isEmpty() ? "" : " (" + why + ")");
              out.flush();
            }
          }));
        }
        out.print(report.format());
        out.flush();
        BuildPages.write(config, report, timed, reportPath, out, parent.err());
        if (parent.verbose) {
          for (TransformResult result : report.results()) {
            result.error().ifPresent(e -> out.printf("Stack trace of %s:%n%s", result.transform(),
                CauseChain.stackTrace(e, config.masker())));
          }
          out.flush();
        }
      }
      return report.succeeded() ? OK : TRANSFORM_FAILED;
    }
  }

  /** {@code transforms show PATH}: a table's schema, partition spec, properties and snapshots. */
  @Command(name = "show", description = "Shows a table's schema, partition spec, properties, snapshots, branches, "
      + "build state and checks.",
      footer = {"", "Examples:",
          "  transforms show /Shop/raw/orders",
          "  transforms show /Shop/clean/orders --config team.properties"})
  static final class ShowCommand implements Callable<Integer> {
    @ParentCommand TransformsCli parent;

    @Parameters(paramLabel = "PATH", description = "A dataset path, such as /Examples/iceberg/row-updates.")
    String path;

    @Override
    public Integer call() {
      TransformsConfig config = parent.loadConfig();
      DatasetPath datasetPath = DatasetPath.of(path);
      ResolvedTable resolved = new TableResolver(config).resolve(datasetPath);
      PrintWriter out = parent.out();
      try (Catalogs catalogs = new Catalogs(config)) {
        // Only an existing catalog: showing must not create a warehouse or a catalog database.
        Optional<Catalog> catalog = catalogs.existingCatalog(resolved.catalog());
        if (catalog.isEmpty()) {
          throw noTable(datasetPath, resolved, ": catalog '" + resolved.catalog() + "' has no database yet"
              + catalogs.sqliteDatabase(resolved.catalog()).map(db -> " (" + db + ")").orElse("") + "; build first");
        }
        Table table;
        try {
          table = catalog.get().loadTable(resolved.identifier());
        } catch (NoSuchTableException e) {
          throw noTable(datasetPath, resolved, "");
        } catch (RuntimeException e) {
          throw new TransformsException("Cannot read table " + datasetPath + " (" + resolved.sparkIdentifier()
              + ") of catalog '" + resolved.catalog() + "'", e);
        }
        out.printf("%s -> %s%n", datasetPath, resolved.sparkIdentifier());
        out.printf("location: %s%n", table.location());
        // One column a line: Schema.toString() wraps them in "table { ... }", whose closing brace reads as stray.
        out.println("schema:");
        table.schema().columns().forEach(column -> out.printf("  %s%n", column));
        PartitionSpec partitionSpec = table.spec();
        out.printf("partition spec: %s%n", partitionSpec.isUnpartitioned() ? "unpartitioned" : partitionSpec.fields());
        out.printf("sort order: %s%n", table.sortOrder().isUnsorted() ? "unsorted" : table.sortOrder());
        out.println("properties:");
        config.masker().maskAll(new TreeMap<>(table.properties())).forEach((k, v) -> out.printf("  %s = %s%n", k, v));
        out.printf("health: %s%n", dev.transforms.runtime.maintenance.TableHealth.of(datasetPath.toString(), table)
            .summary());
        out.println("snapshots:");
        for (Snapshot snapshot : table.snapshots()) {
          Map<String, String> summary = snapshot.summary() == null ? Map.of() : snapshot.summary();
          Map<String, String> shown = new TreeMap<>();
          summary.forEach((k, v) -> {
            if (k.startsWith("transforms.") || k.equals("added-records") || k.equals("deleted-records")
                || k.equals("total-records")) {
              shown.put(k, v);
            }
          });
          out.printf("  %d  %s  %-9s parent=%s  %s%n", snapshot.snapshotId(),
              Instant.ofEpochMilli(snapshot.timestampMillis()), snapshot.operation(), snapshot.parentId(), shown);
          Snapshot parent = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
          if (parent != null && parent.schemaId() != null && snapshot.schemaId() != null
              && !parent.schemaId().equals(snapshot.schemaId())) {
            dev.transforms.runtime.internal.schema.SchemaDiff.between(table.schemas().get(parent.schemaId()),
                table.schemas().get(snapshot.schemaId())).describe()
                .forEach(change -> out.printf("      schema: %s%n", change));
          }
        }
        out.printf("current snapshot: %s%n",
            table.currentSnapshot() == null ? "none" : table.currentSnapshot().snapshotId());
        out.println("branches and tags:");
        new TreeMap<>(table.refs()).forEach((name, ref) -> out.printf("  %-8s %s -> %d%s%n",
            ref.isBranch() ? "branch" : "tag", name, ref.snapshotId(), describeStaging(table, name)));
        out.printf("build state: %s%n", IncrementalState.fromProperties(table.properties())
            .map(state -> "transform " + state.transform() + ", build " + state.buildId() + ", semantic version "
                + state.semanticVersion() + ", inputs: " + describeInputs(state))
            .orElse("none (no build has published this table)"));
        out.println("checks of the published version:");
        Map<String, String> checks = new TreeMap<>();
        table.properties().forEach((key, value) -> {
          if (key.startsWith(dev.transforms.runtime.internal.publish.OutputPublisher.CHECKS_PREFIX)) {
            checks.put(key.substring(dev.transforms.runtime.internal.publish.OutputPublisher.CHECKS_PREFIX.length()), value);
          }
        });
        if (checks.isEmpty()) {
          out.println("  none declared");
        }
        checks.forEach((check, outcome) -> out.printf("  %s: %s%n", check, outcome));
      }
      return OK;
    }

    /** The inputs a build consumed, as {@code /path at snapshot N}, in path order. */
    private static String describeInputs(IncrementalState state) {
      if (state.inputSnapshots().isEmpty()) {
        return "none";
      }
      List<String> inputs = new ArrayList<>();
      new TreeMap<>(state.inputSnapshots()).forEach((path, snapshot) -> inputs.add(path
          + (snapshot.isPresent() ? " at snapshot " + snapshot.getAsLong() : " (no snapshot yet)")));
      return String.join(", ", inputs);
    }

    /** Says whose staging branch a branch is, and whether that build still runs. */
    private static String describeStaging(Table table, String branch) {
      return StagingMarks.buildOfBranch(branch).map(build -> {
        Optional<BuildLease> lease = StagingMarks.lease(table, build);
        return "  (staging branch of build " + build + ", " + lease.map(l -> l.alive()
            ? "running: " + l : "dead: " + l + "; the next build of this output removes it")
            .orElse("no lease: the next build of this output removes it") + ")";
      }).orElse("");
    }

    /** The error of a path that names no table, worded as health and maintain word it. */
    private static DatasetNotFoundException noTable(DatasetPath datasetPath, ResolvedTable resolved, String why) {
      return new DatasetNotFoundException("No table at " + datasetPath + " (" + resolved.sparkIdentifier() + ")" + why);
    }
  }

  /** Reads {@code --threads}: a whole number from 1 to 256, or one error saying so, whatever was given. */
  static final class ThreadCount implements CommandLine.ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      String given = value.strip();
      try {
        int threads = Integer.parseInt(given);
        if (threads >= 1 && threads <= 256) {
          return threads;
        }
      } catch (NumberFormatException e) {
        // refused below, with the same words as a number out of range
      }
      throw new CommandLine.TypeConversionException("'" + value + "' is not a whole number from 1 to 256");
    }
  }
}
