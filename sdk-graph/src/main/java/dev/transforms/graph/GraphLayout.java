package dev.transforms.graph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.elk.alg.layered.options.LayeredMetaDataProvider;
import org.eclipse.elk.alg.layered.options.LayeredOptions;
import org.eclipse.elk.core.RecursiveGraphLayoutEngine;
import org.eclipse.elk.core.data.LayoutMetaDataService;
import org.eclipse.elk.core.options.CoreOptions;
import org.eclipse.elk.core.options.Direction;
import org.eclipse.elk.core.options.EdgeRouting;
import org.eclipse.elk.core.util.BasicProgressMonitor;
import org.eclipse.elk.graph.ElkBendPoint;
import org.eclipse.elk.graph.ElkEdge;
import org.eclipse.elk.graph.ElkEdgeSection;
import org.eclipse.elk.graph.ElkNode;
import org.eclipse.elk.graph.util.ElkGraphUtil;

/**
 * Places the nodes of a pipeline graph left to right by dependency, with the layered algorithm of the
 * Eclipse Layout Kernel (layers, crossing minimisation, node placement, orthogonal edge routes).
 *
 * @param nodes each node's box by node id
 * @param edges each edge's route, in the graph's edge order
 * @param width the drawing's width
 * @param height the drawing's height
 */
public record GraphLayout(Map<String, Box> nodes, List<Route> edges, double width, double height) {

  /** The width of a character in the drawing, for sizing boxes (12 px monospace-ish text). */
  static final double CHAR_WIDTH = 7.2;
  /** The height of a line of text. */
  static final double LINE_HEIGHT = 16;
  /** The space around text inside a box. */
  static final double PADDING = 8;

  /**
   * A node's place.
   *
   * @param x left
   * @param y top
   * @param width width
   * @param height height
   */
  public record Box(double x, double y, double width, double height) {}

  /**
   * An edge's route: a polyline from the source's box to the target's.
   *
   * @param edge the edge
   * @param points the points, at least two
   */
  public record Route(GraphEdge edge, List<double[]> points) {}

  private static boolean registered;

  /**
   * Registers the layered algorithm and its options once; outside Eclipse nothing else does, and ELK
   * cannot copy its option values without it.
   */
  private static synchronized void registerLayered() {
    if (!registered) {
      LayoutMetaDataService.getInstance().registerLayoutMetaDataProviders(new LayeredMetaDataProvider());
      registered = true;
    }
  }

  /**
   * Lays a graph out.
   *
   * @param graph the graph
   * @return where each node and edge goes
   */
  public static GraphLayout of(PipelineGraph graph) {
    registerLayered();
    ElkNode root = ElkGraphUtil.createGraph();
    root.setProperty(CoreOptions.ALGORITHM, LayeredOptions.ALGORITHM_ID);
    root.setProperty(LayeredOptions.DIRECTION, Direction.RIGHT);
    root.setProperty(LayeredOptions.EDGE_ROUTING, EdgeRouting.ORTHOGONAL);
    root.setProperty(LayeredOptions.SPACING_NODE_NODE, 20.0);
    root.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 40.0);
    root.setProperty(LayeredOptions.PADDING, new org.eclipse.elk.core.math.ElkPadding(12));
    // Unconnected parts of the pipeline go in rows no wider than the drawing is high (ELK's default of
    // 1.6 sets them side by side): the page scales the drawing to the window's width and scrolls it
    // down, so a narrow drawing stays legible where a wide one would shrink or scroll sideways.
    root.setProperty(LayeredOptions.ASPECT_RATIO, 1.0);
    Map<String, ElkNode> elkNodes = new LinkedHashMap<>();
    for (GraphNode node : graph.nodes()) {
      ElkNode elk = ElkGraphUtil.createNode(root);
      elk.setIdentifier(node.id());
      int longest = node.name().length();
      for (String line : node.lines()) {
        longest = Math.max(longest, line.length());
      }
      elk.setDimensions(Math.max(80, longest * CHAR_WIDTH + 2 * PADDING),
          (1 + node.lines().size()) * LINE_HEIGHT + 2 * PADDING);
      elkNodes.put(node.id(), elk);
    }
    Map<ElkEdge, GraphEdge> elkEdges = new HashMap<>();
    List<ElkEdge> ordered = new ArrayList<>();
    for (GraphEdge edge : graph.edges()) {
      ElkEdge elk = ElkGraphUtil.createSimpleEdge(elkNodes.get(edge.from()), elkNodes.get(edge.to()));
      elkEdges.put(elk, edge);
      ordered.add(elk);
    }
    new RecursiveGraphLayoutEngine().layout(root, new BasicProgressMonitor());

    Map<String, Box> boxes = new LinkedHashMap<>();
    elkNodes.forEach((id, n) -> boxes.put(id, new Box(n.getX(), n.getY(), n.getWidth(), n.getHeight())));
    List<Route> routes = new ArrayList<>();
    for (ElkEdge elk : ordered) {
      List<double[]> points = new ArrayList<>();
      for (ElkEdgeSection section : elk.getSections()) {
        points.add(new double[] {section.getStartX(), section.getStartY()});
        for (ElkBendPoint bend : section.getBendPoints()) {
          points.add(new double[] {bend.getX(), bend.getY()});
        }
        points.add(new double[] {section.getEndX(), section.getEndY()});
      }
      if (points.isEmpty()) {
        // No route computed: a straight line between the boxes' facing sides.
        Box from = boxes.get(elkEdges.get(elk).from());
        Box to = boxes.get(elkEdges.get(elk).to());
        points.add(new double[] {from.x() + from.width(), from.y() + from.height() / 2});
        points.add(new double[] {to.x(), to.y() + to.height() / 2});
      }
      routes.add(new Route(elkEdges.get(elk), points));
    }
    return new GraphLayout(boxes, routes, root.getWidth(), root.getHeight());
  }
}
