package dev.transforms.examples;

import dev.transforms.cli.TransformsCli;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.TableResolver;
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
    TransformsConfig config = SampleInputs.loadConfig(args);
    SparkSession spark = SparkSessions.forBuild(SparkSessions.builder(config).getOrCreate(), config);
    int exitCode;
    try {
      new SampleInputs(spark, new TableResolver(config)).seedOrDeliver();
      cliArgs.add("build");
      exitCode = TransformsCli.execute(new TransformsCli(), cliArgs.toArray(new String[0]));
    } finally {
      spark.stop();
    }
    System.exit(exitCode);
  }
}
