package dev.transforms.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.cli.TransformsCli;
import dev.transforms.testing.TestWarehouse;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM (what Ctrl-C sends the launcher's JVM as SIGINT, to the same shutdown hooks) during a Spark job
 * of {@code transforms build}: the process says the transform was cancelled, prints no stack trace, and
 * ends soon, its Spark job cancelled rather than waited for. SIGTERM after a single-node transform wrote
 * to its staging branch: the discard deletes the files it wrote and removes its lease, although the JVM's
 * other shutdown hooks have stopped Iceberg's thread pools meanwhile.
 */
class StopOnSignalTest {

  @TempDir
  Path dir;

  @Test
  void aBuildStoppedDuringASparkJobEndsSoonSayingItWasCancelled() throws Exception {
    Path started = dir.resolve("started");
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    List<String> command = javaCommand();
    String classPath = classPathWith(SlowSpark.class);
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

  @Test
  void aSingleNodeBuildStoppedAfterWritingItsBranchDeletesItsFilesAndRemovesItsLease() throws Exception {
    Path warehouse = dir.resolve("warehouse");
    Set<String> before;
    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      w.build(WriteThenWait.class).assertSucceeded();
      before = files(w.table(WriteThenWait.OUTPUT));
    }
    Path written = dir.resolve("written");
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    List<String> command = javaCommand();
    command.addAll(List.of("-D" + WriteThenWait.WRITTEN + "=" + written, "-cp", classPathWith(WriteThenWait.class),
        TransformsCli.class.getName(), "--warehouse", warehouse.toString(), "--class", WriteThenWait.class.getName(),
        "build", "--force"));
    Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!Files.exists(written) && process.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(written).as(Files.readString(err)).exists();
      process.destroy();
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("ended within 60 s").isTrue();
    } finally {
      process.destroyForcibly();
    }
    String stdout = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(stdout).as(Files.readString(err)).contains("Transform write-then-wait ran but was not published; "
        + "its writes are discarded: the build was cancelled (the process was asked to stop (Ctrl-C or SIGTERM))");

    try (TestWarehouse w = new TestWarehouse(warehouse)) {
      Table table = w.table(WriteThenWait.OUTPUT);
      // Each commit leaves a metadata file, as Iceberg keeps them; the build's data files, manifests and
      // manifest lists are gone.
      Set<String> left = files(table);
      left.removeAll(before);
      left.removeIf(file -> file.endsWith(".metadata.json"));
      assertThat(left).as("files the stopped build left under " + table.location()).isEmpty();
      assertThat(table.refs()).as("refs of the output").containsOnlyKeys("main");
      assertThat(table.properties().keySet()).as("properties of the output")
          .noneMatch(key -> key.startsWith("transforms.lease."));
      assertThat(w.rows(WriteThenWait.OUTPUT)).hasSize(WriteThenWait.ROWS);
    }
  }

  /** The files under a local table's location. */
  private static Set<String> files(Table table) throws IOException {
    try (Stream<Path> walk = Files.walk(Path.of(java.net.URI.create(table.location())))) {
      return walk.filter(Files::isRegularFile).map(Path::toString).collect(Collectors.toCollection(TreeSet::new));
    }
  }

  /** The command that starts a child JVM like this one: its java, a small heap and the crash tests' options. */
  private static List<String> javaCommand() {
    List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
        "-Xmx768m"));
    for (String option : System.getProperty("crash.javaOptions", "").split("\\s+")) {
      if (!option.isBlank()) {
        command.add(option);
      }
    }
    return command;
  }

  /** This test's class path without its other test classes, with the one transform class given. */
  private String classPathWith(Class<?> transform) throws IOException {
    // The transform's class alone, not the other test transforms, some of which share names on purpose.
    Path classes = dir.resolve("classes");
    Path classFile = classes.resolve(transform.getName().replace('.', '/') + ".class");
    Files.createDirectories(classFile.getParent());
    try (var in = transform.getResourceAsStream(transform.getSimpleName() + ".class")) {
      Files.copy(in, classFile);
    }
    return classes + File.pathSeparator + Arrays.stream(System.getProperty("java.class.path")
        .split(File.pathSeparator)).filter(entry -> !entry.contains("test-classes"))
        .collect(Collectors.joining(File.pathSeparator));
  }
}
