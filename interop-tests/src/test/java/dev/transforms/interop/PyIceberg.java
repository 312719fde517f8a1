package dev.transforms.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs {@code interop/pyiceberg_check.py} with the Python of the interop virtual environment. */
final class PyIceberg {
  private final String python;
  private final String script;
  private final Path warehouse;

  PyIceberg(String python, String script, Path warehouse) {
    this.python = python;
    this.script = script;
    this.warehouse = warehouse;
  }

  /** The Python given with -Dinterop.python, or null when the test runs without one. */
  static String configuredPython() {
    String python = System.getProperty("interop.python", "");
    return python.isBlank() || python.startsWith("${") ? null : python;
  }

  /** Runs a command and returns its output lines; fails with the output unless it exits 0. */
  List<String> run(String command, String... args) {
    List<String> line = new ArrayList<>(List.of(python, script, command, warehouse.toString()));
    line.addAll(List.of(args));
    try {
      Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("PyIceberg %s finished", command).isTrue();
      assertThat(process.exitValue()).as("PyIceberg %s %s said:%n%s", command, List.of(args), output).isZero();
      return output.lines().filter(l -> !l.isBlank()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Writes JSON text to a new file in the warehouse folder and returns its path. */
  Path file(String name, String json) {
    try {
      Path file = warehouse.resolve(name);
      Files.writeString(file, json);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
