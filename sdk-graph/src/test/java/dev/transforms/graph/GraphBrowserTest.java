package dev.transforms.graph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.cli.report.BuildReportPage;
import dev.transforms.cli.report.TimedResult;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.secrets.SecretMasker;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Opens the graph page and the build page in headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}), checks what is drawn against the plan, clicks, checks that the demo
 * pipeline's pages fit windows 1280 and 1920 px wide, and saves screenshots under
 * {@code target/browser-test/}. Skipped, with the reason printed, when no Chromium is installed, and
 * in the Maven stage of {@code .ci/run} ({@code -Dtransforms.browser-test=skip}), which runs it in a
 * stage of its own ({@code .ci/browser-test}).
 */
class GraphBrowserTest {

  private static final Path OUT = Path.of("target", "browser-test");
  private static ChromeDriver driver;

  @BeforeAll
  static void startChromium() throws Exception {
    String skip = "browser test skipped: ";
    Assumptions.assumeFalse("skip".equals(System.getProperty("transforms.browser-test")),
        () -> say(skip + "it runs in the 'browser test' stage of .ci/run (.ci/browser-test)"));
    Path browser = Path.of(System.getenv().getOrDefault("CHROMIUM_BIN", "/usr/bin/chromium"));
    Path chromedriver = Path.of(System.getenv().getOrDefault("CHROMEDRIVER_BIN", "/usr/bin/chromedriver"));
    Assumptions.assumeTrue(Files.isExecutable(browser) && Files.isExecutable(chromedriver),
        () -> say(skip + "no Chromium found at " + browser + " and " + chromedriver
            + "; install Debian's chromium and chromium-driver (.ci/browser-test does), or set CHROMIUM_BIN and CHROMEDRIVER_BIN"));
    Files.createDirectories(OUT);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(browser.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--window-size=1400,900", "--remote-allow-origins=http://127.0.0.1");
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(chromedriver.toString())).usingAnyFreePort()
        .withLogFile(OUT.resolve("chromedriver.log").toFile()).build();
    driver = new ChromeDriver(service, options);
  }

  private static String say(String message) {
    System.out.println(message);
    return message;
  }

  @AfterAll
  static void stopChromium() {
    if (driver != null) {
      driver.quit();
    }
  }

  private static void open(Path page) {
    driver.get(page.toAbsolutePath().toUri().toString());
  }

  private static void screenshot(String name) throws Exception {
    File shot = driver.getScreenshotAs(OutputType.FILE);
    Files.copy(shot.toPath(), OUT.resolve(name), StandardCopyOption.REPLACE_EXISTING);
  }

  private static double number(String script, WebElement element) {
    return ((Number) driver.executeScript(script, element)).doubleValue();
  }

