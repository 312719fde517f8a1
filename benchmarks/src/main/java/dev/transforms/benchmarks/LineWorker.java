package dev.transforms.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A worker process of the side-by-side benchmarks: it takes one JSON command per line on its standard
 * input and answers each with one JSON line ({@code "ok": true}, or {@code false} and {@code "error"}).
 * PyIceberg's {@code benchmarks/pyiceberg/worker.py} and the SDK's {@link SdkWorker} speak the same lines.
 *
 * <p>A call may have a time limit: when the answer is late the process is killed (by its own handle,
 * nothing else), a new one is started and the setup commands sent so far ({@link #setUp}) are sent to it
 * again, so the next call finds the catalog open and the sources loaded. The worker's standard error
 * goes to this process's.
 */
final class LineWorker implements SideBySide.Side {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String END = "\u0000end";

  private final String label;
  private final List<String> command;
  private final List<ObjectNode> setup = new ArrayList<>();
  private Process process;
  private BufferedWriter in;
  private BlockingQueue<String> answers;

  /**
   * Starts a worker.
   *
   * @param label what the worker is, for messages ("PyIceberg", "SDK")
   * @param command the program and its arguments
   */
  LineWorker(String label, List<String> command) {
    this.label = label;
    this.command = List.copyOf(command);
    start();
  }

  private void start() {
    try {
      process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start the " + label + " worker " + command, e);
    }
    in = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    Thread reader = new Thread(() -> {
      try {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          lines.add(line);
        }
      } catch (IOException ignored) {
        // the process ended; END says so
      }
      lines.add(END);
    }, label + " worker answers");
    reader.setDaemon(true);
    reader.start();
    answers = lines;
  }

  @Override
  public String label() {
    return label;
  }

  /**
   * Sends a command that prepares later calls (open a catalog, load a source) and remembers it, to send
   * it again to a worker started after a time-out.
   *
   * @return the answer
   */
  JsonNode setUp(ObjectNode command) {
    JsonNode answer = call(command);
    setup.add(command.deepCopy());
    return answer;
  }

  /** Forgets a remembered setup command of a name ({@code load} of a source that was dropped). */
  void forget(String cmd, String name) {
    setup.removeIf(c -> c.path("cmd").asText().equals(cmd) && c.path("name").asText().equals(name));
  }

  @Override
  public JsonNode call(ObjectNode command) {
    return call(command, null).orElseThrow();
  }

  /**
   * Sends a command and waits for its answer, at most {@code limit} (null: no limit).
   *
   * @return the answer; empty when the limit passed first (the worker was then started again)
   * @throws IllegalStateException if the worker answers with an error or ends
   */
  @Override
  public Optional<JsonNode> call(ObjectNode command, Duration limit) {
    String line;
    try {
      in.write(JSON.writeValueAsString(command));
      in.write('\n');
      in.flush();
      line = limit == null ? answers.take() : answers.poll(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot send " + command + " to the " + label + " worker", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    if (line == null) {
      restart();
      return Optional.empty();
    }
    if (line.equals(END)) {
      throw new IllegalStateException("The " + label + " worker ended (exit " + exitCode() + ") on " + command);
    }
    try {
      JsonNode answer = JSON.readTree(line);
      if (!answer.path("ok").asBoolean()) {
        throw new IllegalStateException(label + " failed on " + command + ": " + answer.path("error").asText(line));
      }
      return Optional.of(answer);
    } catch (IOException e) {
      throw new IllegalStateException("The " + label + " worker answered " + line, e);
    }
  }

  /** Kills the late worker, starts a new one and sends it the setup commands again. */
  private void restart() {
    process.destroyForcibly();
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    System.err.println("the " + label + " worker was late and was stopped; starting a new one");
    start();
    for (ObjectNode command : setup) {
      call(command);
    }
  }

  private String exitCode() {
    try {
      return process.waitFor(5, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "still running";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  @Override
  public void close() {
    try {
      in.write("{\"cmd\": \"quit\"}\n");
      in.flush();
    } catch (IOException ignored) {
      // already gone
    }
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
