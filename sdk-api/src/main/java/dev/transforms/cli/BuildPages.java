package dev.transforms.cli;

import dev.transforms.cli.report.BuildReportPage;
import dev.transforms.cli.report.LastBuilds;
import dev.transforms.cli.report.TimedResult;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.TransformsConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What {@code transforms build} writes besides its text report: the record of each transform's last
 * build in the warehouse ({@link LastBuilds}) and, with {@code --report}, the build's page.
 */
final class BuildPages {

  private BuildPages() {}

  static void write(TransformsConfig config, BuildReport report, List<TimedResult> timed, Optional<Path> page,
      PrintWriter out, PrintWriter err) {
    try {
      LastBuilds.record(config.warehouse(), timed, config.masker());
    } catch (UncheckedIOException e) {
      err.println("warning: " + e.getMessage() + " (" + e.getCause().getMessage() + "); transforms graph will not"
          + " show this build");
    }
    if (page.isPresent()) {
      try {
        Files.writeString(page.get(), BuildReportPage.render(report, timed, config.masker()), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot write the build page " + page.get(), e);
      }
      out.println("Build page: " + page.get());
      out.flush();
    }
  }
}