  @Test
  void theGraphPageDrawsThePlanLeftToRightAndShowsANodesDetailsOnClick() throws Exception {
    List<TransformSpec> plan = PipelineGraphTest.PIPELINE;
    Path page = OUT.resolve("graph.html");
    Files.writeString(page, GraphWriter.write(PipelineGraph.of(plan, NodeFacts.planOnly()), GraphWriter.Format.html,
        "Pipeline graph"));
    open(page);

    // What the plan says, worked out from the specs, not from the graph.
    Set<String> expectedNodes = new HashSet<>();
    Set<String> expectedEdges = new HashSet<>();
    for (TransformSpec spec : plan) {
      expectedNodes.add("transform:" + spec.name());
      for (ParameterSpec in : spec.inputs()) {
        expectedNodes.add("dataset:" + in.requirePath());
        expectedEdges.add("dataset:" + in.requirePath() + " -> transform:" + spec.name());
      }
      for (ParameterSpec out : spec.outputs()) {
        expectedNodes.add("dataset:" + out.requirePath());
        expectedEdges.add("transform:" + spec.name() + " -> dataset:" + out.requirePath());
      }
    }
    List<WebElement> nodes = driver.findElements(By.cssSelector("g.node"));
    Set<String> drawnNodes = new HashSet<>();
    nodes.forEach(n -> drawnNodes.add(n.getAttribute("data-id")));
    assertThat(drawnNodes).isEqualTo(expectedNodes);
    Set<String> drawnEdges = new HashSet<>();
    for (WebElement edge : driver.findElements(By.cssSelector("path.edge"))) {
      drawnEdges.add(edge.getAttribute("data-from") + " -> " + edge.getAttribute("data-to"));
      WebElement from = driver.findElement(By.cssSelector("g.node[data-id='" + edge.getAttribute("data-from") + "']"));
      WebElement to = driver.findElement(By.cssSelector("g.node[data-id='" + edge.getAttribute("data-to") + "']"));
      // Left to right, as rendered: each edge leaves a node that ends before the next one begins.
      assertThat(number("return arguments[0].getBoundingClientRect().right;", from))
          .isLessThanOrEqualTo(number("return arguments[0].getBoundingClientRect().left;", to));
    }
    assertThat(drawnEdges).isEqualTo(expectedEdges);
    // A small graph shows whole in the window: no node behind a scrollbar or past the window's edge.
    for (WebElement node : nodes) {
      Object hidden = driver.executeScript("var r = arguments[0].getBoundingClientRect();"
          + " var d = document.getElementById('drawing'); var b = d.getBoundingClientRect();"
          + " var right = Math.min(b.left + d.clientLeft + d.clientWidth, document.documentElement.clientWidth);"
          + " var bottom = Math.min(b.top + d.clientTop + d.clientHeight, window.innerHeight);"
          + " return r.left < b.left || r.right > right + 0.5 || r.top < b.top || r.bottom > bottom + 0.5;", node);
      assertThat(hidden).as(node.getAttribute("data-id") + " is out of sight").isEqualTo(false);
    }
    // Every node's text fits its box and stands out from its fill.
    for (WebElement node : nodes) {
      Object colours = driver.executeScript("var g = arguments[0];"
          + " return [getComputedStyle(g.querySelector('rect')).fill, getComputedStyle(g.querySelector('text')).fill];",
          node);
      assertThat(((List<?>) colours).get(1)).as(node.getAttribute("data-id")).isNotEqualTo(((List<?>) colours).get(0));
      double box = number("return arguments[0].querySelector('rect').getBoundingClientRect().width;", node);
      double text = number("return Math.max.apply(null, Array.from(arguments[0].querySelectorAll('text'))"
          + ".map(function (t) { return t.getBBox().width; }));", node);
      assertThat(text).as(node.getAttribute("data-id")).isLessThan(box);
    }

    driver.findElement(By.cssSelector("g.node[data-id='transform:joined'] rect")).click();
    assertThat(driver.findElement(By.id("details-title")).getText()).isEqualTo("joined");
    assertThat(driver.findElement(By.id("details-table")).getText()).contains("engine spark", "incremental no");
    assertThat(driver.findElements(By.cssSelector("path.edge.lit"))).hasSize(3);
    assertThat(driver.findElement(By.cssSelector("g.node[data-id='transform:joined']")).getAttribute("class"))
        .contains("selected");
    screenshot("graph.png");
    assertThat(OUT.resolve("graph.png")).isNotEmptyFile();
  }

  @Test
  void theBuildPageShowsATimelineAndSelectsATransformsRowOnClick() throws Exception {
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    List<TimedResult> timed = List.of(
        result("clean", TransformResult.Status.SUCCEEDED, t0, 4, Optional.empty()),
        result("daily", TransformResult.Status.SUCCEEDED, t0.plusSeconds(4), 2, Optional.empty()),
        result("joined", TransformResult.Status.FAILED, t0.plusSeconds(5), 3,
            Optional.of(new IllegalStateException("join failed", new IllegalArgumentException("key is null")))));
    Path page = OUT.resolve("build.html");
    Files.writeString(page, BuildReportPage.render(new dev.transforms.runtime.BuildReport("b1",
        timed.stream().map(TimedResult::result).toList(), Duration.ofSeconds(8)), timed, SecretMasker.allLoaded()));
    open(page);

    List<WebElement> bars = driver.findElements(By.cssSelector(".bar"));
    assertThat(bars).extracting(b -> b.getAttribute("data-transform")).containsExactly("clean", "daily", "joined");
    // daily and joined overlap: two lanes; the bars' widths follow the durations.
    assertThat(driver.findElements(By.cssSelector(".lane"))).hasSize(2);
    double clean = bars.get(0).getRect().getWidth();
    double daily = bars.get(1).getRect().getWidth();
    assertThat(clean / daily).isBetween(1.8, 2.2);
    assertThat(driver.findElement(By.id("status")).getText()).isEqualTo("FAILED");

    bars.get(2).click();
    WebElement row = driver.findElement(By.id("row-joined"));
    assertThat(row.getAttribute("class")).contains("selected");
    assertThat(row.getText()).contains("FAILED", "join failed", "caused by: java.lang.IllegalArgumentException: key is null");
    screenshot("build.png");
    assertThat(OUT.resolve("build.png")).isNotEmptyFile();
  }

  /** The smallest scale at which the graph's 12 px text stays legible (9 px). */
  private static final double LEGIBLE = 0.75;
  /** The largest scale the page draws a small graph at. */
  private static final double LARGEST = 1.5;
  /** The widest empty strip left beside a graph that fits. */
  private static final double MARGIN = 48;

