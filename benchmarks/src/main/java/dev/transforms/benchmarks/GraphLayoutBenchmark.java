package dev.transforms.benchmarks;

import dev.transforms.graph.GraphLayout;
import dev.transforms.graph.GraphWriter;
import dev.transforms.graph.NodeFacts;
import dev.transforms.graph.PipelineGraph;
import dev.transforms.graph.SyntheticPipeline;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * How long {@code transforms graph} takes to lay out and draw generated pipelines of growing size (the
 * catalog reads left out): the graph from the plan, the Eclipse Layout Kernel's layered layout, and
 * the whole self-contained page. The target is a 200-transform pipeline in under 2 s.
 *
 * <p>Run: {@code java -cp "$CP" dev.transforms.benchmarks.GraphLayoutBenchmark 15} (see docs/benchmarks.md).
 */
public final class GraphLayoutBenchmark {

  private GraphLayoutBenchmark() {}

  /**
   * Prints one row per case.
   *
   * @param args the number of measured runs per case (default 15)
   * @throws Exception if a case fails
   */
  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    Harness.header();
    for (int size : new int[] {20, 50, 200}) {
      PipelineGraph graph = PipelineGraph.of(SyntheticPipeline.generate(size, 42), NodeFacts.planOnly());
      String label = size + " transforms, " + graph.nodes().size() + " nodes, " + graph.edges().size() + " edges";
      Harness.row("layout, " + label, Harness.measure(3, runs, () -> GraphLayout.of(graph)));
      Harness.row("html page, " + label, Harness.measure(3, runs,
          () -> GraphWriter.write(graph, GraphWriter.Format.html, "benchmark")));
      Harness.row("layout, this thread's CPU time, " + size + " transforms", layoutCpu(graph, runs));
    }
  }

  /** Milliseconds of this thread's CPU time per layout, sorted: what a loaded machine's wall time hides. */
  private static double[] layoutCpu(PipelineGraph graph, int runs) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[] millis = new double[runs];
    for (int i = 0; i < runs; i++) {
      long start = threads.getCurrentThreadCpuTime();
      GraphLayout.of(graph);
      millis[i] = (threads.getCurrentThreadCpuTime() - start) / 1e6;
    }
    java.util.Arrays.sort(millis);
    return millis;
  }
}
