package dev.transforms.graph;

import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pipeline as a graph: a node per transform and per dataset, an edge from each input to its
 * transform and from each transform to its outputs.
 *
 * @param nodes the nodes, transforms in the order given, each followed by its datasets not seen before
 * @param edges the edges
 */
public record PipelineGraph(List<GraphNode> nodes, List<GraphEdge> edges) {

  /**
   * Copies the lists so the graph stays immutable.
   *
   * @param nodes the nodes
   * @param edges the edges
   */
  public PipelineGraph {
    nodes = List.copyOf(nodes);
    edges = List.copyOf(edges);
  }

  /**
   * The graph of some transforms and the datasets they read and write.
   *
   * @param transforms the transforms, in plan order
   * @param facts what each node says
   * @return the graph
   */
  public static PipelineGraph of(List<TransformSpec> transforms, NodeFacts facts) {
    return of(transforms, transforms, facts);
  }

  /**
   * The graph of some transforms of a pipeline and the datasets they read and write; a dataset that a
   * transform left out writes still names it as its producer.
   *
   * @param transforms the transforms to draw, in plan order
   * @param everything every transform of the pipeline
   * @param facts what each node says
   * @return the graph
   */
  public static PipelineGraph of(List<TransformSpec> transforms, List<TransformSpec> everything, NodeFacts facts) {
    Map<DatasetPath, TransformSpec> producers = producers(everything);
    Map<String, GraphNode> nodes = new LinkedHashMap<>();
    Set<GraphEdge> edges = new LinkedHashSet<>();
    for (TransformSpec spec : transforms) {
      String id = GraphNode.transformId(spec.name());
      nodes.put(id, facts.transform(spec));
      for (ParameterSpec input : spec.inputs()) {
        DatasetPath path = input.requirePath();
        String dataset = GraphNode.datasetId(path.toString());
        if (!nodes.containsKey(dataset)) {
          TransformSpec producer = producers.get(path);
          ParameterSpec declared = producer == null ? input : producer.outputs().stream()
              .filter(o -> o.requirePath().equals(path)).findFirst().orElse(input);
          nodes.put(dataset, facts.dataset(declared, producer));
        }
        edges.add(new GraphEdge(dataset, id));
      }
      for (ParameterSpec output : spec.outputs()) {
        String dataset = GraphNode.datasetId(output.requirePath().toString());
        nodes.putIfAbsent(dataset, facts.dataset(output, spec));
        edges.add(new GraphEdge(id, dataset));
      }
    }
    return new PipelineGraph(new ArrayList<>(nodes.values()), new ArrayList<>(edges));
  }

  /**
   * The transforms that a selection names, dbt style: {@code NAME} alone, {@code NAME+} with everything
   * downstream, {@code +NAME} with everything upstream, {@code +NAME+} both. Several selections add up.
   *
   * @param transforms every transform, in plan order
   * @param selections the selections; none selects everything
   * @return the selected transforms, in plan order
   * @throws IllegalArgumentException naming the selection, if it names no transform
   */
  public static List<TransformSpec> select(List<TransformSpec> transforms, Collection<String> selections) {
    if (selections.isEmpty()) {
      return transforms;
    }
    Map<DatasetPath, TransformSpec> producers = producers(transforms);
    Map<String, Set<String>> upstream = new HashMap<>();
    Map<String, Set<String>> downstream = new HashMap<>();
    for (TransformSpec spec : transforms) {
      upstream.computeIfAbsent(spec.name(), k -> new LinkedHashSet<>());
      downstream.computeIfAbsent(spec.name(), k -> new LinkedHashSet<>());
    }
    for (TransformSpec spec : transforms) {
      for (DatasetPath input : spec.inputPaths()) {
        TransformSpec producer = producers.get(input);
        if (producer != null) {
          upstream.get(spec.name()).add(producer.name());
          downstream.get(producer.name()).add(spec.name());
        }
      }
    }
    Set<String> wanted = new LinkedHashSet<>();
    for (String selection : selections) {
      boolean up = selection.startsWith("+");
      boolean down = selection.endsWith("+") && selection.length() > 1;
      String name = selection.substring(up ? 1 : 0, selection.length() - (down ? 1 : 0));
      if (!upstream.containsKey(name)) {
        throw new IllegalArgumentException("--select " + selection + ": no transform is named '" + name + "'"
            + dev.transforms.runtime.internal.plan.NameChoices.meant(name, upstream.keySet())
                .map(n -> " (did you mean " + n + "?)").orElse("")
            + "; use NAME, NAME+ (and downstream), +NAME (and upstream) or +NAME+, with one of: "
            + dev.transforms.runtime.internal.plan.NameChoices.describe(name, upstream.keySet()));
      }
      wanted.add(name);
      if (up) {
        wanted.addAll(closure(name, upstream));
      }
      if (down) {
        wanted.addAll(closure(name, downstream));
      }
    }
    return transforms.stream().filter(t -> wanted.contains(t.name())).toList();
  }

  private static Set<String> closure(String start, Map<String, Set<String>> next) {
    Set<String> seen = new LinkedHashSet<>();
    Deque<String> queue = new ArrayDeque<>(next.get(start));
    while (!queue.isEmpty()) {
      String name = queue.poll();
      if (seen.add(name)) {
        queue.addAll(next.get(name));
      }
    }
    return seen;
  }

  private static Map<DatasetPath, TransformSpec> producers(List<TransformSpec> transforms) {
    Map<DatasetPath, TransformSpec> producers = new HashMap<>();
    for (TransformSpec spec : transforms) {
      spec.outputPaths().forEach(path -> producers.put(path, spec));
    }
    return producers;
  }
}
