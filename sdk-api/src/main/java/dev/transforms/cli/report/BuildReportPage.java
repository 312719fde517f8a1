package dev.transforms.cli.report;

import static dev.transforms.cli.report.Html.escape;
import static dev.transforms.cli.report.Html.seconds;

import dev.transforms.runtime.Advisory;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.CheckResult;
import dev.transforms.runtime.Counts;
import dev.transforms.runtime.OutputWrites;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.secrets.CauseChain;
import dev.transforms.runtime.secrets.SecretMasker;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code transforms build --report FILE.html}: the build as one self-contained page. A timeline shows
 * each transform as a bar from its start to its end, transforms that overlapped in lanes of their own;
 * a table below gives, per transform, the engine, full or incremental and why, rows in and out of each
 * output, what recovery did, the data expectations' results and the failure with its causes. Clicking a
 * bar selects its row.
 */
public final class BuildReportPage {

  private BuildReportPage() {}

  /**
   * The page of a build.
   *
   * @param report the build's report
   * @param timed its results with start and end instants, in the order they ran
   * @param masker hides secrets in error messages
   * @return the HTML text
   */
  public static String render(BuildReport report, List<TimedResult> timed, SecretMasker masker) {
    return render(report, timed, masker, org.apache.iceberg.SnapshotRef.MAIN_BRANCH);
  }

  /**
   * The page of a build of a branch: its title names the branch.
   *
   * @param report the build's report
   * @param timed its results with start and end instants, in the order they ran
   * @param masker hides secrets in error messages
   * @param branch the branch built; {@code main} names none
   * @return the HTML text
   */
  public static String render(BuildReport report, List<TimedResult> timed, SecretMasker masker, String branch) {
    StringBuilder page = new StringBuilder();
    String title = "Build " + report.buildId() + (branch == null
        || branch.equals(org.apache.iceberg.SnapshotRef.MAIN_BRANCH) ? "" : " on branch " + branch);
    page.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(escape(title))
        .append("</title>\n<style>").append(Html.STYLE).append("""
            .lane { position: relative; height: 26px; border-bottom: 1px dotted #ddd; }
            .bar { position: absolute; top: 3px; height: 20px; border: 1px solid #888; border-radius: 3px;
                   font-size: 12px; line-height: 18px; white-space: nowrap; cursor: pointer; min-width: 4px;
                   box-sizing: border-box; }
            .bar .label { padding: 0 3px; }
            .bar.label-right .label { position: absolute; left: 100%; }
            .bar.label-left .label { position: absolute; right: 100%; }
            .bar.label-hidden .label { display: none; }
            #timeline { box-sizing: border-box; width: 100%; border: 1px solid #ccc; padding: 4px; }
            #results { width: 100%; table-layout: fixed; font-size: 13px; }
            #results td:nth-child(1), #results td:nth-child(5), #results td:nth-child(n + 7) { overflow-wrap: anywhere; }
            #results th:nth-child(1) { width: 15%; } #results th:nth-child(2) { width: 8%; }
            #results th:nth-child(3) { width: 6%; } #results th:nth-child(4) { width: 8%; }
            #results th:nth-child(5) { width: 9%; } #results th:nth-child(6) { width: 6%; }
            #results th:nth-child(7) { width: 12%; } #results th:nth-child(8) { width: 6%; }
            #results th:nth-child(9) { width: 10%; } #results th:nth-child(10) { width: 8%; }
            #results th:nth-child(11) { width: 12%; }
            """).append("</style></head>\n<body>\n");
    page.append("<h1 id=\"title\">").append(escape(title)).append(": <span id=\"status\">")
        .append(report.succeeded() ? "SUCCEEDED" : "FAILED").append("</span> in ").append(seconds(report.duration()))
        .append("</h1>\n");
    timeline(page, timed);
    details(page, timed, masker);
    page.append("""
        <script>
        // A bar's name goes inside it when it fits, else beside it where its lane is free; failing both,
        // the same for its method's name alone; failing that, only in its tooltip. Never cut.
        function placeLabels() {
          document.querySelectorAll('.lane').forEach(function (lane) {
            var bars = Array.from(lane.querySelectorAll('.bar'));
            bars.forEach(function (bar) { bar.classList.remove('label-right', 'label-left', 'label-hidden'); });
            var edge = lane.getBoundingClientRect();
            var taken = bars.map(function (bar) { var r = bar.getBoundingClientRect(); return [r.left, r.right]; });
            function free(left, right) {
              return left >= edge.left && right <= edge.right
                  && taken.every(function (t) { return right <= t[0] || left >= t[1]; });
            }
            bars.forEach(function (bar) {
              var r = bar.getBoundingClientRect(), label = bar.querySelector('.label');
              var name = bar.getAttribute('data-transform');
              // The whole name, else its method's (after the class's dot).
              var placed = [name, name.substring(name.lastIndexOf('.') + 1)].some(function (text) {
                label.textContent = text;
                var width = label.getBoundingClientRect().width;
                if (width <= bar.clientWidth) {
                  return true;
                } else if (free(r.right, r.right + width)) {
                  bar.classList.add('label-right');
                  taken.push([r.right, r.right + width]);
                  return true;
                } else if (free(r.left - width, r.left)) {
                  bar.classList.add('label-left');
                  taken.push([r.left - width, r.left]);
                  return true;
                }
                return false;
              });
              if (!placed) {
                bar.classList.add('label-hidden');
              }
            });
          });
        }
        placeLabels();
        window.addEventListener('resize', placeLabels);
        document.querySelectorAll('[data-transform]').forEach(function (el) {
          el.addEventListener('click', function () {
            document.querySelectorAll('.selected').forEach(function (s) { s.classList.remove('selected'); });
            var row = document.getElementById('row-' + el.getAttribute('data-transform'));
            if (row) { row.classList.add('selected'); row.scrollIntoView({block: 'nearest'}); }
          });
        });
        </script>
        </body></html>
        """);
    return page.toString();
  }