  @Test
  void theGraphFitsTheWindowTheDemosAt1280And1920AndThreeTransformsAt1400() throws Exception {
    Path demo = OUT.resolve("demo-graph.html");
    Files.writeString(demo, GraphWriter.write(DemoPipeline.graph(), GraphWriter.Format.html, "Pipeline graph"));
    // Three transforms of the demo that read one table: wider than the old fixed box at 1400 px.
    Path three = OUT.resolve("three-graph.html");
    Files.writeString(three, GraphWriter.write(PipelineGraph.of(DemoPipeline.PLAN.stream()
        .filter(t -> List.of("ChangelogAndMetadata.changelogAndMetadata", "SingleNodeChangelog.changesSinceLastBuild",
            "SingleNodeSql.statusSummary").contains(t.name())).toList(), NodeFacts.planOnly()),
        GraphWriter.Format.html, "Pipeline graph"));
    // Softly: a failure names every window that does not fit, not only the first.
    SoftAssertions soft = new SoftAssertions();
    try {
      assertFits(soft, demo, 1280, "graph-1280.png");
      assertFits(soft, demo, 1920, "graph-1920.png");
      assertFits(soft, three, 1400, "graph-three-1400.png");
      soft.assertAll();
    } finally {
      viewport(1400);
    }
  }

  /**
   * Opens a graph page in a window {@code width} px wide and checks that its drawing fits: scaled to the
   * drawing box's width, legible, the box taking most of the window, and wider than the box only at the
   * smallest legible scale, when the box scrolls to its end.
   */
  private static void assertFits(SoftAssertions soft, Path page, int width, String shot) throws Exception {
    viewport(width);
    open(page);
    screenshot(shot);
    @SuppressWarnings("unchecked")
    Map<String, Number> m = (Map<String, Number>) driver.executeScript("""
        var d = document.getElementById('drawing'), box = d.getBoundingClientRect();
        var l = Infinity, r = -Infinity, scale = 0;
        document.querySelectorAll('g.node').forEach(function (g) {
          var b = g.getBoundingClientRect();
          l = Math.min(l, b.left); r = Math.max(r, b.right);
          scale = b.width / g.querySelector('rect').width.baseVal.value;
        });
        return {window: window.innerWidth, viewport: document.documentElement.clientWidth,
          page: document.documentElement.scrollWidth,
          left: l - box.left - d.clientLeft + d.scrollLeft, right: r - box.left - d.clientLeft + d.scrollLeft,
          visible: d.clientWidth, scrollable: d.scrollWidth, boxRight: box.right, scale: scale};
        """);
    String at = page.getFileName() + " at " + width + " px: " + m;
    double scale = m.get("scale").doubleValue();
    double visible = m.get("visible").doubleValue();
    double viewport = m.get("viewport").doubleValue();
    soft.assertThat(m.get("window").intValue()).as(at).isEqualTo(width);
    // The page itself never scrolls sideways, and the drawing's box ends inside the window.
    soft.assertThat(m.get("page").doubleValue()).as(at).isLessThanOrEqualTo(viewport);
    soft.assertThat(m.get("boxRight").doubleValue()).as(at).isLessThanOrEqualTo(viewport);
    // Legible, and the drawing takes most of the window: no empty third.
    soft.assertThat(scale).as(at).isGreaterThanOrEqualTo(LEGIBLE - 0.01);
    soft.assertThat(visible).as(at).isGreaterThanOrEqualTo(0.7 * viewport);
    double left = m.get("left").doubleValue();
    double right = m.get("right").doubleValue();
    soft.assertThat(left).as(at).isGreaterThanOrEqualTo(0);
    if (scale >= LARGEST - 0.01) {
      // A small graph at its largest scale, centred: the strips beside it are even.
      soft.assertThat(Math.abs(left - (visible - right))).as(at).isLessThanOrEqualTo(MARGIN);
    } else if (right > visible + 0.5) {
      // Wider than its box only when scaling down further would make it illegible, and then the box
      // scrolls to the graph's right end.
      soft.assertThat(scale).as(at + ": scrolls though it could be scaled down").isLessThanOrEqualTo(LEGIBLE + 0.01);
      soft.assertThat(m.get("scrollable").doubleValue()).as(at).isGreaterThanOrEqualTo(right);
    } else {
      soft.assertThat(left).as(at + ": empty strip left of the graph").isLessThanOrEqualTo(MARGIN);
      soft.assertThat(visible - right).as(at + ": empty strip right of the graph").isLessThanOrEqualTo(MARGIN);
    }
  }

