package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.cli.TransformsCli;
import dev.transforms.runtime.internal.discovery.TransformIndex;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./transforms graph} over the demo pipeline draws every demo transform and every dataset it
 * reads or writes, and an edge for each read and write (the catalog facts are checked in sdk-graph's
 * tests; here the plan alone, so no Spark build is needed).
 */
class DemoGraphTest {

  @TempDir Path dir;

  @Test
  void theGraphHoldsEveryDemoTransformAndDataset() {
    List<TransformSpec> demo = TransformIndex.discover(Thread.currentThread().getContextClassLoader());
    assertThat(demo).hasSizeGreaterThanOrEqualTo(10);
    Set<String> expectedNodes = new TreeSet<>();
    Set<String> expectedEdges = new TreeSet<>();
    for (TransformSpec spec : demo) {
      expectedNodes.add("\"transform:" + spec.name() + "\"");
      for (ParameterSpec in : spec.inputs()) {
        expectedNodes.add("\"dataset:" + in.requirePath() + "\"");
        expectedEdges.add("\"dataset:" + in.requirePath() + "\" -> \"transform:" + spec.name() + "\"");
      }
      for (ParameterSpec out : spec.outputs()) {
        expectedNodes.add("\"dataset:" + out.requirePath() + "\"");
        expectedEdges.add("\"transform:" + spec.name() + "\" -> \"dataset:" + out.requirePath() + "\"");
      }
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = TransformsCli.execute(new TransformsCli(Map.of(), dir), new PrintWriter(out, true),
        new PrintWriter(err, true), "graph", "--plan-only", "--format", "dot", "--output", "-");
    assertThat(code).as(err.toString()).isZero();
    Set<String> nodes = new TreeSet<>();
    Set<String> edges = new TreeSet<>();
    for (String line : out.toString().lines().map(String::strip).toList()) {
      if (line.contains(" -> ")) {
        edges.add(line.substring(0, line.length() - 1));
      } else if (line.startsWith("\"") && line.contains(" [label=")) {
        nodes.add(line.substring(0, line.indexOf(" [label=")));
      }
    }
    assertThat(nodes).isEqualTo(expectedNodes);
    assertThat(edges).isEqualTo(expectedEdges);
  }
}