  /**
   * The lane of each transform's bar, by first fit: a transform goes to the first lane whose last bar
   * ended before it started, so transforms that ran at the same time sit in lanes of their own.
   *
   * @param timed the results in the order they started
   * @return the lane of each, from 0
   */
  public static List<Integer> lanes(List<TimedResult> timed) {
    List<Instant> laneEnds = new ArrayList<>();
    List<Integer> lanes = new ArrayList<>();
    for (TimedResult t : timed) {
      int lane = 0;
      while (lane < laneEnds.size() && laneEnds.get(lane).isAfter(t.started())) {
        lane++;
      }
      if (lane == laneEnds.size()) {
        laneEnds.add(t.finished());
      } else {
        laneEnds.set(lane, t.finished());
      }
      lanes.add(lane);
    }
    return lanes;
  }

  private static void timeline(StringBuilder page, List<TimedResult> timed) {
    page.append("<h2>Timeline</h2>\n<div id=\"timeline\">\n");
    if (timed.isEmpty()) {
      page.append("<p class=\"muted\">No transform ran.</p></div>\n");
      return;
    }
    Instant start = timed.stream().map(TimedResult::started).min(Instant::compareTo).orElseThrow();
    Instant end = timed.stream().map(TimedResult::finished).max(Instant::compareTo).orElseThrow();
    double span = Math.max(1, Duration.between(start, end).toNanos());
    List<Integer> lanes = lanes(timed);
    int laneCount = lanes.stream().mapToInt(Integer::intValue).max().orElse(0) + 1;
    for (int lane = 0; lane < laneCount; lane++) {
      page.append("<div class=\"lane\" data-lane=\"").append(lane).append("\">");
      for (int i = 0; i < timed.size(); i++) {
        if (lanes.get(i) != lane) {
          continue;
        }
        TimedResult t = timed.get(i);
        TransformResult r = t.result();
        double left = Duration.between(start, t.started()).toNanos() / span * 100;
        double width = Duration.between(t.started(), t.finished()).toNanos() / span * 100;
        page.append(String.format(Locale.ROOT,
                "<div class=\"bar %s\" style=\"left:%.2f%%;width:%.2f%%\" data-transform=\"%s\" title=\"%s\"><span class=\"label\">%s</span></div>",
                r.status(), left, width, escape(r.transform()),
                escape(r.transform() + " [" + r.engine() + "] " + r.status() + ", started " + t.started().truncatedTo(ChronoUnit.MILLIS) + ", "
                    + seconds(r.duration())),
                escape(r.transform())));
      }
      page.append("</div>\n");
    }
    page.append("</div>\n<p class=\"muted\">From ").append(start.truncatedTo(ChronoUnit.MILLIS)).append(" to ")
        .append(end.truncatedTo(ChronoUnit.MILLIS))
        .append("; transforms that ran at the same time are in lanes of their own.</p>\n");
  }

