package dev.transforms.crash;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** A build in a JVM of its own ({@link CrashChild}), on this test's classpath and Java options. */
final class ChildBuild {

  private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread thread = new Thread(r, "child-build-watchdog");
    thread.setDaemon(true);
    return thread;
  });

  private final Process process;
  private final Path errors;
  private final ScheduledFuture<?> watchdog;

  private ChildBuild(Process process, Path errors) {
    this.process = process;
    this.errors = errors;
    this.watchdog = WATCHDOG.schedule(process::destroyForcibly, 300, TimeUnit.SECONDS);
  }

  /**
   * Starts a build.
   *
   * @param warehouse the warehouse folder
   * @param transform the transform class to build
   * @param errors where the child's standard error goes
   * @param properties system properties of the child
   * @return the running build
   */
  static ChildBuild start(Path warehouse, Class<?> transform, Path errors, Map<String, String> properties) {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    for (String option : System.getProperty("crash.javaOptions", "").split("\\s+")) {
      if (!option.isBlank()) {
        command.add(option);
      }
    }
    command.add("-Xmx768m");
    command.add("-XX:TieredStopAtLevel=1");
    properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(CrashChild.class.getName());
    command.add(warehouse.toString());
    command.add(transform.getName());
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(errors.toFile());
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    try {
      return new ChildBuild(builder.start(), errors);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads the child's output until a line matches, then kills it with SIGKILL; or until it ends.
   *
   * @param stopAt the line to stop at
   * @return whether it was killed, its exit code, and its output
   */
  Ended killAt(Predicate<String> stopAt) {
    StringBuilder out = new StringBuilder();
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        out.append(line).append('\n');
        if (stopAt.test(line)) {
          process.destroyForcibly();
          process.waitFor();
          watchdog.cancel(false);
          return new Ended(true, process.exitValue(), out.toString());
        }
      }
      process.waitFor();
      watchdog.cancel(false);
      return new Ended(false, process.exitValue(), out.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Waits for the child to end.
   *
   * @return its exit code and standard output
   */
  Ended await() {
    return killAt(line -> false);
  }

  /** The last lines of the child's standard error, for failure messages. */
  String errorTail() {
    try {
      List<String> lines = Files.readAllLines(errors);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no error output: " + e.getMessage() + ")";
    }
  }

  /**
   * A child that ended.
   *
   * @param killed whether the test killed it
   * @param code its exit code
   * @param output what it printed
   */
  record Ended(boolean killed, int code, String output) {}
}
