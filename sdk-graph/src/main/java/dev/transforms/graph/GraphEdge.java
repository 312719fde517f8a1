package dev.transforms.graph;

/**
 * An edge of the pipeline graph: a dataset read by a transform, or a transform writing a dataset.
 *
 * @param from the id of the node it leaves
 * @param to the id of the node it enters
 */
public record GraphEdge(String from, String to) {}
