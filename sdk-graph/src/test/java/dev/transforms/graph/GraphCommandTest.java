package dev.transforms.graph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.cli.TransformsCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code transforms graph} through the command line: what it writes, and bad arguments named. */
class GraphCommandTest {

  @TempDir Path dir;

  private record Run(int exitCode, String out, String err) {}

  private Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = TransformsCli.execute(new TransformsCli(Map.of(), dir), new PrintWriter(out, true),
        new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void writesEachFormatToTheNamedFileOrTheStandardOutput() throws Exception {
    Run html = run("graph");
    assertThat(html.exitCode()).as(html.err()).isZero();
    assertThat(html.out()).contains("Wrote the graph of 0 transforms and 0 datasets to " + dir.resolve("pipeline-graph.html"));
    assertThat(Files.readString(dir.resolve("pipeline-graph.html"))).startsWith("<!DOCTYPE html>");
    Run dot = run("graph", "--format", "dot", "--output", "lineage.dot");
    assertThat(dot.exitCode()).as(dot.err()).isZero();
    assertThat(Files.readString(dir.resolve("lineage.dot"))).startsWith("digraph pipeline {");
    Run mermaid = run("graph", "--format", "mermaid", "-o", "-");
    assertThat(mermaid.out()).startsWith("flowchart LR");
    // Reading the catalog did not create it.
    assertThat(dir.resolve("warehouse")).doesNotExist();
  }

  @Test
  void badArgumentsAreUsageErrorsNamingTheArgument() throws Exception {
    Run format = run("graph", "--format", "png");
    assertThat(format.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(format.err()).contains("--format", "png", "html, svg, dot, mermaid");
    Run select = run("graph", "--select", "nope+");
    assertThat(select.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(select.err()).contains("--select nope+: no transform is named 'nope'");
    Run missingFolder = run("graph", "--output", "no/such/folder/graph.html");
    assertThat(missingFolder.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(missingFolder.err()).contains("Cannot write --output", "does not exist");
    Files.createDirectories(dir.resolve("a-folder"));
    Run folder = run("graph", "--output", "a-folder");
    assertThat(folder.exitCode()).isEqualTo(TransformsCli.BAD_USAGE);
    assertThat(folder.err()).contains("Cannot write --output", "it is a folder");
    assertThat(dir.resolve("pipeline-graph.html")).doesNotExist();
  }
}
