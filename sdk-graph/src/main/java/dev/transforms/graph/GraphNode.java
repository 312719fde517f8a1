package dev.transforms.graph;

import java.util.List;
import java.util.Map;

/**
 * A node of the pipeline graph: a transform or a dataset.
 *
 * @param id unique in the graph: {@code transform:NAME} or {@code dataset:/path}
 * @param kind transform or dataset
 * @param name the transform's name or the dataset's path
 * @param lines the short facts drawn inside the node, under its name
 * @param details every fact, shown when the node is selected, in order
 * @param status the last build's status for a transform ({@code SUCCEEDED}, {@code FAILED}, {@code SKIPPED},
 *     {@code PUBLISHED} when only the catalog knows it, {@code NONE} when never built); for a dataset,
 *     {@code TABLE}, {@code MISSING} or {@code FILES}
 * @param stale whether the transform (or the dataset's producer) would run in a build: its inputs, code or
 *     settings changed since its last build
 */
public record GraphNode(String id, Kind kind, String name, List<String> lines, Map<String, String> details,
    String status, boolean stale) {

  /**
   * Copies the collections so the node stays immutable.
   *
   * @param id the id
   * @param kind the kind
   * @param name the name
   * @param lines the short facts
   * @param details every fact
   * @param status the status
   * @param stale whether stale
   */
  public GraphNode {
    lines = List.copyOf(lines);
    details = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(details));
  }

  /** What a node stands for. */
  public enum Kind {
    /** A transform. */
    TRANSFORM,
    /** A dataset: a table or a folder of files. */
    DATASET
  }

  /**
   * The id of a transform's node.
   *
   * @param name the transform's name
   * @return the id
   */
  public static String transformId(String name) {
    return "transform:" + name;
  }

  /**
   * The id of a dataset's node.
   *
   * @param path the dataset's path
   * @return the id
   */
  public static String datasetId(String path) {
    return "dataset:" + path;
  }
}