  private static void details(StringBuilder page, List<TimedResult> timed, SecretMasker masker) {
    page.append("<h2>Transforms</h2>\n<table id=\"results\"><tr><th>transform</th><th>status</th><th>engine</th>"
        + "<th>build</th><th>started</th><th>duration</th><th>outputs</th><th>checks</th><th>advisories</th><th>recovery</th>"
        + "<th>error</th></tr>\n");
    for (TimedResult t : timed) {
      TransformResult r = t.result();
      page.append("<tr id=\"row-").append(escape(r.transform())).append("\" class=\"").append(r.status())
          .append("\"><td>").append(escape(r.transform())).append("</td><td class=\"status\">").append(r.status())
          .append("</td><td>").append(escape(r.engine())).append("</td><td>")
          .append(built(r))
          .append(r.reason().isEmpty() ? "" : "<br><span class=\"muted\">" + escape(r.reason()) + "</span>")
          .append("</td><td>").append(t.started().truncatedTo(ChronoUnit.MILLIS)).append("</td><td>").append(seconds(r.duration()))
          .append("</td><td>");
      for (OutputWrites o : r.outputs()) {
        page.append("<div class=\"output\">").append(escape(o.path().toString())).append(" <span class=\"muted\">(")
            .append(escape(o.identifier())).append(")</span>: <span class=\"rows\">+").append(Counts.of(o.rowsAdded(), "row"))
            .append(", -").append(Counts.of(o.rowsDeleted(), "row")).append("</span>, ")
            .append(Counts.of(o.filesAdded(), "file"))
            .append(o.created() ? ", created" : "");
        for (String change : o.schemaChanges()) {
          page.append("<div class=\"schema muted\">schema: ").append(escape(change)).append("</div>");
        }
        page.append("</div>");
      }
      page.append("</td><td>");
      for (CheckResult c : r.checks()) {
        page.append("<div class=\"check ").append(c.outcome()).append("\">").append(escape(c.describe()))
            .append("</div>");
      }
      page.append("</td><td>");
      for (Advisory a : r.advisories()) {
        page.append("<div class=\"advisory\"><b>").append(escape(a.rule())).append("</b>")
            .append(a.dataset().map(d -> " " + escape(d.toString())).orElse(""))
            .append(a.detail().isEmpty() ? "" : ": " + escape(a.detail())).append("<br><span class=\"muted\">")
            .append(escape(a.reason())).append("</span><br>Fix: ").append(escape(a.fix())).append("</div>");
      }
      page.append("</td><td>");
      r.recovery().forEach(line -> page.append("<div>").append(escape(line)).append("</div>"));
      page.append("</td><td class=\"error\">");
      r.error().ifPresent(e -> page.append(escape(CauseChain.of(e, masker).format("", "  "))));
      page.append("</td></tr>\n");
    }
    page.append("</table>\n");
  }

  /** How a transform was built, as the text report says it: a skipped or up-to-date one was not. */
  private static String built(TransformResult r) {
    if (r.status() == TransformResult.Status.SKIPPED || r.status() == TransformResult.Status.UP_TO_DATE) {
      return "-";
    }
    return r.incremental() ? "incremental" : "full";
  }
}
