package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code ./transforms demo} checks its arguments before it seeds or delivers a row: help, the version
 * and a refused option end the demo with the inputs as they were.
 */
class DemoArgumentsTest {

  private static int check(String... args) {
    List<String> withBuild = new ArrayList<>(List.of(args));
    withBuild.add("build");
    return Demo.checkArguments(withBuild);
  }

  @Test
  void helpEndsTheDemoBeforeAnyInputIsTouched() {
    PrintStream out = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      assertThat(check("--help")).isZero();
      assertThat(check("-h")).isZero();
    } finally {
      System.setOut(out);
    }
    assertThat(printed.toString(StandardCharsets.UTF_8)).contains("Usage: ./transforms demo")
        .contains("Asking for help changes nothing");
  }

  @Test
  void aRefusedOptionEndsTheDemoWithTheUsageCode() {
    PrintStream err = System.err;
    System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    try {
      assertThat(check("--no-such-option")).isEqualTo(2);
      assertThat(check("--threads", "0")).isEqualTo(2);
    } finally {
      System.setErr(err);
    }
  }

  @Test
  void theDemosOwnOptionsGoOnToTheBuild() {
    assertThat(check()).isEqualTo(-1);
    assertThat(check("--warehouse", "target/somewhere")).isEqualTo(-1);
  }
}
