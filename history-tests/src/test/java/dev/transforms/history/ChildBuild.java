package dev.transforms.history;

import dev.transforms.runtime.BuildReport;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.spi.CrashPoints;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A build of the single-node transforms in a JVM of its own, killed with SIGKILL at a crash point of the
 * build protocol ({@link CrashPoints}): {@code run.returned}, once the first transform that runs has
 * written its rows to its staging branch, before anything is published. The build runs one transform at
 * a time, so nothing else has run yet either. {@link #main} is the child.
 */
final class ChildBuild {

  /** The crash point the child stops at. */
  static final String POINT = "run.returned";

  private ChildBuild() {}

  /**
   * What became of a child build.
   *
   * @param killed whether it reached the crash point and was killed there; if not, it ran to its end
   * @param exitCode its exit code
   * @param output what it printed
   */
  record Ended(boolean killed, int exitCode, String output) {}

  /**
   * Builds the single-node transforms on a warehouse in another JVM, and kills it at the crash point.
   *
   * @param warehouse the warehouse folder (the embedded catalog's)
   * @return what became of it
   */
  static Ended buildAndKill(Path warehouse) {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    for (String option : System.getProperty("history.javaOptions", "").split("\\s+")) {
      if (!option.isBlank()) {
        command.add(option);
      }
    }
    command.add("-Xmx512m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-D" + CrashPoints.PROPERTY + "=" + POINT);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ChildBuild.class.getName());
    command.add(warehouse.toString());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start a child build", e);
    }
    StringBuilder output = new StringBuilder();
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        output.append(line).append('\n');
        if (line.startsWith(CrashPoints.MARKER)) {
          process.destroyForcibly();
          process.waitFor(60, TimeUnit.SECONDS);
          return new Ended(true, process.exitValue(), output.toString());
        }
      }
      process.waitFor(60, TimeUnit.SECONDS);
      return new Ended(false, process.exitValue(), output.toString());
    } catch (IOException e) {
      process.destroyForcibly();
      throw new UncheckedIOException("Cannot read the child build's output", e);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while a child build ran", e);
    }
  }

  /**
   * The child: builds {@link Downstream} and its full twins on a warehouse, one transform at a time.
   *
   * @param args the warehouse folder
   */
  public static void main(String[] args) {
    BuildReport report;
    try (Transforms transforms = Transforms.open(TransformsConfig.embedded(Path.of(args[0])))) {
      report = transforms.build(Transforms.Selection.of(Downstream.class, Downstream.FullTwins.class).threads(1));
    }
    System.out.println(report.format());
    System.out.flush();
    System.exit(report.succeeded() ? 0 : 1);
  }
}