  @Test
  void theDemosBuildPageFitsItsWidthAndCutsNoBarLabel() throws Exception {
    List<TimedResult> timed = DemoPipeline.build();
    Path page = OUT.resolve("demo-build.html");
    Files.writeString(page, BuildReportPage.render(new dev.transforms.runtime.BuildReport("demo",
        timed.stream().map(TimedResult::result).toList(), Duration.ofSeconds(14)), timed, SecretMasker.allLoaded()));
    SoftAssertions soft = new SoftAssertions();
    try {
      for (int width : new int[] {1280, 1920}) {
        viewport(width);
        open(page);
        screenshot("build-" + width + ".png");
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) driver.executeScript("""
            var table = document.getElementById('results');
            var overflowing = [];
            table.querySelectorAll('td, th').forEach(function (c) {
              if (c.scrollWidth > c.clientWidth + 1) { overflowing.push(c.textContent.slice(0, 40)); }
            });
            return {window: window.innerWidth, viewport: document.documentElement.clientWidth,
              page: document.documentElement.scrollWidth,
              table: table.scrollWidth, tableRight: table.getBoundingClientRect().right, overflowing: overflowing};
            """);
        String at = width + " px wide: " + m;
        double viewport = ((Number) m.get("viewport")).doubleValue();
        soft.assertThat(((Number) m.get("window")).intValue()).as(at).isEqualTo(width);
        soft.assertThat(((Number) m.get("table")).doubleValue()).as(at).isLessThanOrEqualTo(viewport);
        soft.assertThat(((Number) m.get("tableRight")).doubleValue()).as(at).isLessThanOrEqualTo(viewport);
        soft.assertThat(((Number) m.get("page")).doubleValue()).as(at).isLessThanOrEqualTo(viewport);
        soft.assertThat((List<?>) m.get("overflowing")).as(at + ": cells whose text runs out of them").isEmpty();
        soft.assertThat(cutLabels()).as(width + " px wide").isEmpty();
      }
      soft.assertAll();
    } finally {
      viewport(1400);
    }
  }

  /**
   * The bars whose names are cut: a name shown is whole (the transform's, or its method's after the
   * class's dot), no box that clips it ends inside it, and it lies on no other bar or name; a name not
   * shown is in the bar's tooltip.
   */
  private static List<?> cutLabels() {
    return (List<?>) driver.executeScript("""
        var problems = [], shown = [];
        var bars = Array.from(document.querySelectorAll('.bar'));
        function meet(a, b) {
          return a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
        }
        bars.forEach(function (bar) {
          var name = bar.getAttribute('data-transform');
          var text = document.createTreeWalker(bar, NodeFilter.SHOW_TEXT).nextNode();
          var range = document.createRange();
          if (text) { range.selectNodeContents(text); }
          var r = text ? range.getBoundingClientRect() : null;
          if (!r || r.width === 0 || getComputedStyle(text.parentElement).visibility === 'hidden') {
            if ((bar.getAttribute('title') || '').indexOf(name) < 0) {
              problems.push(name + ': neither shown nor in a tooltip');
            }
            return;
          }
          var shownAs = text.textContent.trim();
          if (shownAs !== name && shownAs !== name.substring(name.lastIndexOf('.') + 1)) {
            problems.push(name + ': shown as ' + shownAs);
          }
          for (var a = text.parentElement; a && a !== document.body; a = a.parentElement) {
            var s = getComputedStyle(a), box = a.getBoundingClientRect();
            if (s.overflowX !== 'visible' && (r.left < box.left - 0.5 || r.right > box.right + 0.5)) {
              problems.push(name + ': cut by .' + a.className.split(' ')[0]);
              return;
            }
          }
          bars.forEach(function (other) {
            if (other !== bar && meet(r, other.getBoundingClientRect())) {
              problems.push(name + ': written over ' + other.getAttribute('data-transform'));
            }
          });
          shown.forEach(function (s) {
            if (meet(r, s.r)) { problems.push(name + ': written over the name of ' + s.name); }
          });
          shown.push({name: name, r: r});
        });
        return problems;
        """);
  }

  /** Sets the window so that the page, with its scroll bar, is {@code width} CSS pixels wide. */
  private static void viewport(int width) {
    driver.manage().window().setSize(new Dimension(width, 900));
    long inner = ((Number) driver.executeScript("return window.innerWidth;")).longValue();
    if (inner != width) {
      driver.manage().window().setSize(new Dimension(width + (int) (width - inner), 900));
    }
  }

  private static TimedResult result(String name, TransformResult.Status status, Instant start, int seconds,
      Optional<Throwable> error) {
    return new TimedResult(new TransformResult(name, "spark", status, false, "first build", List.of(),
        Duration.ofSeconds(seconds), error, List.of(), List.of()), start, start.plusSeconds(seconds));
  }
}
