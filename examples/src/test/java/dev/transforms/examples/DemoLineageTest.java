package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.transforms.cli.TransformsCli;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.discovery.TransformIndex;
import dev.transforms.runtime.spi.DatasetKind;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import dev.transforms.spark.SparkSessions;
import dev.transforms.testing.TestWarehouse;
import dev.transforms.testing.TransformsTest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo pipeline built with {@code openlineage.enabled=true} and the http transport to a receiver on
 * 127.0.0.1: every event it sends is valid against the repository's JSON schemas of OpenLineage events
 * ({@link OpenLineageSchemas}: the event's, and each facet's), each demo transform has a START and a
 * COMPLETE with the inputs and outputs it declares, named by catalog URI and table identifier (files by
 * location), and the Spark transforms' jobs send events of their own with the transform's run as parent,
 * column lineage included. The API key reaches the receiver as a header, and never an event.
 */
@TransformsTest
class DemoLineageTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String OWN = "https://github.com/transforms-java/transforms-java";

  @TempDir Path dir;

  @Test
  void theDemoSendsValidEventsForEveryTransformAndItsSparkJobs(TestWarehouse warehouse) throws Exception {
    warehouse.sparkSession(); // the test JVM's session, which the build derives its own from
    OpenLineageSchemas schemas = OpenLineageSchemas.load();
    Path work = Files.createDirectories(dir.resolve("demo-lineage"));
    String token = "demo-token-" + UUID.randomUUID();
    Map<String, String> environment = Map.of("DEMO_LINEAGE_TOKEN", token);
    List<String> bodies;
    TransformsConfig config;
    try (LineageReceiver receiver = new LineageReceiver()) {
      Files.writeString(work.resolve(TransformsConfig.FILE_NAME), String.join("\n",
          "openlineage.enabled=true",
          "openlineage.namespace=demo",
          "openlineage.timeout=60s",
          "openlineage.transport.type=http",
          "openlineage.transport.url=" + receiver.url(),
          "openlineage.transport.auth.type=api_key",
          "openlineage.transport.auth.apiKey=${DEMO_LINEAGE_TOKEN}", ""));
      config = TransformsConfig.load(Optional.empty(), Optional.empty(), environment, work);
      Files.createDirectories(config.warehouse());
      SparkSession spark = SparkSessions.forBuild(SparkSession.active(), config);
      try {
        new SampleInputs(spark, new TableResolver(config)).seedOrDeliver();
      } finally {
        SparkSessions.closeCatalogs(spark, config.catalogs().keySet());
      }
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int code = TransformsCli.execute(new TransformsCli(environment, work), new PrintWriter(out, true),
          new PrintWriter(err, true), "build");
      assertThat(code).as(out + "\n" + err).isZero();
      assertThat(out + "\n" + err).doesNotContain(token);
      bodies = List.copyOf(receiver.bodies);
      assertThat(receiver.authorizations).isNotEmpty().allMatch(a -> a.equals("Bearer " + token));
    }

    // Kept for reading: one event per line, in the order they arrived.
    Files.write(Path.of("target/demo-lineage-events.jsonl"), bodies);
    // Every event, the Spark jobs' included, is valid OpenLineage.
    List<String> invalid = new ArrayList<>();
    for (String body : bodies) {
      assertThat(body).doesNotContain(token);
      List<String> errors = schemas.errors(body, OWN);
      if (!errors.isEmpty()) {
        invalid.add(errors + " in " + body);
      }
    }
    assertThat(invalid).as("events that do not validate").isEmpty();

    List<JsonNode> events = new ArrayList<>();
    for (String body : bodies) {
      events.add(JSON.readTree(body));
    }
    String catalog = "jdbc:sqlite:" + config.warehouse().resolve("catalog.db");
    TableResolver resolver = new TableResolver(config);
    List<TransformSpec> demo = TransformIndex.discover(Thread.currentThread().getContextClassLoader());
    assertThat(demo).hasSizeGreaterThanOrEqualTo(10);
    String buildRun = only(events, "demo", work.getFileName().toString(), "START").at("/run/runId").asText();
    only(events, "demo", work.getFileName().toString(), "COMPLETE");
    for (TransformSpec spec : demo) {
      JsonNode start = only(events, "demo", spec.name(), "START");
      JsonNode complete = only(events, "demo", spec.name(), "COMPLETE");
      String run = start.at("/run/runId").asText();
      assertThat(complete.at("/run/runId").asText()).isEqualTo(run);
      assertThat(start.at("/run/facets/parent/run/runId").asText()).isEqualTo(buildRun);
      assertThat(names(complete.get("inputs"))).as(spec.name() + " inputs").isEqualTo(expected(spec.inputs(),
          resolver, catalog, config));
      assertThat(names(complete.get("outputs"))).as(spec.name() + " outputs").isEqualTo(expected(spec.outputs(),
          resolver, catalog, config));
      for (JsonNode output : complete.get("outputs")) {
        if (output.get("namespace").asText().equals(catalog)) {
          assertThat(output.at("/facets/schema/fields").size()).as(spec.name() + " output schema").isPositive();
          assertThat(output.at("/facets/version/datasetVersion").asText()).as(spec.name() + " version").isNotBlank();
          assertThat(output.at("/outputFacets/outputStatistics/rowCount").isNumber()).isTrue();
        }
      }
    }
    // openlineage-spark 1.53 names no table of a JDBC catalog: on the embedded catalog, no Spark job is heard.
    assertThat(events).allMatch(e -> e.at("/producer").asText().startsWith(OWN));
  }

  /**
   * On a catalog that {@code openlineage-spark} can name (Hadoop here, REST on the cluster), the Spark jobs
   * inside a Spark transform send events of their own, parented to the transform's run and rooted at the
   * build's, with column lineage from the input's columns to the output's.
   */
  @Test
  void theSparkJobsOfATransformSendColumnLineageUnderItsRun(TestWarehouse warehouse) throws Exception {
    warehouse.sparkSession();
    OpenLineageSchemas schemas = OpenLineageSchemas.load();
    Path work = Files.createDirectories(dir.resolve("spark-lineage"));
    List<String> bodies;
    try (LineageReceiver receiver = new LineageReceiver()) {
      Files.writeString(work.resolve(TransformsConfig.FILE_NAME), String.join("\n",
          "catalog.lake.type=hadoop",
          "catalog.lake.warehouse=" + work.resolve("lake").toUri(),
          "mount./=lake",
          "openlineage.enabled=true",
          "openlineage.namespace=spark-demo",
          "openlineage.timeout=60s",
          "openlineage.transport.type=http",
          "openlineage.transport.url=" + receiver.url(), ""));
      TransformsConfig config = TransformsConfig.load(Optional.empty(), Optional.empty(), Map.of(), work);
      Files.createDirectories(config.warehouse());
      SparkSession spark = SparkSessions.forBuild(SparkSession.active(), config);
      try {
        new SampleInputs(spark, new TableResolver(config)).seedOrDeliver();
      } finally {
        SparkSessions.closeCatalogs(spark, config.catalogs().keySet());
      }
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int code = TransformsCli.execute(new TransformsCli(Map.of(), work), new PrintWriter(out, true),
          new PrintWriter(err, true), "build", "SparkRowEdits.editRowsSpark");
      assertThat(code).as(out + "\n" + err).isZero();
      bodies = List.copyOf(receiver.bodies);
    }
    Files.write(Path.of("target/spark-lineage-events.jsonl"), bodies);
    List<String> invalid = new ArrayList<>();
    List<JsonNode> events = new ArrayList<>();
    for (String body : bodies) {
      List<String> errors = schemas.errors(body, OWN);
      if (!errors.isEmpty()) {
        invalid.add(errors + " in " + body);
      }
      events.add(JSON.readTree(body));
    }
    assertThat(invalid).as("events that do not validate").isEmpty();
    String buildRun = only(events, "spark-demo", work.getFileName().toString(), "START").at("/run/runId").asText();
    String run = only(events, "spark-demo", "SparkRowEdits.editRowsSpark", "START").at("/run/runId").asText();
    only(events, "spark-demo", "SparkRowEdits.editRowsSpark", "COMPLETE");
    List<JsonNode> sparkEvents = events.stream().filter(e -> !e.at("/producer").asText().startsWith(OWN)).toList();
    assertThat(sparkEvents).as("events of Spark jobs").isNotEmpty();
    assertThat(sparkEvents).allMatch(e -> e.at("/run/facets/parent/run/runId").asText().equals(run)
        && e.at("/run/facets/parent/root/run/runId").asText().equals(buildRun)
        && e.at("/job/namespace").asText().equals("spark-demo"));
    List<JsonNode> lineage = new ArrayList<>();
    for (JsonNode event : sparkEvents) {
      for (JsonNode output : event.path("outputs")) {
        JsonNode fields = output.at("/facets/columnLineage/fields");
        if (fields.size() > 0) {
          lineage.add(fields);
        }
      }
    }
    assertThat(lineage).as("column lineage of the Spark jobs' outputs").isNotEmpty();
    assertThat(lineage.get(0).toString()).contains("row-updates", "\"id\"", "status");
  }

  private static Set<String> names(JsonNode datasets) {
    Set<String> names = new TreeSet<>();
    datasets.forEach(d -> names.add(d.get("namespace").asText() + " " + d.get("name").asText()));
    return names;
  }

  /** A table input declared as files ({@code @Input}) is named as a table when a table is there. */
  private static Set<String> expected(List<ParameterSpec> parameters, TableResolver resolver, String catalog,
      TransformsConfig config) {
    Set<String> names = new TreeSet<>();
    for (ParameterSpec parameter : parameters) {
      ResolvedTable table = resolver.resolve(parameter.requirePath());
      Path files = config.filesRoot().resolve(String.join("/", parameter.requirePath().segments()));
      boolean isFiles = parameter.kind().orElseThrow() == DatasetKind.FILES && Files.exists(files);
      names.add(isFiles ? "file " + files.toAbsolutePath().normalize()
          : catalog + " " + String.join(".", table.namespace()) + "." + table.table());
    }
    return names;
  }

  private static JsonNode only(List<JsonNode> events, String namespace, String job, String type) {
    List<JsonNode> found = events.stream().filter(e -> e.at("/job/namespace").asText().equals(namespace)
        && e.at("/job/name").asText().equals(job) && e.at("/eventType").asText().equals(type)).toList();
    assertThat(found).as(type + " of " + job).hasSize(1);
    return found.get(0);
  }
}
