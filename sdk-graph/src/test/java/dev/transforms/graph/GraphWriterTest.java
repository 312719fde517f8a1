package dev.transforms.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class GraphWriterTest {

  private final PipelineGraph graph = PipelineGraph.of(PipelineGraphTest.PIPELINE, NodeFacts.planOnly());

  @Test
  void thePageHoldsTheDrawingAndItsScriptAndNeedsNoNetwork() {
    String page = GraphWriter.write(graph, GraphWriter.Format.html, "Pipeline <graph>");
    assertThat(page).startsWith("<!DOCTYPE html>").contains("<title>Pipeline &lt;graph&gt;</title>", "<svg",
        "data-id=\"transform:joined\"", "data-from=\"dataset:/src\" data-to=\"transform:joined\"",
        "\"transform:clean\": {\"name\": \"clean\"", "4 transforms, 6 datasets, 9 edges");
    // Nothing loaded from elsewhere: no external script, style sheet, image or font.
    assertThat(page).doesNotContain("<script src", "<link", "<img", "@import", "url(http");
    assertThat(page.split("<g class=\"node ", -1)).hasSize(graph.nodes().size() + 1);
    assertThat(page.split("<path class=\"edge\"", -1)).hasSize(graph.edges().size() + 1);
  }

  @Test
  void dotAndMermaidListEveryNodeAndEdge() {
    String dot = GraphWriter.write(graph, GraphWriter.Format.dot, "");
    assertThat(dot).startsWith("digraph pipeline {").contains("rankdir=LR",
        "\"transform:clean\" -> \"dataset:/clean\";", "\"dataset:/src\" [label=\"/src\", shape=cylinder]",
        "\"transform:daily\" [label=\"daily\\nsingle-node, full\", shape=box]");
    assertThat(dot.lines().filter(l -> l.contains(" -> "))).hasSize(9);
    String mermaid = GraphWriter.write(graph, GraphWriter.Format.mermaid, "");
    assertThat(mermaid).startsWith("flowchart LR\n").contains("[(\"/src\")]", "[\"clean<br/>spark, full\"]");
    assertThat(mermaid.lines().filter(l -> l.contains(" --> "))).hasSize(9);
  }

  @Test
  void staleNodesAreMarkedInEveryFormat() {
    GraphNode stale = new GraphNode("transform:t", GraphNode.Kind.TRANSFORM, "t", List.of("x"),
        java.util.Map.of(), "SUCCEEDED", true);
    PipelineGraph one = new PipelineGraph(List.of(stale), List.of());
    assertThat(GraphWriter.write(one, GraphWriter.Format.svg, "")).contains("class=\"node TRANSFORM SUCCEEDED stale\"");
    assertThat(GraphWriter.write(one, GraphWriter.Format.dot, "")).contains("style=dashed");
    assertThat(GraphWriter.write(one, GraphWriter.Format.mermaid, "")).contains("class n0 stale");
  }

  @Test
  void scriptTextCannotCloseItsElement() {
    assertThat(GraphWriter.json("a</script>\"\\\n")).isEqualTo("\"a\\u003c/script>\\\"\\\\\\n\"");
  }

  @Test
  void thePageScalesTheDrawingWithinLegibleBoundsWhileTheSvgFileKeepsItsSize() {
    GraphLayout layout = GraphLayout.of(graph);
    String page = GraphWriter.write(graph, GraphWriter.Format.html, "");
    String svg = page.substring(page.indexOf("<svg"), page.indexOf('>', page.indexOf("<svg")));
    assertThat(svg).doesNotContain(" width=\"", " height=\"").contains(String.format(Locale.ROOT,
        "style=\"min-width: %.0fpx; max-width: %.0fpx\"", layout.width() * 0.75, layout.width() * 1.5),
        String.format(Locale.ROOT, "viewBox=\"0 0 %.0f %.0f\"", layout.width(), layout.height()));
    assertThat(GraphWriter.write(graph, GraphWriter.Format.svg, "")).contains(String.format(Locale.ROOT,
        "width=\"%.0f\" height=\"%.0f\"", layout.width(), layout.height()));
  }
}
