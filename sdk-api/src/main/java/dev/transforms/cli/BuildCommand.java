package dev.transforms.cli;

import dev.transforms.Transforms;
import dev.transforms.cli.report.BuildReportPage;
import dev.transforms.cli.report.LastBuilds;
import dev.transforms.cli.report.OutputFiles;
import dev.transforms.cli.report.TimedResult;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.Counts;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.SharedStorageCheck;
import dev.transforms.runtime.secrets.CauseChain;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code transforms build}: runs transforms in dependency order and prints the report; records each
 * transform's last build in the warehouse ({@link LastBuilds}) and, with {@code --report}, writes the
 * build's page.
 */
@Command(name = "build", description = "Builds transforms (all, or the named ones with their upstream).",
    footer = {"", "Examples:",
        "  transforms build",
        "  transforms build CleanOrders.cleanOrders --report build.html",
        "  transforms build --branch new-totals",
        "  transforms build --config team.properties --verbose"})
final class BuildCommand implements Callable<Integer> {
  @ParentCommand TransformsCli parent;

  @Spec CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "TRANSFORM", arity = "0..*", description = "Build only these transforms and their upstream.")
  List<String> names = new ArrayList<>();

  @Option(names = "--report", paramLabel = "FILE.html",
      description = "Also write the build as a self-contained HTML page: timeline, rows, reasons, failures.")
  Path reportFile;

  @Option(names = "--full", description = "Build the named transforms (all, when none is named) in full, whatever "
      + "their incremental state: after a change an incremental build cannot make.")
  boolean full;

  @Option(names = "--force", description = "Run the named transforms (all, when none is named) even when they are "
      + "up to date: after a change the SDK cannot see, such as a library upgrade.")
  boolean force;

  @Option(names = "--threads", paramLabel = "N", description = "Run at most N transforms at once, each as soon as "
      + "its upstream has published (default: build.threads, or the machine's cores, at most 8). 1 runs them one "
      + "by one, in plan order.", converter = ThreadCount.class)
  Integer threads;

  @Option(names = "--fail-fast", description = "After the first failure, start no other transform; those running "
      + "finish and publish or discard as usual.")
  boolean failFast;

  @Option(names = "--branch", paramLabel = "NAME", description = "Build on branch NAME: read each input at NAME "
      + "where it has it, else along branch.fallbacks (main unless set), and publish every output to its branch "
      + "NAME; main is untouched. Then: transforms promote NAME, or transforms branch drop NAME.")
  String branch;

  @Override
  public Integer call() {
    if (branch != null) {
      BranchCommand.checkName(spec, branch);
    }
    TransformsConfig config = parent.loadConfig();
    PrintWriter out = parent.out();
    Optional<Path> reportPath = Optional.ofNullable(reportFile).map(f -> parent.workingDirectory().resolve(f));
    reportPath.ifPresent(f -> OutputFiles.checkWritable(spec.commandLine(), "--report", f));
    Map<String, Instant> startedAt = new java.util.HashMap<>();
    List<TimedResult> timed = new ArrayList<>();
    SharedStorageCheck.warnings(config, SharedStorageCheck.sparkMaster(config))
        .forEach(warning -> parent.spec.commandLine().getErr().println("warning: " + warning));
    return StopOnSignal.installed().run(cancellation -> {
      BuildReport report;
      Optional<String> nothingBuilt;
      try (Transforms transforms = Transforms.open(config)) {
        Transforms.Selection selection = parent.selection().only(names).cancellation(cancellation);
        selection = full ? selection.full() : selection;
        selection = force ? selection.force() : selection;
        selection = threads != null ? selection.threads(threads) : selection;
        selection = failFast ? selection.failFast() : selection;
        selection = branch != null ? selection.branch(branch) : selection;
        report = transforms.build(selection.listener(new BuildListener() {
          @Override
          public void planned(List<String> transforms) {
            // The catalogs the mounts use: the embedded one, and its warehouse folder, only when one does.
            Set<String> mounted = new TreeSet<>();
            config.mounts().forEach(mount -> mounted.add(mount.catalog()));
            out.printf("Building %s%s with catalogs %s%s%n", Counts.of(transforms.size(), "transform"),
                branch == null ? "" : " on branch " + branch, mounted,
                mounted.contains(TransformsConfig.DEFAULT_CATALOG) ? " (warehouse " + config.warehouse() + ")" : "");
            out.flush();
          }

          @Override
          public void started(String transform, int position, int total) {
            startedAt.put(transform, Instant.now());
            out.printf("[%d/%d] %s ...%n", position, total, transform);
            out.flush();
          }

          @Override
          public void finished(TransformResult result, int position, int total) {
            Instant finished = Instant.now();
            timed.add(new TimedResult(result,
                startedAt.getOrDefault(result.transform(), finished.minus(result.duration())), finished));
            String why = result.error().map(e -> CauseChain.of(e, config.masker()).summary())
                .orElse(result.reason());
            out.printf("[%d/%d] %s %s%s%n", position, total, result.transform(), result.status(),
                why.isEmpty() ? "" : " (" + why + ")");
            out.flush();
          }
        }));
        nothingBuilt = nothingBuiltOnBranch(transforms, report);
      }
      out.print(report.format());
      nothingBuilt.ifPresent(out::println);
      out.flush();
      writePages(config, branch, report, timed, reportPath, out, parent.err());
      if (parent.verbose) {
        for (TransformResult result : report.results()) {
          result.error().ifPresent(e -> out.printf("Stack trace of %s:%n%s", result.transform(),
              CauseChain.stackTrace(e, config.masker())));
        }
        out.flush();
      }
      return report.succeeded() ? ExitCodes.OK : ExitCodes.FAILED;
    }, error -> parent.report(error, parent.err()));
  }

  /**
   * For a branch build where every transform was up to date: that nothing was built on the branch, and
   * why. With no output having the branch yet, the transforms were up to date with {@code main}, so no
   * branch was cut.
   */
  private Optional<String> nothingBuiltOnBranch(Transforms transforms, BuildReport report) {
    if (branch == null || report.results().isEmpty()
        || !report.results().stream().allMatch(r -> r.status() == TransformResult.Status.UP_TO_DATE)) {
      return Optional.empty();
    }
    if (transforms.branches(parent.selection()).containsKey(branch)) {
      return Optional.of("Nothing was built on branch " + branch + ": every transform is up to date on it");
    }
    return Optional.of("Nothing was built on branch " + branch + ": every transform is up to date with main, so no "
        + "output has the branch (none was cut) and promote would have nothing to promote. Change an input on the "
        + "branch or the code, or build with --force, to build on it.");
  }

  /**
   * What a build writes besides its text report: the record of its last builds (a branch's apart from
   * {@code main}'s), and the page.
   */
  private static void writePages(TransformsConfig config, String branch, BuildReport report, List<TimedResult> timed,
      Optional<Path> page, PrintWriter out, PrintWriter err) {
    String built = branch == null ? org.apache.iceberg.SnapshotRef.MAIN_BRANCH : branch;
    try {
      LastBuilds.record(config.warehouse(), built, timed, config.masker());
    } catch (UncheckedIOException e) {
      err.println("warning: " + e.getMessage() + " (" + e.getCause().getMessage() + "); transforms graph will not"
          + " show this build");
    }
    if (page.isPresent()) {
      try {
        Files.writeString(page.get(), BuildReportPage.render(report, timed, config.masker(), built),
            StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot write the build page " + page.get(), e);
      }
      out.println("Build page: " + page.get());
      out.flush();
    }
  }

  /** Reads {@code --threads}: a whole number from 1 to 256, or one error saying so, whatever was given. */
  static final class ThreadCount implements CommandLine.ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      String given = value.strip();
      try {
        int threads = Integer.parseInt(given);
        if (threads >= 1 && threads <= 256) {
          return threads;
        }
      } catch (NumberFormatException e) {
        // refused below, with the same words as a number out of range
      }
      throw new CommandLine.TypeConversionException("'" + value + "' is not a whole number from 1 to 256");
    }
  }
}
