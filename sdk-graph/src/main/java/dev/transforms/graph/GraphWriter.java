package dev.transforms.graph;

import static dev.transforms.cli.report.Html.escape;

import dev.transforms.cli.report.Html;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes a pipeline graph as a self-contained HTML page, SVG, Graphviz DOT or Mermaid. */
public final class GraphWriter {

  /** The smallest scale of the page's drawing: 12 px text drawn at 9 px; below it the drawing scrolls. */
  static final double MIN_SCALE = 0.75;
  /** The largest scale of the page's drawing, so that a small graph does not turn into a poster. */
  static final double MAX_SCALE = 1.5;

  private GraphWriter() {}

  /** The formats {@code transforms graph --format} takes. */
  public enum Format {
    /** One page: the drawing, a legend and the details of the node clicked; no network access needed. */
    html,
    /** The drawing alone. */
    svg,
    /** Graphviz DOT, laid out by whoever renders it. */
    dot,
    /** A Mermaid flowchart, for Markdown that renders Mermaid. */
    mermaid;

    /**
     * The file extension of the format.
     *
     * @return such as {@code .html}
     */
    public String extension() {
      return this == mermaid ? ".mmd" : "." + name();
    }
  }

  /**
   * A graph in a format.
   *
   * @param graph the graph
   * @param format the format
   * @param title the page's title
   * @return the text
   */
  public static String write(PipelineGraph graph, Format format, String title) {
    return switch (format) {
      case html -> html(graph, GraphLayout.of(graph), title);
      case svg -> svg(graph, GraphLayout.of(graph));
      case dot -> dot(graph);
      case mermaid -> mermaid(graph);
    };
  }

  /**
   * The drawing as an SVG element, with its own style.
   *
   * @param graph the graph
   * @param layout its layout
   * @return the SVG text
   */
  public static String svg(PipelineGraph graph, GraphLayout layout) {
    return svg(graph, layout, String.format(Locale.ROOT, "width=\"%.0f\" height=\"%.0f\"", layout.width(),
        layout.height()));
  }

