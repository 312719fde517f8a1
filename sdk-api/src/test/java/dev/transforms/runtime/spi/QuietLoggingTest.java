package dev.transforms.runtime.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quiet configuration applies when an application has none, in a JVM of its own (this test JVM has
 * the module's log4j2-test.properties), and an application's configuration wins.
 */
class QuietLoggingTest {

  @TempDir
  Path dir;

  /** Runs the probe with the main class path, without the test resources, plus {@code extra} folders. */
  private String run(List<Path> extra, String... args) throws IOException, InterruptedException {
    Path probe = dir.resolve("probe/dev/transforms/runtime/spi/QuietLoggingProbe.class");
    Files.createDirectories(probe.getParent());
    try (var in = QuietLoggingProbe.class.getResourceAsStream("QuietLoggingProbe.class")) {
      Files.copy(in, probe);
    }
    List<String> path = new ArrayList<>();
    path.add(dir.resolve("probe").toString());
    extra.forEach(p -> path.add(p.toString()));
    Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !entry.contains("test-classes")).forEach(path::add);
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", String.join(File.pathSeparator, path), QuietLoggingProbe.class.getName()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return output.lines().filter(l -> !l.contains("StatusLogger")).collect(Collectors.joining("\n"));
  }

  @Test
  void withoutAConfigurationOfItsOwnAnApplicationGetsWarningsOnly() throws Exception {
    String output = run(List.of());
    assertThat(output).contains("WARN SparkContext: a warning line").doesNotContain("an info line");
  }

  @Test
  void whenLog4jStartedBeforeTheCallItIsReconfigured() throws Exception {
    String output = run(List.of(), "log-first");
    assertThat(output).contains("a warning line").doesNotContain("an info line");
  }

  @Test
  void theApplicationsOwnConfigurationWins() throws Exception {
    Path own = dir.resolve("own");
    Files.createDirectories(own);
    Files.writeString(own.resolve("log4j2.properties"), """
        rootLogger.level = info
        rootLogger.appenderRef.out.ref = out
        appender.out.type = Console
        appender.out.name = out
        appender.out.layout.type = PatternLayout
        appender.out.layout.pattern = OWN %p %m%n
        """);
    String output = run(List.of(own));
    assertThat(output).contains("OWN INFO an info line", "OWN WARN a warning line");
  }
}
