package dev.transforms.graph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.transforms.cli.report.BuildReportPage;
import dev.transforms.cli.report.TimedResult;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.internal.catalog.SecretMasker;
import dev.transforms.runtime.internal.spec.ParameterSpec;
import dev.transforms.runtime.internal.spec.TransformSpec;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Opens the graph page and the build page in headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}), checks what is drawn against the plan, clicks, and saves screenshots under
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

  private static TimedResult result(String name, TransformResult.Status status, Instant start, int seconds,
      Optional<Throwable> error) {
    return new TimedResult(new TransformResult(name, "spark", status, false, "first build", List.of(),
        Duration.ofSeconds(seconds), error, List.of(), List.of()), start, start.plusSeconds(seconds));
  }
}
