package dev.transforms.graph;

import dev.transforms.cli.TransformsCli;
import dev.transforms.cli.report.LastBuilds;
import dev.transforms.cli.report.OutputFiles;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.build.BuildOptions;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.config.BranchNames;
import dev.transforms.runtime.internal.publish.BuildBranch;
import dev.transforms.runtime.spi.TransformSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code transforms graph}: writes the pipeline as a picture. Transforms and datasets are nodes laid
 * out left to right by dependency; each dataset shows its catalog table, current snapshot, rows and
 * age, each transform its engine and last build; outputs whose inputs moved on are marked stale.
 */
@Command(name = "graph", description = "Writes the pipeline's lineage graph as an HTML page, SVG, DOT or Mermaid.")
public final class GraphCommand implements Callable<Integer> {

  @ParentCommand TransformsCli parent;

  @Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "html",
      description = "html (default: one self-contained page), svg, dot or mermaid.")
  GraphWriter.Format format;

  @Option(names = {"--output", "-o"}, paramLabel = "FILE",
      description = "Where to write it (default: pipeline-graph.html, .svg, .dot or .mmd here); - for the standard output.")
  Path output;

  @Option(names = "--select", paramLabel = "SELECTION", split = ",",
      description = "Only these transforms: NAME, NAME+ (and downstream), +NAME (and upstream), +NAME+.")
  List<String> selections = new ArrayList<>();

  @Option(names = "--plan-only", description = "Draw the plan alone, without reading the catalog.")
  boolean planOnly;

  @Option(names = "--branch", paramLabel = "NAME", description = "Draw the pipeline as branch NAME holds it: each "
      + "table at its branch NAME (main where it is not cut), the last builds of NAME, staleness as a build of NAME "
      + "would find it.")
  String branch;

  @Override
  public Integer call() {
    if (branch != null) {
      try {
        BranchNames.check(branch);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
      }
    }
    TransformsConfig config = parent.loadConfig();
    List<TransformSpec> everything = parent.plan(List.of()).transforms();
    List<TransformSpec> selected;
    try {
      selected = PipelineGraph.select(everything, selections);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    boolean toStdout = output != null && output.toString().equals("-");
    Path file = toStdout ? null : parent.workingDirectory().resolve(
        output != null ? output : Path.of("pipeline-graph" + format.extension()));
    if (file != null) {
      OutputFiles.checkWritable(spec.commandLine(), "--output", file);
    }
    PipelineGraph graph;
    if (planOnly) {
      graph = PipelineGraph.of(selected, everything, NodeFacts.planOnly());
    } else {
      try (Catalogs catalogs = new Catalogs(config)) {
        BuildBranch on = BuildOptions.NONE.withBranch(branch, config.values()).branch();
        graph = PipelineGraph.of(selected, everything, new CatalogFacts(catalogs, config,
            LastBuilds.read(config.warehouse(), on.name()), Instant.now(), on));
      }
    }
    String text = GraphWriter.write(graph, format, "Pipeline graph" + (branch == null ? "" : " on branch " + branch)
        + (selections.isEmpty() ? "" : " (" + String.join(", ", selections) + ")"));
    if (toStdout) {
      parent.out().print(text);
    } else {
      try {
        Files.writeString(file, text, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot write the graph to " + file, e);
      }
      long transforms = graph.nodes().stream().filter(n -> n.kind() == GraphNode.Kind.TRANSFORM).count();
      parent.out().printf("Wrote the graph of %s and %s to %s%n", dev.transforms.runtime.Counts.of(transforms, "transform"),
          dev.transforms.runtime.Counts.of(graph.nodes().size() - transforms, "dataset"), file);
    }
    parent.out().flush();
    return TransformsCli.OK;
  }
}
