/**
 * {@code transforms graph}: the pipeline as a graph of transforms and datasets, laid out by the
 * Eclipse Layout Kernel and written as a self-contained HTML page, SVG, DOT or Mermaid. It joins the
 * command line through {@code dev.transforms.cli.CommandExtension}.
 *
 * <p><b>Internal.</b> Not API: it may change in any release. Users run {@code transforms graph}; what
 * they may import is listed in {@code docs/architecture.md}.
 */
package dev.transforms.graph;