  /**
   * The drawing with the given size attributes: its natural size in an SVG file, and in the page a
   * width that follows the window between {@link #MIN_SCALE} and {@link #MAX_SCALE} of it.
   */
  private static String svg(PipelineGraph graph, GraphLayout layout, String size) {
    StringBuilder svg = new StringBuilder();
    svg.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"graph\" %s viewBox=\"0 0 %.0f %.0f\""
            + " font-family=\"monospace\" font-size=\"12\">%n", size, layout.width(), layout.height()));
    svg.append("""
        <style>
          .node rect { stroke: #555; stroke-width: 1px; cursor: pointer; }
          .node.DATASET rect { fill: #e8f0fc; }
          .node.TRANSFORM.SUCCEEDED rect, .node.TRANSFORM.PUBLISHED rect { fill: #d8f0d8; }
          .node.TRANSFORM.FAILED rect { fill: #f8d0d0; } .node.TRANSFORM.SKIPPED rect { fill: #eee; }
          .node.TRANSFORM.NONE rect { fill: #fff; } .node.MISSING rect { fill: #fff; stroke-dasharray: 4 2; }
          .node.stale rect { stroke: #d08000; stroke-width: 3px; stroke-dasharray: 6 3; }
          .node.selected rect { stroke: #3060d0; stroke-width: 3px; }
          .node text { fill: #222; } .node .name { font-weight: bold; } .edge { fill: none; stroke: #777; stroke-width: 1.2px; }
          .edge.lit { stroke: #3060d0; stroke-width: 2.5px; }
        </style>
        <defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto">
          <path d="M0,0 L10,5 L0,10 z" fill="#777"/></marker></defs>
        """);
    for (GraphLayout.Route route : layout.edges()) {
      StringBuilder d = new StringBuilder();
      for (double[] p : route.points()) {
        d.append(d.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", p[0], p[1]));
      }
      svg.append("<path class=\"edge\" marker-end=\"url(#arrow)\" data-from=\"").append(escape(route.edge().from()))
          .append("\" data-to=\"").append(escape(route.edge().to())).append("\" d=\"").append(d).append("\"/>\n");
    }
    for (GraphNode node : graph.nodes()) {
      GraphLayout.Box box = layout.nodes().get(node.id());
      svg.append(String.format(Locale.ROOT, "<g class=\"node %s %s%s\" data-id=\"%s\" transform=\"translate(%.1f,%.1f)\">",
          node.kind(), node.status(), node.stale() ? " stale" : "", escape(node.id()), box.x(), box.y()));
      svg.append("<title>").append(escape(node.name())).append("</title>");
      svg.append(String.format(Locale.ROOT, "<rect width=\"%.1f\" height=\"%.1f\" rx=\"%d\"/>", box.width(), box.height(),
          node.kind() == GraphNode.Kind.DATASET ? 12 : 3));
      double y = GraphLayout.PADDING + 12;
      svg.append(String.format(Locale.ROOT, "<text class=\"name\" x=\"%.1f\" y=\"%.1f\">%s</text>", GraphLayout.PADDING, y,
          escape(node.name())));
      for (String line : node.lines()) {
        y += GraphLayout.LINE_HEIGHT;
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\">%s</text>", GraphLayout.PADDING, y,
            escape(line)));
      }
      svg.append("</g>\n");
    }
    return svg.append("</svg>\n").toString();
  }

  private static String html(PipelineGraph graph, GraphLayout layout, String title) {
    long transforms = graph.nodes().stream().filter(n -> n.kind() == GraphNode.Kind.TRANSFORM).count();
    long stale = graph.nodes().stream().filter(n -> n.kind() == GraphNode.Kind.TRANSFORM && n.stale()).count();
    StringBuilder page = new StringBuilder();
    page.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(escape(title))
        .append("</title>\n<style>").append(Html.STYLE).append("""
            #main { display: flex; gap: 16px; align-items: flex-start; }
            #drawing { flex: 1 1 0; min-width: 0; overflow: auto; border: 1px solid #ccc; max-height: 85vh; }
            #graph { display: block; width: 100%; height: auto; margin: 0 auto; }
            #details { flex: 0 0 clamp(220px, 20vw, 360px); min-width: 0; overflow-wrap: anywhere; }
            #details td:first-child { color: #555; white-space: nowrap; }
            .legend span { display: inline-block; padding: 1px 6px; margin-right: 6px; border: 1px solid #888; }
            """).append("</style></head>\n<body>\n");
    page.append("<h1>").append(escape(title)).append("</h1>\n<p id=\"summary\">").append(dev.transforms.runtime.Counts.of(transforms, "transform"))
        .append(", ").append(dev.transforms.runtime.Counts.of(graph.nodes().size() - transforms, "dataset")).append(", ")
        .append(dev.transforms.runtime.Counts.of(graph.edges().size(), "edge")).append("; ").append(stale).append(" stale. ")
        .append("<span class=\"legend\"><span class=\"SUCCEEDED\">built</span><span class=\"FAILED\">failed</span>"
            + "<span class=\"NONE\">not built</span><span style=\"background:#e8f0fc\">dataset</span>"
            + "<span style=\"border:2px dashed #d08000\">stale: its inputs, code or settings changed since the last build</span></span>"
            + " Click a node for its details.</p>\n");
    // The drawing fills its box's width, scaled, with height following; within legible bounds.
    String size = String.format(Locale.ROOT, "style=\"min-width: %.0fpx; max-width: %.0fpx\"",
        layout.width() * MIN_SCALE, layout.width() * MAX_SCALE);
    page.append("<div id=\"main\"><div id=\"drawing\">\n").append(svg(graph, layout, size))
        .append("</div>\n<div id=\"details\"><h2 id=\"details-title\">Details</h2>"
            + "<table id=\"details-table\"><tr><td class=\"muted\">Click a node.</td></tr></table></div></div>\n");
    page.append("<script>\nvar NODES = {");
    for (int i = 0; i < graph.nodes().size(); i++) {
      GraphNode node = graph.nodes().get(i);
      page.append(i == 0 ? "\n" : ",\n").append(json(node.id())).append(": {\"name\": ").append(json(node.name()))
          .append(", \"details\": [");
      int j = 0;
      for (Map.Entry<String, String> e : node.details().entrySet()) {
        page.append(j++ == 0 ? "" : ", ").append('[').append(json(e.getKey())).append(", ")
            .append(json(e.getValue())).append(']');
      }
      page.append("]}");
    }
    page.append("""
        };
        function show(id) {
          var node = NODES[id];
          document.querySelectorAll('.node').forEach(function (g) {
            g.classList.toggle('selected', g.getAttribute('data-id') === id);
          });
          document.querySelectorAll('.edge').forEach(function (e) {
            e.classList.toggle('lit', e.getAttribute('data-from') === id || e.getAttribute('data-to') === id);
          });
          document.getElementById('details-title').textContent = node.name;
          var table = document.getElementById('details-table');
          table.textContent = '';
          node.details.forEach(function (d) {
            var row = table.insertRow();
            row.insertCell().textContent = d[0];
            row.insertCell().textContent = d[1];
          });
        }
        document.querySelectorAll('.node').forEach(function (g) {
          g.addEventListener('click', function () { show(g.getAttribute('data-id')); });
        });
        </script>
        </body></html>
        """);
    return page.toString();
  }

  private static String dot(PipelineGraph graph) {
    StringBuilder dot = new StringBuilder("digraph pipeline {\n  rankdir=LR;\n  node [fontname=\"monospace\", fontsize=10];\n");
    for (GraphNode node : graph.nodes()) {
      String label = dotText(node.name()) + node.lines().stream().map(l -> "\\n" + dotText(l))
          .reduce("", String::concat);
      dot.append("  \"").append(dotText(node.id())).append("\" [label=\"").append(label).append("\", shape=")
          .append(node.kind() == GraphNode.Kind.DATASET ? "cylinder" : "box")
          .append(node.stale() ? ", color=\"#d08000\", style=dashed" : "")
          .append(node.status().equals("FAILED") ? ", fillcolor=\"#f8d0d0\", style=filled" : "").append("];\n");
    }
    for (GraphEdge edge : graph.edges()) {
      dot.append("  \"").append(dotText(edge.from())).append("\" -> \"").append(dotText(edge.to())).append("\";\n");
    }
    return dot.append("}\n").toString();
  }

  private static String dotText(String text) {
    return text.replace("\\", "\\\\").replace("\"", "\\\"");
  }

  private static String mermaid(PipelineGraph graph) {
    StringBuilder out = new StringBuilder("flowchart LR\n");
    Map<String, String> ids = new HashMap<>();
    for (GraphNode node : graph.nodes()) {
      String id = "n" + ids.size();
      ids.put(node.id(), id);
      String label = mermaidText(node.name()) + node.lines().stream().map(l -> "<br/>" + mermaidText(l))
          .reduce("", String::concat);
      out.append("  ").append(id).append(node.kind() == GraphNode.Kind.DATASET ? "[(\"" : "[\"").append(label)
          .append(node.kind() == GraphNode.Kind.DATASET ? "\")]" : "\"]").append('\n');
    }
    for (GraphEdge edge : graph.edges()) {
      out.append("  ").append(ids.get(edge.from())).append(" --> ").append(ids.get(edge.to())).append('\n');
    }
    List<String> stale = graph.nodes().stream().filter(GraphNode::stale).map(n -> ids.get(n.id())).toList();
    if (!stale.isEmpty()) {
      out.append("  classDef stale stroke:#d08000,stroke-width:3px,stroke-dasharray:6 3\n  class ")
          .append(String.join(",", stale)).append(" stale\n");
    }
    return out.toString();
  }

  private static String mermaidText(String text) {
    return text.replace("\"", "#quot;").replace("<", "#lt;").replace(">", "#gt;");
  }

  /** A JavaScript string literal that cannot end the script element it sits in. */
  static String json(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '<' -> out.append("\\u003c");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
