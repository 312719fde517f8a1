package dev.transforms.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The repository's OpenLineage schemas ({@link OpenLineageSchemas}) accept an event shaped like the SDK's
 * (every facet type it sends) and reject it when any required part is missing or malformed, so that
 * {@link DemoLineageTest}'s validation can fail.
 */
class OpenLineageSchemasTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String OWN = "https://github.com/transforms-java/transforms-java";
  private static final String SPEC = "https://openlineage.io/spec/facets/";

  @Test
  void anEventWithEveryFacetTheSdkSendsIsValid() throws Exception {
    assertThat(OpenLineageSchemas.inRepository().errors(sample().toString(), OWN)).isEmpty();
  }

  /** With {@code -Dopenlineage.spec=DIR}: the same event is valid against OpenLineage's published schemas. */
  @Test
  void theSampleIsValidAgainstThePublishedSchemasWhenTheyAreGiven() throws Exception {
    Assumptions.assumeFalse(System.getProperty("openlineage.spec", "").isBlank(), "no -Dopenlineage.spec=DIR");
    assertThat(OpenLineageSchemas.load().errors(sample().toString(), OWN)).isEmpty();
  }

  @Test
  void anotherProducersFacetOfAnUnknownTypeIsCheckedOnlyForWhatEveryFacetCarries() throws Exception {
    OpenLineageSchemas schemas = OpenLineageSchemas.inRepository();
    ObjectNode event = sample();
    ObjectNode facet = runFacets(event).putObject("spark_version");
    facet.put("_producer", "https://github.com/OpenLineage/OpenLineage/tree/1.53.0/integration/spark");
    facet.put("_schemaURL", "https://openlineage.io/spark-facets/SparkVersionFacet.json");
    assertThat(schemas.errors(event.toString(), OWN)).isEmpty();
    facet.remove("_producer");
    assertThat(schemas.errors(event.toString(), OWN)).isNotEmpty();
  }

  @Test
  void everyMissingOrMalformedRequiredPartIsRejected() throws Exception {
    OpenLineageSchemas schemas = OpenLineageSchemas.inRepository();
    Map<String, Consumer<ObjectNode>> breaks = new LinkedHashMap<>();
    breaks.put("no runId", e -> ((ObjectNode) e.get("run")).remove("runId"));
    breaks.put("a runId that is no UUID", e -> ((ObjectNode) e.get("run")).put("runId", "run-1"));
    breaks.put("no eventType", e -> e.remove("eventType"));
    breaks.put("an unknown eventType", e -> e.put("eventType", "FINISHED"));
    breaks.put("an eventTime that is no date-time", e -> e.put("eventTime", "yesterday"));
    breaks.put("no producer", e -> e.remove("producer"));
    breaks.put("a schemaURL that is no URI", e -> e.put("schemaURL", "not a uri"));
    breaks.put("no job name", e -> ((ObjectNode) e.get("job")).remove("name"));
    breaks.put("no job namespace", e -> ((ObjectNode) e.get("job")).remove("namespace"));
    breaks.put("an input without namespace", e -> ((ObjectNode) e.get("inputs").get(0)).remove("namespace"));
    breaks.put("an output without name", e -> ((ObjectNode) e.get("outputs").get(0)).remove("name"));
    breaks.put("a facet without _producer", e -> ((ObjectNode) runFacets(e).get("tags")).remove("_producer"));
    breaks.put("a dataset facet without _schemaURL",
        e -> ((ObjectNode) output(e).get("facets").get("version")).remove("_schemaURL"));
    breaks.put("an output facet without _producer",
        e -> ((ObjectNode) output(e).get("outputFacets").get("outputStatistics")).remove("_producer"));
    breaks.put("a facet that is no object", e -> runFacets(e).put("tags", "build"));
    breaks.put("a parent without its run's id",
        e -> ((ObjectNode) runFacets(e).get("parent").get("run")).remove("runId"));
    breaks.put("a parent whose run id is no UUID",
        e -> ((ObjectNode) runFacets(e).get("parent").get("run")).put("runId", "build"));
    breaks.put("a parent without its job's namespace",
        e -> ((ObjectNode) runFacets(e).get("parent").get("job")).remove("namespace"));
    breaks.put("a parent's root without its job",
        e -> ((ObjectNode) runFacets(e).get("parent").get("root")).remove("job"));
    breaks.put("a processing engine without version",
        e -> ((ObjectNode) runFacets(e).get("processing_engine")).remove("version"));
    breaks.put("a tag without value",
        e -> ((ObjectNode) runFacets(e).get("tags").get("tags").get(0)).remove("value"));
    breaks.put("a dataset tag without its value",
        e -> ((ObjectNode) output(e).get("facets").get("tags").get("tags").get(0)).remove("value"));
    breaks.put("an error message without message",
        e -> ((ObjectNode) runFacets(e).get("errorMessage")).remove("message"));
    breaks.put("an error message without programming language",
        e -> ((ObjectNode) runFacets(e).get("errorMessage")).remove("programmingLanguage"));
    breaks.put("a job type without integration",
        e -> ((ObjectNode) e.get("job").get("facets").get("jobType")).remove("integration"));
    breaks.put("a job documentation without description",
        e -> ((ObjectNode) e.get("job").get("facets").get("documentation")).remove("description"));
    breaks.put("a schema field without type",
        e -> ((ObjectNode) output(e).get("facets").get("schema").get("fields").get(0)).remove("type"));
    breaks.put("a nested schema field without name",
        e -> ((ObjectNode) output(e).get("facets").get("schema").get("fields").get(1).get("fields").get(0))
            .remove("name"));
    breaks.put("a version facet without datasetVersion",
        e -> ((ObjectNode) output(e).get("facets").get("version")).remove("datasetVersion"));
    breaks.put("a version that is a number",
        e -> ((ObjectNode) output(e).get("facets").get("version")).put("datasetVersion", 42L));
    breaks.put("output statistics without rowCount",
        e -> ((ObjectNode) output(e).get("outputFacets").get("outputStatistics")).remove("rowCount"));
    breaks.put("a size that is no integer",
        e -> ((ObjectNode) output(e).get("outputFacets").get("outputStatistics")).put("size", "12 kB"));
    breaks.put("quality assertions without assertions",
        e -> ((ObjectNode) output(e).get("facets").get("dataQualityAssertions")).remove("assertions"));
    breaks.put("an assertion without success",
        e -> ((ObjectNode) output(e).get("facets").get("dataQualityAssertions").get("assertions").get(0))
            .remove("success"));
    breaks.put("an assertion whose success is a string",
        e -> ((ObjectNode) output(e).get("facets").get("dataQualityAssertions").get("assertions").get(0))
            .put("success", "true"));
    breaks.put("column lineage without its input fields' field",
        e -> ((ObjectNode) output(e).get("facets").get("columnLineage").get("fields").get("id")
            .get("inputFields").get(0)).remove("field"));
    breaks.put("a facet of the SDK's of a type the repository has no schema of", e -> {
      ObjectNode facet = runFacets(e).putObject("nominalTime");
      facet.put("_producer", OWN);
      facet.put("_schemaURL", SPEC + "1-0-1/NominalTimeRunFacet.json#/$defs/NominalTimeRunFacet");
      facet.put("nominalStartTime", "2025-01-01T00:00:00Z");
    });
    List<String> accepted = new ArrayList<>();
    for (Map.Entry<String, Consumer<ObjectNode>> broken : breaks.entrySet()) {
      ObjectNode event = sample();
      broken.getValue().accept(event);
      if (schemas.errors(event.toString(), OWN).isEmpty()) {
        accepted.add(broken.getKey());
      }
    }
    assertThat(accepted).as("events accepted although broken").isEmpty();
  }

  private static ObjectNode runFacets(ObjectNode event) {
    return (ObjectNode) event.get("run").get("facets");
  }

  private static JsonNode output(ObjectNode event) {
    return event.get("outputs").get(0);
  }

  /** A FAIL event of a transform with an input and an output, carrying every facet type the SDK sends. */
  private static ObjectNode sample() throws Exception {
    ObjectNode event = JSON.createObjectNode();
    event.put("eventTime", "2025-06-01T12:00:00.123456Z");
    event.put("producer", OWN);
    event.put("schemaURL", "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent");
    event.put("eventType", "FAIL");
    ObjectNode run = event.putObject("run");
    run.put("runId", "0b6f7c1e-5d2a-4c8e-9f3b-2a1d4e5f6a7b");
    ObjectNode runFacets = run.putObject("facets");
    ObjectNode parent = facet(runFacets, "parent", "1-2-0/ParentRunFacet");
    parent.putObject("run").put("runId", "5f0e9d8c-7b6a-4e5d-8c3b-1a2b3c4d5e6f");
    parent.putObject("job").put("namespace", "demo").put("name", "demo-pipeline");
    ObjectNode root = parent.putObject("root");
    root.putObject("run").put("runId", "5f0e9d8c-7b6a-4e5d-8c3b-1a2b3c4d5e6f");
    root.putObject("job").put("namespace", "demo").put("name", "demo-pipeline");
    facet(runFacets, "processing_engine", "1-1-1/ProcessingEngineRunFacet").put("version", "0.1.0")
        .put("name", "transforms-java").put("openlineageAdapterVersion", "1.54.0");
    ArrayNode tags = facet(runFacets, "tags", "1-0-0/TagsRunFacet").putArray("tags");
    tags.addObject().put("key", "transforms.build-id").put("value", "a1b2c3").put("source", "TRANSFORMS_JAVA");
    tags.addObject().put("key", "transforms.status").put("value", "FAILED");
    facet(runFacets, "errorMessage", "1-0-1/ErrorMessageRunFacet").put("message", "division by zero")
        .put("programmingLanguage", "Java").put("stackTrace", "java.lang.ArithmeticException: / by zero");
    ObjectNode job = event.putObject("job");
    job.put("namespace", "demo").put("name", "Orders.totals");
    ObjectNode jobFacets = job.putObject("facets");
    facet(jobFacets, "jobType", "2-0-4/JobTypeJobFacet").put("processingType", "BATCH")
        .put("integration", "TRANSFORMS_JAVA").put("jobType", "TRANSFORM");
    facet(jobFacets, "documentation", "1-1-0/DocumentationJobFacet").put("description", "totals of the orders");
    ObjectNode input = event.putArray("inputs").addObject();
    input.put("namespace", "jdbc:sqlite:/tmp/warehouse/catalog.db").put("name", "raw.orders");
    facet(input.putObject("facets"), "version", "1-0-1/DatasetVersionDatasetFacet")
        .put("datasetVersion", "4711");
    ObjectNode output = event.putArray("outputs").addObject();
    output.put("namespace", "jdbc:sqlite:/tmp/warehouse/catalog.db").put("name", "clean.totals");
    ObjectNode datasetFacets = output.putObject("facets");
    ArrayNode fields = facet(datasetFacets, "schema", "1-2-0/SchemaDatasetFacet").putArray("fields");
    fields.addObject().put("name", "id").put("type", "long").put("description", "the order");
    ObjectNode struct = fields.addObject().put("name", "address").put("type", "struct");
    struct.putArray("fields").addObject().put("name", "city").put("type", "string");
    facet(datasetFacets, "version", "1-0-1/DatasetVersionDatasetFacet").put("datasetVersion", "8152");
    facet(datasetFacets, "tags", "1-0-0/TagsDatasetFacet").putArray("tags").addObject().put("key", "iceberg.branch")
        .put("value", "feature-x").put("source", "TRANSFORMS_JAVA");
    ArrayNode assertions = facet(datasetFacets, "dataQualityAssertions", "1-1-0/DataQualityAssertionsDatasetFacet")
        .putArray("assertions");
    assertions.addObject().put("assertion", "id is not null").put("success", true).put("severity", "error");
    assertions.addObject().put("assertion", "total >= 0").put("success", false).put("severity", "warn")
        .put("actual", "2 violating rows");
    ObjectNode lineage = facet(datasetFacets, "columnLineage", "1-2-0/ColumnLineageDatasetFacet");
    lineage.putObject("fields").putObject("id").putArray("inputFields").addObject()
        .put("namespace", "jdbc:sqlite:/tmp/warehouse/catalog.db").put("name", "raw.orders").put("field", "id");
    facet(output.putObject("outputFacets"), "outputStatistics", "1-0-2/OutputStatisticsOutputDatasetFacet")
        .put("rowCount", 12).put("size", 2048).put("fileCount", 1);
    return event;
  }

  private static ObjectNode facet(ObjectNode facets, String key, String versionAndType) {
    String type = versionAndType.substring(versionAndType.indexOf('/') + 1);
    ObjectNode facet = facets.putObject(key);
    facet.put("_producer", OWN);
    facet.put("_schemaURL", SPEC + versionAndType + ".json#/$defs/" + type);
    return facet;
  }
}
