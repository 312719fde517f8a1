package dev.transforms.lineage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.transforms.api.ConfigurationException;
import dev.transforms.api.TableInput;
import dev.transforms.api.TableOutput;
import dev.transforms.api.Transform;
import dev.transforms.api.checks.PrimaryKey;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.LineageSettings;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.build.BuildLineages;
import dev.transforms.runtime.internal.build.BuildOptions;
import dev.transforms.runtime.internal.build.BuildRunner;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.publish.BuildBranch;
import dev.transforms.runtime.internal.validate.ReflectiveModels;
import dev.transforms.runtime.spi.BuildLineage;
import dev.transforms.runtime.spi.TransformSpec;
import dev.transforms.testengine.IdTables;
import dev.transforms.testengine.TestInput;
import dev.transforms.testengine.TestOutput;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A build with {@code openlineage.enabled=true} sends its events to an HTTP receiver on 127.0.0.1: the
 * build's run, and for each transform a START and a COMPLETE, FAIL or ABORT, parented to the build's run,
 * with its datasets named by catalog and identifier. A receiver that fails, hangs or is absent costs one
 * warning and at most the timeout, never the build. The API key never appears in an event or a log line.
 */
public class BuildLineageTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "lineage-token-" + UUID.randomUUID();

  @TempDir Path dir;

  /** The test pipeline: one that publishes, one that fails, one skipped after it. */
  public static class Pipeline {
    @Transform(name = "copy", description = "copies the numbers")
    public void copy(@TableInput("/src/numbers") TestInput in, @TableOutput("/out/copied") @PrimaryKey("id")
        TestOutput out) {
      out.append(in.ids().stream().mapToLong(Long::longValue).toArray());
    }

    @Transform(name = "broken")
    public void broken(@TableInput("/src/numbers") TestInput in, @TableOutput("/out/broken") TestOutput out) {
      throw new IllegalStateException("broken on purpose");
    }

    @Transform(name = "after-broken")
    public void afterBroken(@TableInput("/out/broken") TestInput in, @TableOutput("/out/after") TestOutput out) {
      out.append(1);
    }
  }

  /** Only the transform that succeeds. */
  public static class Copy {
    @Transform(name = "copy")
    public void copy(@TableInput("/src/numbers") TestInput in, @TableOutput("/out/copied") TestOutput out) {
      out.append(in.ids().stream().mapToLong(Long::longValue).toArray());
    }
  }

  private TransformsConfig config(String url, String timeout, String... more) throws Exception {
    Files.writeString(dir.resolve(TransformsConfig.FILE_NAME), String.join("\n", more) + "\n" + String.join("\n",
        "warehouse=" + dir.resolve("warehouse"),
        "openlineage.enabled=true",
        "openlineage.namespace=test-pipeline",
        "openlineage.timeout=" + timeout,
        "openlineage.transport.type=http",
        "openlineage.transport.url=" + url,
        "openlineage.transport.auth.type=api_key",
        "openlineage.transport.auth.apiKey=${LINEAGE_TOKEN}", ""));
    return TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of("LINEAGE_TOKEN", TOKEN), dir);
  }

  private static void seed(BuildRunner runner) {
    Catalog catalog = runner.catalogs().catalog("local");
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("src"));
    IdTables.append(catalog.createTable(TableIdentifier.of(Namespace.of("src"), "numbers"), IdTables.SCHEMA), null,
        Map.of(), 1, 2, 3);
  }

  private static BuildReport build(BuildRunner runner, Class<?> type) {
    List<TransformSpec> specs = ReflectiveModels.transformsOf(type);
    return runner.run(BuildPlan.of(specs), BuildListener.NONE);
  }

  @Test
  void everyTransformGetsItsStartAndItsEndUnderTheBuildsRun() throws Exception {
    List<JsonNode> events;
    StringWriter logs = new StringWriter();
    BuildReport report;
    try (LineageReceiver receiver = new LineageReceiver(LineageReceiver.Mode.OK);
        BuildRunner runner = new BuildRunner(config(receiver.url(), "10s"));
        AutoCloseable capture = captureWarnings(logs)) {
      seed(runner);
      report = build(runner, Pipeline.class);
      events = parse(receiver.bodies);
      assertThat(receiver.authorizations).isNotEmpty().allMatch(a -> a.equals("Bearer " + TOKEN));
      assertThat(String.join("\n", receiver.bodies)).doesNotContain(TOKEN);
    }
    assertThat(report.result("copy").orElseThrow().status()).isEqualTo(TransformResult.Status.SUCCEEDED);
    assertThat(logs.toString()).doesNotContain(TOKEN).doesNotContain("OpenLineage");

    JsonNode buildStart = only(events, "test-pipeline", dir.getFileName().toString(), "START");
    JsonNode buildEnd = only(events, "test-pipeline", dir.getFileName().toString(), "FAIL");
    String buildRun = buildStart.at("/run/runId").asText();
    assertThat(buildEnd.at("/run/runId").asText()).isEqualTo(buildRun);
    assertThat(buildEnd.at("/run/facets/errorMessage/message").asText()).contains("2 of 3 transforms did not succeed");

    JsonNode copyStart = only(events, "test-pipeline", "copy", "START");
    JsonNode copyEnd = only(events, "test-pipeline", "copy", "COMPLETE");
    assertThat(copyEnd.at("/run/runId").asText()).isEqualTo(copyStart.at("/run/runId").asText())
        .isNotEqualTo(buildRun);
    assertThat(copyStart.at("/run/facets/parent/run/runId").asText()).isEqualTo(buildRun);
    assertThat(copyStart.at("/run/facets/parent/job/name").asText()).isEqualTo(dir.getFileName().toString());
    assertThat(copyStart.at("/job/facets/documentation/description").asText()).isEqualTo("copies the numbers");
    String catalogUri = "jdbc:sqlite:" + dir.resolve("warehouse").resolve("catalog.db");
    JsonNode input = copyEnd.at("/inputs/0");
    assertThat(input.at("/namespace").asText()).isEqualTo(catalogUri);
    assertThat(input.at("/name").asText()).isEqualTo("src.numbers");
    assertThat(input.at("/facets/schema/fields/0/name").asText()).isEqualTo("id");
    assertThat(input.at("/facets/schema/fields/0/type").asText()).isEqualTo("long");
    assertThat(input.at("/facets/version/datasetVersion").asText()).isNotBlank();
    JsonNode output = copyEnd.at("/outputs/0");
    assertThat(output.at("/name").asText()).isEqualTo("out.copied");
    assertThat(output.at("/namespace").asText()).isEqualTo(catalogUri);
    assertThat(output.at("/facets/version/datasetVersion").asLong())
        .isEqualTo(report.result("copy").orElseThrow().outputs().get(0).snapshotId().getAsLong());
    assertThat(output.at("/outputFacets/outputStatistics/rowCount").asLong()).isEqualTo(3);
    assertThat(output.at("/outputFacets/outputStatistics/fileCount").asLong()).isEqualTo(1);
    assertThat(output.at("/outputFacets/outputStatistics/size").asLong()).isPositive();
    assertThat(output.at("/facets/dataQualityAssertions/assertions/0/assertion").asText()).isEqualTo("primary key (id)");
    assertThat(output.at("/facets/dataQualityAssertions/assertions/0/success").asBoolean()).isTrue();

    JsonNode brokenEnd = only(events, "test-pipeline", "broken", "FAIL");
    only(events, "test-pipeline", "broken", "START");
    assertThat(brokenEnd.at("/run/facets/errorMessage/message").asText()).contains("broken on purpose");
    assertThat(brokenEnd.at("/run/facets/errorMessage/programmingLanguage").asText()).isEqualTo("Java");

    JsonNode skipped = only(events, "test-pipeline", "after-broken", "ABORT");
    assertThat(skipped.at("/run/facets/parent/run/runId").asText()).isEqualTo(buildRun);
    assertThat(events).filteredOn(e -> e.at("/job/name").asText().equals("after-broken")).hasSize(1);
    // Each run's START arrives before its end (the build's run and the transforms' are sent side by side).
    assertThat(events.indexOf(buildStart)).isLessThan(events.indexOf(buildEnd));
    assertThat(events.indexOf(copyStart)).isLessThan(events.indexOf(copyEnd));
    assertThat(events.indexOf(only(events, "test-pipeline", "broken", "START"))).isLessThan(events.indexOf(brokenEnd));
  }

  @Test
  void anUpToDateTransformCompletesWithItsDatasetsAsTheyAreAndNoStatistics() throws Exception {
    List<JsonNode> events;
    try (LineageReceiver receiver = new LineageReceiver(LineageReceiver.Mode.OK);
        BuildRunner runner = new BuildRunner(config(receiver.url(), "10s"))) {
      seed(runner);
      BuildReport first = build(runner, Copy.class);
      int sent = receiver.bodies.size();
      BuildReport second = build(runner, Copy.class);
      assertThat(second.result("copy").orElseThrow().status()).isEqualTo(TransformResult.Status.UP_TO_DATE);
      events = parse(receiver.bodies.subList(sent, receiver.bodies.size()));
      long published = first.result("copy").orElseThrow().outputs().get(0).snapshotId().getAsLong();
      JsonNode complete = only(events, "test-pipeline", "copy", "COMPLETE");
      only(events, "test-pipeline", "copy", "START");
      assertThat(complete.at("/outputs/0/facets/version/datasetVersion").asLong()).isEqualTo(published);
      assertThat(complete.at("/outputs/0/outputFacets").isMissingNode() || complete.at("/outputs/0/outputFacets")
          .isNull()).isTrue();
      assertThat(complete.at("/run/facets/tags/tags").toString()).contains("\"UP_TO_DATE\"");
      only(events, "test-pipeline", dir.getFileName().toString(), "COMPLETE");
    }
  }

  @Test
  void aBranchBuildNamesItsBranchOnEveryRunAndTheBranchOfEachTable() throws Exception {
    List<JsonNode> events;
    BuildReport onBranch;
    try (LineageReceiver receiver = new LineageReceiver(LineageReceiver.Mode.OK);
        BuildRunner runner = new BuildRunner(config(receiver.url(), "10s"))) {
      seed(runner);
      assertThat(build(runner, Copy.class).succeeded()).isTrue();
      int sent = receiver.bodies.size();
      BuildOptions options = new BuildOptions(Set.of(), Set.of("copy"), 1, false,
          BuildBranch.named("feature-x", List.of("main")));
      onBranch = runner.run(BuildPlan.of(ReflectiveModels.transformsOf(Copy.class)), BuildListener.NONE, options);
      events = parse(receiver.bodies.subList(sent, receiver.bodies.size()));
    }
    assertThat(onBranch.succeeded()).as(onBranch.format()).isTrue();
    String branchTag = "{\"key\":\"transforms.branch\",\"value\":\"feature-x\"";
    assertThat(only(events, "test-pipeline", dir.getFileName().toString(), "START").at("/run/facets/tags/tags")
        .toString()).contains(branchTag);
    JsonNode complete = only(events, "test-pipeline", "copy", "COMPLETE");
    assertThat(complete.at("/run/facets/tags/tags").toString()).contains(branchTag);
    // The input has no branch feature-x: it was read at main, along the fallbacks; the output is the branch's.
    assertThat(complete.at("/inputs/0/facets/tags/tags/0/key").asText()).isEqualTo("iceberg.branch");
    assertThat(complete.at("/inputs/0/facets/tags/tags/0/value").asText()).isEqualTo("main");
    assertThat(complete.at("/outputs/0/facets/tags/tags/0/value").asText()).isEqualTo("feature-x");
    assertThat(complete.at("/outputs/0/facets/version/datasetVersion").asLong())
        .isEqualTo(onBranch.result("copy").orElseThrow().outputs().get(0).snapshotId().getAsLong());
    assertThat(only(events, "test-pipeline", "copy", "START").at("/outputs/0/facets/tags/tags/0/value").asText())
        .isEqualTo("feature-x");
  }

  @Test
  void aBuildOfMainNamesNoBranch() throws Exception {
    try (LineageReceiver receiver = new LineageReceiver(LineageReceiver.Mode.OK);
        BuildRunner runner = new BuildRunner(config(receiver.url(), "10s"))) {
      seed(runner);
      build(runner, Copy.class);
      assertThat(String.join("\n", receiver.bodies)).contains("transforms.build-id")
          .doesNotContain("transforms.branch").doesNotContain("iceberg.branch");
    }
  }

  @Test
  void aReceiverThatAnswers500CostsOneWarning() throws Exception {
    assertFailingReceiverIsOneWarning(LineageReceiver.Mode.ERROR, null);
  }

  @Test
  void aReceiverThatHangsCostsOneWarningAndAtMostTheTimeout() throws Exception {
    assertFailingReceiverIsOneWarning(LineageReceiver.Mode.HANG, null);
  }

  @Test
  void anAbsentReceiverCostsOneWarning() throws Exception {
    assertFailingReceiverIsOneWarning(null, LineageReceiver.absent());
  }

  private void assertFailingReceiverIsOneWarning(LineageReceiver.Mode mode, String url) throws Exception {
    StringWriter logs = new StringWriter();
    LineageReceiver receiver = mode == null ? null : new LineageReceiver(mode);
    long started;
    long took;
    BuildReport first;
    BuildReport second;
    // A hanging request is given a minute, so that only the build's deadline (1 s) can end the wait.
    String[] more = mode == LineageReceiver.Mode.HANG ? new String[] {"openlineage.transport.timeoutInMillis=60000"}
        : new String[0];
    try (BuildRunner runner = new BuildRunner(config(receiver == null ? url : receiver.url(), "1s", more));
        AutoCloseable capture = captureWarnings(logs)) {
      seed(runner);
      started = System.nanoTime();
      first = build(runner, Copy.class);
      took = System.nanoTime() - started;
      second = runner.run(BuildPlan.of(ReflectiveModels.transformsOf(Copy.class)), BuildListener.NONE,
          new dev.transforms.runtime.internal.build.BuildOptions(Set.of(), Set.of("copy")));
    } finally {
      if (receiver != null) {
        receiver.close();
      }
    }
    assertThat(first.succeeded()).as(first.format()).isTrue();
    assertThat(second.succeeded()).as(second.format()).isTrue();
    List<String> warnings = logs.toString().lines().filter(l -> l.contains("OpenLineage")).toList();
    // One warning per build, naming the target but no secret.
    assertThat(warnings).hasSize(2);
    assertThat(warnings.get(0)).contains("build " + first.buildId(), "http transport to http://127.0.0.1:");
    assertThat(warnings.get(1)).contains("build " + second.buildId());
    assertThat(logs.toString()).doesNotContain(TOKEN);
    if (mode == LineageReceiver.Mode.HANG) {
      assertThat(warnings.get(0)).contains("not sent within the timeout of 1000 ms");
    }
    // The timeout (1 s) bounds what lineage adds; the hanging receiver never answers. A build of one
    // transform on the embedded catalog takes well under the slack allowed here.
    assertThat(Duration.ofNanos(took)).isLessThan(Duration.ofSeconds(20));
  }

  @Test
  void badSettingsAreRefusedNamingTheKey() throws Exception {
    Files.writeString(dir.resolve(TransformsConfig.FILE_NAME), "openlineage.enabled=true\n"
        + "openlineage.transport.type=carrier-pigeon\n");
    assertThatThrownBy(() -> TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(), dir))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("'openlineage.transport.type' is 'carrier-pigeon'")
        .hasMessageContaining("[console, file, http, kafka, noop]");
    Files.writeString(dir.resolve(TransformsConfig.FILE_NAME), "openlineage.enabled=yes\n");
    assertThatThrownBy(() -> TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(), dir))
        .hasMessageContaining("'openlineage.enabled' must be true or false, not 'yes'");
    Files.writeString(dir.resolve(TransformsConfig.FILE_NAME), "openlineage.enabled=true\n"
        + "openlineage.transport.type=http\n");
    assertThatThrownBy(() -> TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(), dir))
        .hasMessageContaining("'openlineage.transport.url' is not set; the http transport needs it");
    Files.writeString(dir.resolve(TransformsConfig.FILE_NAME), "openlineage.timeout=soon\n");
    assertThatThrownBy(() -> TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(), dir))
        .hasMessageContaining("'openlineage.timeout' must be a duration");
    Files.writeString(dir.resolve(TransformsConfig.FILE_NAME), "openlineage.colour=blue\n");
    assertThatThrownBy(() -> TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(), dir))
        .hasMessageContaining("Unknown configuration key 'openlineage.colour'");
    Files.writeString(dir.resolve(TransformsConfig.FILE_NAME), "openlineage.enabled=true\n"
        + "openlineage.transport.type=http\nopenlineage.transport.url=http://u:${PW}@127.0.0.1:1\n");
    TransformsConfig config = TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of("PW", "pw-secret-77"),
        dir);
    assertThat(config.describe()).doesNotContain("pw-secret-77");
    assertThat(LineageSettings.of(config.values()).describeTarget()).isEqualTo("http transport to http://127.0.0.1:1");
  }

  @Test
  void offByDefaultAndTheSwitchComesFromTheEnvironmentToo() throws Exception {
    TransformsConfig embedded = TransformsConfig.embedded(dir.resolve("warehouse"));
    assertThat(LineageSettings.of(embedded.values()).enabled()).isFalse();
    assertThat(BuildLineages.start(embedded, null, List.of(), "b", "main", null)).isSameAs(BuildLineage.OFF);
    Files.writeString(dir.resolve(TransformsConfig.FILE_NAME), "openlineage.transport.type=console\n");
    TransformsConfig config = TransformsConfig.load(Optional.empty(), Optional.empty(),
        Map.of("TRANSFORMS_OPENLINEAGE_ENABLED", "true", "TRANSFORMS_OPENLINEAGE_NAMESPACE", "prod"), dir);
    LineageSettings settings = LineageSettings.of(config.values());
    assertThat(settings.enabled()).isTrue();
    assertThat(settings.namespace()).isEqualTo("prod");
    assertThat(LineageSettings.of(TransformsConfig.load(Optional.empty(), Optional.empty(),
        Map.of("TRANSFORMS_OPENLINEAGE_ENABLED", "true"), dir).values()).namespace())
        .isEqualTo(dir.getFileName().toString());
  }

  @Test
  void transportSettingsWithoutTheSwitchCostOneWarningPerBuildAndSendNothing() throws Exception {
    Path events = dir.resolve("lineage.jsonl");
    Files.writeString(dir.resolve(TransformsConfig.FILE_NAME), "warehouse=" + dir.resolve("warehouse") + "\n"
        + "openlineage.transport.type=file\nopenlineage.transport.location=" + events + "\n");
    StringWriter logs = new StringWriter();
    BuildReport report;
    try (BuildRunner runner = new BuildRunner(TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(), dir));
        AutoCloseable capture = captureWarnings(logs)) {
      seed(runner);
      report = build(runner, Copy.class);
    }
    assertThat(report.succeeded()).as(report.format()).isTrue();
    assertThat(events).doesNotExist();
    List<String> warnings = logs.toString().lines().filter(l -> l.contains("OpenLineage")).toList();
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0)).endsWith("OpenLineage is off: build " + report.buildId() + " sends no OpenLineage "
        + "events, although file " + dir.resolve(TransformsConfig.FILE_NAME) + " sets openlineage.transport.location, "
        + "openlineage.transport.type; openlineage.enabled is not set, and lineage is off unless it is true. To send "
        + "events, set openlineage.enabled=true (or the environment variable TRANSFORMS_OPENLINEAGE_ENABLED=true); "
        + "to keep lineage off without this warning, set openlineage.enabled=false.");
  }

  @Test
  void lineageSwitchedOffOnPurposeOrNotConfiguredIsSilent() throws Exception {
    List<String> warnings = new ArrayList<>();
    Files.writeString(dir.resolve(TransformsConfig.FILE_NAME), "openlineage.enabled=false\n"
        + "openlineage.transport.type=file\nopenlineage.transport.location=" + dir.resolve("lineage.jsonl") + "\n");
    TransformsConfig off = TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(), dir);
    assertThat(BuildLineages.start(off, null, List.of(), "b1", "main", warnings::add, null)).isSameAs(BuildLineage.OFF);
    TransformsConfig embedded = TransformsConfig.embedded(dir.resolve("warehouse"));
    assertThat(BuildLineages.start(embedded, null, List.of(), "b2", "main", warnings::add, null)).isSameAs(BuildLineage.OFF);
    assertThat(warnings).isEmpty();
  }

  @Test
  void flatKeysNestAsTheClientReadsThem() {
    Map<String, Object> nested = LineageTransports.nested(new java.util.TreeMap<>(Map.of("type", "kafka",
        "properties.bootstrap.servers", "127.0.0.1:9092", "auth.type", "api_key", "headers.X-Trace.Id", "1")));
    assertThat(nested).containsEntry("type", "kafka")
        .containsEntry("properties", Map.of("bootstrap.servers", "127.0.0.1:9092"))
        .containsEntry("auth", Map.of("type", "api_key"))
        .containsEntry("headers", Map.of("X-Trace.Id", "1"));
    assertThat(OpenLineageBuild.withoutSecrets("jdbc:postgresql://user:pw@db:5432/cat?password=x"))
        .isEqualTo("jdbc:postgresql://db:5432/cat");
  }

  static List<JsonNode> parse(List<String> bodies) throws Exception {
    List<JsonNode> events = new ArrayList<>();
    for (String body : bodies) {
      events.add(JSON.readTree(body));
    }
    return events;
  }

  static JsonNode only(List<JsonNode> events, String namespace, String job, String type) {
    List<JsonNode> found = events.stream().filter(e -> e.at("/job/namespace").asText().equals(namespace)
        && e.at("/job/name").asText().equals(job) && e.at("/eventType").asText().equals(type)).toList();
    assertThat(found).as(type + " of " + job + " among " + events.size() + " events").hasSize(1);
    return found.get(0);
  }

  /** Captures warnings and errors of every logger. */
  static AutoCloseable captureWarnings(StringWriter captured) {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration logging = context.getConfiguration();
    PatternLayout layout = PatternLayout.newBuilder().withConfiguration(logging)
        .withPattern("%maskSecrets{%p %c{1}: %m%n%ex}").build();
    String name = "captured-" + UUID.randomUUID();
    WriterAppender appender = WriterAppender.createAppender(layout, null, captured, name, false, true);
    appender.start();
    LoggerConfig root = logging.getRootLogger();
    Level level = root.getLevel();
    root.addAppender(appender, Level.WARN, null);
    root.setLevel(Level.WARN);
    context.updateLoggers();
    return () -> {
      root.removeAppender(name);
      root.setLevel(level);
      context.updateLoggers();
      appender.stop();
    };
  }
}
