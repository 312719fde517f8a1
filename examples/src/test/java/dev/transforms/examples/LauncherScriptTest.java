package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code ./transforms} launcher at the repository's root, run on a copy of it beside a miniature
 * project, with {@code mvn} and {@code java} replaced by scripts that record what they were asked to do:
 * it builds on first use and after a source changed, not otherwise, and two launches at once never run
 * Maven together. Run with and without {@code flock} (the lock macOS falls back to is a folder).
 */
class LauncherScriptTest {

  private static final Path LAUNCHER = Path.of("..", "transforms").toAbsolutePath().normalize();

  /** The commands the launcher uses besides the two replaced ones. */
  private static final List<String> TOOLS = List.of("bash", "env", "dirname", "find", "mktemp", "cat", "rm", "touch",
      "mv", "mkdir", "sleep");

  @TempDir Path dir;
  Path repo;
  Path bin;
  Path log;

  @BeforeEach
  void miniatureProject() throws IOException {
    assumeTrue(Files.isExecutable(Path.of("/bin/bash")) || Files.isExecutable(Path.of("/usr/bin/bash")),
        "the launcher is a bash script");
    repo = dir.resolve("repo");
    bin = dir.resolve("bin");
    log = dir.resolve("calls.log");
    Files.createDirectories(repo.resolve("sdk-api/src"));
    Files.createDirectories(repo.resolve("examples/src"));
    Files.createDirectories(bin);
    Files.copy(LAUNCHER, repo.resolve("transforms"));
    Files.writeString(repo.resolve("pom.xml"), "<project/>");
    Files.writeString(repo.resolve("examples/pom.xml"), "<project/>");
    Files.writeString(repo.resolve("sdk-api/src/A.java"), "class A {}");
    Files.writeString(log, "");
    // Maven's build-classpath rewrites the file only when its content changes: so does this one. A second
    // Maven in the same target/ at the same time leaves OVERLAP in the log.
    script("mvn", "echo mvn-start >> '" + log + "'",
        "mkdir '" + dir.resolve("maven-running") + "' 2>/dev/null || echo OVERLAP >> '" + log + "'",
        "sleep 2",
        "mkdir -p examples/target/classes",
        "[ -f examples/target/classpath.txt ] || echo /deps.jar > examples/target/classpath.txt",
        "rmdir '" + dir.resolve("maven-running") + "'",
        "echo mvn-end >> '" + log + "'");
    script("java", "echo \"java ${@: -1}\" >> '" + log + "'");
  }

  @ParameterizedTest(name = "flock on the path: {0}")
  @ValueSource(booleans = {true, false})
  void buildsOnFirstUseAndAfterASourceChangedOnly(boolean flock) throws Exception {
    tools(flock);
    Launch first = launch("list").finish();
    assertThat(first.err()).contains("Building the SDK");
    assertThat(mavenRuns()).isEqualTo(1);
    assertThat(Files.readString(log)).contains("java list");

    Launch second = launch("plan").finish();
    assertThat(second.err()).doesNotContain("Building");
    assertThat(mavenRuns()).as("nothing changed since the last build").isEqualTo(1);

    Files.setLastModifiedTime(repo.resolve("sdk-api/src/A.java"), FileTime.from(Instant.now()));
    launch("plan").finish();
    assertThat(mavenRuns()).as("a source changed").isEqualTo(2);
    launch("plan").finish();
    assertThat(mavenRuns()).as("built since that change").isEqualTo(2);
  }

  @ParameterizedTest(name = "flock on the path: {0}")
  @ValueSource(booleans = {true, false})
  void twoLaunchesAtOnceRunMavenOnceAndTheSecondSaysItWaits(boolean flock) throws Exception {
    tools(flock);
    Launch one = launch("build");
    Thread.sleep(300);
    Launch two = launch("build");
    one.finish();
    two.finish();
    String calls = Files.readString(log);
    assertThat(calls).doesNotContain("OVERLAP");
    assertThat(mavenRuns()).as("the second launch uses the build it waited for").isEqualTo(1);
    assertThat(two.err()).contains("Another ./transforms is building the SDK", "waiting for it to finish");
    assertThat(calls.lines().filter(l -> l.equals("java build")).count()).isEqualTo(2);
  }

  private long mavenRuns() throws IOException {
    return Files.readString(log).lines().filter(l -> l.equals("mvn-start")).count();
  }

  private void tools(boolean withFlock) throws IOException {
    List<String> tools = new ArrayList<>(TOOLS);
    if (withFlock) {
      tools.add("flock");
    }
    for (String tool : tools) {
      Path found = which(tool);
      assumeTrue(found != null, tool + " is on the path");
      Files.createSymbolicLink(bin.resolve(tool), found);
    }
  }

  private static Path which(String tool) {
    for (String folder : System.getenv("PATH").split(":")) {
      Path candidate = Path.of(folder, tool);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  private void script(String name, String... lines) throws IOException {
    Path file = bin.resolve(name);
    Files.writeString(file, "#!/bin/bash\n" + String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private Launch launch(String command) throws IOException {
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder builder = new ProcessBuilder(bin.resolve("bash").toString(), repo.resolve("transforms").toString(),
        command)
        .directory(dir.toFile())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(err.toFile());
    builder.environment().put("PATH", bin.toString());
    return new Launch(builder.start(), err);
  }

  /** A running launch and the file its standard error goes to. */
  private record Launch(Process process, Path errFile) {
    Launch finish() throws Exception {
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
      assertThat(process.exitValue()).as(Files.readString(errFile)).isZero();
      return this;
    }

    String err() throws IOException {
      return Files.readString(errFile);
    }
  }
}
