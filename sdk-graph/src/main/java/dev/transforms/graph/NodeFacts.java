package dev.transforms.graph;

import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the graph says about each node. {@link #planOnly()} knows only the plan; {@link CatalogFacts}
 * adds what the catalog and the last builds tell.
 */
public interface NodeFacts {

  /**
   * The node of a transform.
   *
   * @param spec the transform
   * @return its node
   */
  GraphNode transform(TransformSpec spec);

  /**
   * The node of a dataset.
   *
   * @param declared the parameter that declares it (an output when some transform writes it)
   * @param producer the transform that writes it, or {@code null} for a source dataset
   * @return its node
   */
  GraphNode dataset(ParameterSpec declared, TransformSpec producer);

  /**
   * Facts from the plan alone: engine, incremental or not, kind of dataset.
   *
   * @return the facts
   */
  static NodeFacts planOnly() {
    return new NodeFacts() {
      @Override
      public GraphNode transform(TransformSpec spec) {
        return new GraphNode(GraphNode.transformId(spec.name()), GraphNode.Kind.TRANSFORM, spec.name(),
            List.of(engineLine(spec)), planDetails(spec), "NONE", false);
      }

      @Override
      public GraphNode dataset(ParameterSpec declared, TransformSpec producer) {
        String path = declared.requirePath().toString();
        Map<String, String> details = new LinkedHashMap<>();
        details.put("path", path);
        details.put("produced by", producer == null ? "none (a source)" : producer.name());
        return new GraphNode(GraphNode.datasetId(path), GraphNode.Kind.DATASET, path, List.of(), details,
            "TABLE", false);
      }
    };
  }

  /**
   * The line under a transform's name: its engine, and whether it is incremental.
   *
   * @param spec the transform
   * @return the line
   */
  static String engineLine(TransformSpec spec) {
    return spec.engine() + (spec.incremental().isPresent() ? ", incremental" : ", full");
  }

  /**
   * What the plan tells of a transform: engine, incremental, description, method.
   *
   * @param spec the transform
   * @return the details, in display order
   */
  static Map<String, String> planDetails(TransformSpec spec) {
    Map<String, String> details = new LinkedHashMap<>();
    details.put("transform", spec.name());
    details.put("engine", spec.engine());
    details.put("incremental", spec.incremental().isPresent() ? "yes" : "no");
    if (!spec.description().isEmpty()) {
      details.put("description", spec.description());
    }
    details.put("method", spec.method().getDeclaringClass().getName() + "." + spec.method().getName());
    return details;
  }
}
