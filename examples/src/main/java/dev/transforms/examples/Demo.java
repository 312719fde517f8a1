package dev.transforms.examples;

import dev.transforms.cli.TransformsCli;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.spark.SparkSessions;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;

/**
 * The demo pipeline: seeds the sample inputs of every example on the configured catalogs (the embedded
 * one by default), then builds every example in dependency order through the command line and prints
 * its report. Run it again and it delivers new input rows first, so the second build shows MERGE,
 * incremental appends and snapshot comparison at work.
 *
 * <p>{@code ./transforms demo [--warehouse DIR] [--config FILE]}
 */
public final class Demo {

  private Demo() {}

  /**
   * Seeds or extends the inputs, then runs {@code transforms build}.
   *
   * @param args {@code --warehouse DIR} and {@code --config FILE}, as for the command line
   */
  public static void main(String[] args) {
    List<String> cliArgs = new ArrayList<>(List.of(args));
    cliArgs.add("build");
    // The arguments are checked before anything is seeded or delivered: asking for help, or a typo,
    // must leave the sample inputs as they are.
    int refused = checkArguments(cliArgs);
    if (refused >= 0) {
      System.exit(refused);
    }
    TransformsConfig config = SampleInputs.loadConfig(args);
    SparkSession spark = SparkSessions.forBuild(SparkSessions.builder(config).getOrCreate(), config);
    int exitCode;
    try {
      new SampleInputs(spark, new TableResolver(config)).seedOrDeliver();
      exitCode = TransformsCli.execute(new TransformsCli(), cliArgs.toArray(new String[0]));
    } finally {
      spark.stop();
    }
    System.exit(exitCode);
  }

  /**
   * Parses the demo's arguments as the command line will before any input is touched.
   *
   * @param cliArgs the arguments, then {@code build}
   * @return the exit code to end with now (0 after help or the version, 2 for a refused argument), or -1
   *     to seed and build
   */
  static int checkArguments(List<String> cliArgs) {
    java.io.PrintWriter out = new java.io.PrintWriter(System.out, true);
    java.io.PrintWriter err = new java.io.PrintWriter(System.err, true);
    picocli.CommandLine commandLine = TransformsCli.commandLine(new TransformsCli());
    commandLine.setOut(out);
    commandLine.setErr(err);
    picocli.CommandLine.ParseResult parsed;
    try {
      parsed = commandLine.parseArgs(cliArgs.toArray(new String[0]));
    } catch (picocli.CommandLine.ParameterException e) {
      try {
        return commandLine.getParameterExceptionHandler().handleParseException(e, cliArgs.toArray(new String[0]));
      } catch (Exception handling) {
        err.println("error: " + e.getMessage());
        return TransformsCli.BAD_USAGE;
      }
    } catch (RuntimeException e) {
      err.println("error: " + e.getMessage());
      return TransformsCli.BAD_USAGE;
    }
    for (picocli.CommandLine.ParseResult level = parsed; level != null; level = level.subcommand()) {
      if (level.isUsageHelpRequested()) {
        out.println(USAGE);
        return TransformsCli.OK;
      } else if (level.isVersionHelpRequested()) {
        return commandLine.execute("--version");
      }
    }
    return -1;
  }

  /** What {@code ./transforms demo --help} prints; it seeds and builds nothing. */
  static final String USAGE = """
      Usage: ./transforms demo [--warehouse DIR] [--config FILE] [--verbose]
      Seeds the sample inputs of every example (the first time) or delivers new rows to them (every time
      after), then builds the demo pipeline with `transforms build` and prints its report. Options are
      the command line's global options (./transforms --help). Asking for help changes nothing.""";
}
