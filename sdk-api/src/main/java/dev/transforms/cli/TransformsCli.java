package dev.transforms.cli;

import dev.transforms.Transforms;
import dev.transforms.api.TransformsException;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.discovery.TransformIndex;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.secrets.CauseChain;
import dev.transforms.runtime.secrets.SecretMasker;
import dev.transforms.runtime.spi.QuietLogging;
import dev.transforms.runtime.spi.TransformSpec;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code transforms} command line and its global options. Each command is a class of its own: list,
 * plan and build the transforms on the classpath ({@link ListCommand}, {@link PlanCommand},
 * {@link BuildCommand}), show, load and look after tables ({@link ShowCommand}, {@link LoadCommand},
 * {@link MaintainCommand}, {@link HealthCommand}), and the commands other modules add ({@link CommandExtension}).
 *
 * <p>Every command answers {@code --help} and {@code -h} with its usage, examples and exit codes. The
 * global options ({@code --config}, {@code --warehouse}, {@code --class}, {@code --verbose}) go before
 * or after the command, not both; an option given twice is refused. Exit codes are the same for every
 * command ({@link ExitCodes}): {@value #OK} done; {@value #TRANSFORM_FAILED} the work failed;
 * {@value #BAD_USAGE} refused before anything changed.
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
        "  source <(transforms completion)",
        "", "In a clone of the SDK, ./transforms demo (the launcher's, not a command) seeds",
        "sample inputs and builds the demo pipeline on the embedded catalog."},
    subcommands = {
        ListCommand.class,
        PlanCommand.class,
        BuildCommand.class,
        PromoteCommand.class,
        BranchCommand.class,
        ShowCommand.class,
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
      UsageErrors.refuseGlobalOptionsOnBothSides(parsed);
      return runLast.execute(parsed);
    });
    commandLine.setExecutionExceptionHandler((e, line, parsed) -> cli.report(e, line.getErr()));
    return commandLine;
  }

  /** Prints an error that ended a command, and returns the exit code it means. */
  int report(Exception error, PrintWriter err) {
    if (error instanceof CommandLine.ParameterException usage) {
      return new UsageErrors().handleParseException(usage, new String[0]);
    }
    SecretMasker masker = SecretMasker.allLoaded();
    err.print(CauseChain.of(error, masker).format("error: ", "  "));
    if (verbose) {
      err.print(CauseChain.stackTrace(error, masker));
    } else if (!(error instanceof TransformsException) && !(error instanceof UncheckedIOException)) {
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
}
