package dev.transforms.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.cli.TransformsCli;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM (what Ctrl-C sends the launcher's JVM as SIGINT, to the same shutdown hooks) during a Spark job
 * of {@code transforms build}: the process says the transform was cancelled, prints no stack trace, and
 * ends soon, its Spark job cancelled rather than waited for.
 */
class StopOnSignalTest {

  @TempDir
  Path dir;

  @Test
  void aBuildStoppedDuringASparkJobEndsSoonSayingItWasCancelled() throws Exception {
    Path started = dir.resolve("started");
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
        "-Xmx768m"));
    for (String option : System.getProperty("crash.javaOptions", "").split("\\s+")) {
      if (!option.isBlank()) {
        command.add(option);
      }
    }
    // The transform's class alone, not the other test transforms, some of which share names on purpose.
    Path classes = dir.resolve("classes");
    Path classFile = classes.resolve(SlowSpark.class.getName().replace('.', '/') + ".class");
    Files.createDirectories(classFile.getParent());
    try (var in = SlowSpark.class.getResourceAsStream(SlowSpark.class.getSimpleName() + ".class")) {
      Files.copy(in, classFile);
    }
    String classPath = classes + File.pathSeparator + Arrays.stream(System.getProperty("java.class.path")
        .split(File.pathSeparator)).filter(entry -> !entry.contains("test-classes"))
        .collect(Collectors.joining(File.pathSeparator));
    command.addAll(List.of("-D" + SlowSpark.STARTED + "=" + started, "-cp", classPath,
        TransformsCli.class.getName(), "--warehouse", dir.resolve("warehouse").toString(),
        "--class", SlowSpark.class.getName(), "build"));
    ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Process process = builder.start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
      while (!Files.exists(started) && process.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(started).as(Files.readString(err)).exists();
      Thread.sleep(3_000); // the job's tasks are running
      long stop = System.nanoTime();
      process.destroy();
      boolean ended = process.waitFor(15, TimeUnit.SECONDS);
      if (!ended) {
        Process dump = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
            Long.toString(process.pid()), "Thread.print").redirectErrorStream(true).start();
        System.out.println("--- threads\n" + new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        ended = process.waitFor(15, TimeUnit.SECONDS);
      }
      long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - stop);
      String stdout = Files.readString(out, StandardCharsets.UTF_8);
      String stderr = Files.readString(err, StandardCharsets.UTF_8);
      System.out.println("stopped in " + seconds + " s\n--- stdout\n" + stdout + "\n--- stderr\n" + stderr);
      // About 3 s on an idle machine; the bound leaves room for a busy one. It waited a minute for Spark's
      // listener bus, stopped under it by Spark's own shutdown hook.
      assertThat(ended).as("ended within 30 s").isTrue();
      assertThat(stdout).contains("FAILED    slow", "Transform slow was stopped and its writes discarded: the build was "
          + "cancelled (the process was asked to stop (Ctrl-C or SIGTERM))");
      assertThat(stderr).as("no stack trace, no INFO line").doesNotContain("\tat ", " INFO ");
    } finally {
      process.destroyForcibly();
    }
  }
}
