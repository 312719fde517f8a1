package dev.transforms.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.transforms.runtime.spi.TransformSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class PipelineGraphTest {

  /** /src -> clean -> /clean -> {daily, joined}; joined also reads /src; other is unrelated. */
  static final List<TransformSpec> PIPELINE = List.of(
      SyntheticPipeline.transform("clean", List.of("/src"), List.of("/clean"), "spark"),
      SyntheticPipeline.transform("daily", List.of("/clean"), List.of("/daily"), "single-node"),
      SyntheticPipeline.transform("joined", List.of("/clean", "/src"), List.of("/joined"), "spark"),
      SyntheticPipeline.transform("other", List.of("/elsewhere"), List.of("/other"), "spark"));

  private static Set<String> ids(PipelineGraph graph) {
    return graph.nodes().stream().map(GraphNode::id).collect(Collectors.toSet());
  }

  private static Set<String> names(List<TransformSpec> specs) {
    return specs.stream().map(TransformSpec::name).collect(Collectors.toSet());
  }

  @Test
  void everyTransformAndDatasetIsANodeAndEveryReadAndWriteAnEdge() {
    PipelineGraph graph = PipelineGraph.of(PIPELINE, NodeFacts.planOnly());
    assertThat(ids(graph)).containsExactlyInAnyOrder("transform:clean", "transform:daily", "transform:joined",
        "transform:other", "dataset:/src", "dataset:/clean", "dataset:/daily", "dataset:/joined",
        "dataset:/elsewhere", "dataset:/other");
    assertThat(graph.edges()).containsExactlyInAnyOrder(
        new GraphEdge("dataset:/src", "transform:clean"), new GraphEdge("transform:clean", "dataset:/clean"),
        new GraphEdge("dataset:/clean", "transform:daily"), new GraphEdge("transform:daily", "dataset:/daily"),
        new GraphEdge("dataset:/clean", "transform:joined"), new GraphEdge("dataset:/src", "transform:joined"),
        new GraphEdge("transform:joined", "dataset:/joined"),
        new GraphEdge("dataset:/elsewhere", "transform:other"), new GraphEdge("transform:other", "dataset:/other"));
    GraphNode clean = graph.nodes().stream().filter(n -> n.id().equals("transform:clean")).findFirst().orElseThrow();
    assertThat(clean.lines()).containsExactly("spark, full");
    assertThat(clean.details()).containsEntry("engine", "spark").containsEntry("incremental", "no");
  }

  @Test
  void selectionsFollowDbtsPlusSigns() {
    assertThat(names(PipelineGraph.select(PIPELINE, List.of("clean+")))).containsExactlyInAnyOrder("clean", "daily", "joined");
    assertThat(names(PipelineGraph.select(PIPELINE, List.of("+daily")))).containsExactlyInAnyOrder("clean", "daily");
    assertThat(names(PipelineGraph.select(PIPELINE, List.of("daily")))).containsExactly("daily");
    assertThat(names(PipelineGraph.select(PIPELINE, List.of("daily", "other")))).containsExactlyInAnyOrder("daily", "other");
    assertThat(names(PipelineGraph.select(PIPELINE, List.of()))).hasSize(4);
    PipelineGraph upstreamOfDaily = PipelineGraph.of(PipelineGraph.select(PIPELINE, List.of("+daily")), PIPELINE,
        NodeFacts.planOnly());
    assertThat(ids(upstreamOfDaily)).containsExactlyInAnyOrder("transform:clean", "transform:daily", "dataset:/src",
        "dataset:/clean", "dataset:/daily");
    // A dataset written by a transform left out still names its producer.
    PipelineGraph dailyAlone = PipelineGraph.of(PipelineGraph.select(PIPELINE, List.of("daily")), PIPELINE,
        NodeFacts.planOnly());
    assertThat(dailyAlone.nodes().stream().filter(n -> n.id().equals("dataset:/clean")).findFirst().orElseThrow()
        .details()).containsEntry("produced by", "clean");
  }

  @Test
  void aSelectionOfNoTransformIsAnErrorNamingIt() {
    assertThatThrownBy(() -> PipelineGraph.select(PIPELINE, List.of("nope+")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--select nope+").hasMessageContaining("no transform is named 'nope'")
        .hasMessageContaining("clean, daily, joined, other");
    assertThatThrownBy(() -> PipelineGraph.select(PIPELINE, List.of("+")))
        .hasMessageContaining("--select +");
  }

  @Test
  void theLayoutRunsLeftToRightWithoutOverlaps() {
    PipelineGraph graph = PipelineGraph.of(SyntheticPipeline.generate(40, 7), NodeFacts.planOnly());
    GraphLayout layout = GraphLayout.of(graph);
    assertThat(layout.nodes()).hasSize(graph.nodes().size());
    assertThat(layout.edges()).hasSize(graph.edges().size());
    for (GraphEdge edge : graph.edges()) {
      GraphLayout.Box from = layout.nodes().get(edge.from());
      GraphLayout.Box to = layout.nodes().get(edge.to());
      assertThat(from.x() + from.width()).as(edge.toString()).isLessThanOrEqualTo(to.x());
    }
    List<GraphLayout.Box> boxes = List.copyOf(layout.nodes().values());
    for (int i = 0; i < boxes.size(); i++) {
      for (int j = i + 1; j < boxes.size(); j++) {
        GraphLayout.Box a = boxes.get(i);
        GraphLayout.Box b = boxes.get(j);
        boolean apart = a.x() + a.width() <= b.x() || b.x() + b.width() <= a.x()
            || a.y() + a.height() <= b.y() || b.y() + b.height() <= a.y();
        assertThat(apart).as("%s and %s overlap", a, b).isTrue();
      }
    }
    for (GraphLayout.Route route : layout.edges()) {
      assertThat(route.points()).hasSizeGreaterThanOrEqualTo(2);
    }
    assertThat(layout.width()).isPositive();
    assertThat(layout.height()).isPositive();
  }

  @Test
  void unconnectedPartsOfThePipelineLieOneUnderAnother() {
    // The page scales the drawing to the window's width and scrolls it down: parts side by side would
    // make the demo's drawing wider than a window and shrink it (it was 1891 px wide and 1516 high).
    PipelineGraph graph = DemoPipeline.graph();
    GraphLayout layout = GraphLayout.of(graph);
    Map<String, String> part = new HashMap<>();
    graph.nodes().forEach(n -> part.put(n.id(), n.id()));
    UnaryOperator<String> root = new UnaryOperator<>() {
      @Override
      public String apply(String id) {
        return part.get(id).equals(id) ? id : apply(part.get(id));
      }
    };
    graph.edges().forEach(e -> part.put(root.apply(e.from()), root.apply(e.to())));
    Map<String, double[]> rows = new HashMap<>();
    layout.nodes().forEach((id, box) -> rows.merge(root.apply(id), new double[] {box.y(), box.y() + box.height()},
        (a, b) -> new double[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])}));
    assertThat(rows).as("the demo's unconnected parts").hasSize(4);
    List<double[]> spans = List.copyOf(rows.values());
    for (int i = 0; i < spans.size(); i++) {
      for (int j = i + 1; j < spans.size(); j++) {
        assertThat(spans.get(i)[1] <= spans.get(j)[0] || spans.get(j)[1] <= spans.get(i)[0])
            .as("two parts of the pipeline side by side").isTrue();
      }
    }
    assertThat(layout.width()).isLessThan(layout.height());
  }
}
