package dev.transforms.examples;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * JSON schemas of OpenLineage run events, never read from the network.
 *
 * <p>By default, the repository's own: {@code openlineage/run-event.schema.json} and
 * {@code openlineage/facets/<type>.schema.json} among the test resources, written for these tests from the
 * rules of OpenLineage spec 2-0-2 (what an event, its run, job and datasets must carry; what every facet
 * must carry; and the required fields of each facet type the SDK sends, and of the column lineage facet of
 * openlineage-spark). An event is validated against the event's schema and each facet against the schema of
 * the type its {@code _schemaURL} names ({@code .../ParentRunFacet.json} is checked by
 * {@code facets/ParentRunFacet.schema.json}, whatever the version). A facet of this SDK's producer whose type
 * has no schema here is a failure; other producers' (openlineage-spark adds facets of its own) are checked
 * for what every facet carries only.
 *
 * <p>With {@code -Dopenlineage.spec=DIR} naming a folder of OpenLineage's published schemas
 * ({@code OpenLineage.json} and {@code facets/*.json} of spec 2-0-2), each event is also validated against
 * those, each facet against the schema its {@code _schemaURL} names exactly.
 *
 * <p>Formats ({@code uuid}, {@code date-time}, {@code uri}) are asserted for this SDK's events; for other
 * producers' only the structure is (openlineage-spark 1.53 writes {@code "uri": "file"} in its data source
 * facet of local files, which is not an absolute URI).
 */
final class OpenLineageSchemas {

  /** The repository's event schema, on the test class path. */
  static final String EVENT = "classpath:openlineage/run-event.schema.json";
  private static final String FACET_RESOURCES = "openlineage/facets/";
  /** Where the _schemaURL of every facet of OpenLineage's own types points. */
  private static final String SPEC_FACETS = "https://openlineage.io/spec/facets/";
  /** The event's schema among OpenLineage's published files. */
  static final String OFFICIAL_EVENT = "https://openlineage.io/spec/2-0-2/OpenLineage.json";
  private static final Pattern ID = Pattern.compile("\"\\$id\"\\s*:\\s*\"([^\"]+)\"");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
  private final Optional<Official> official;

  /** OpenLineage's published schemas, by their {@code $id}. */
  private record Official(SchemaRegistry registry, Map<String, String> schemas) {}

  private OpenLineageSchemas(Optional<Official> official) {
    this.official = official;
  }

  /**
   * The repository's schemas, and OpenLineage's published ones too when {@code -Dopenlineage.spec=DIR}
   * names their folder.
   *
   * @return the schemas
   * @throws IOException when the named folder cannot be read
   */
  static OpenLineageSchemas load() throws IOException {
    String folder = System.getProperty("openlineage.spec", "");
    return new OpenLineageSchemas(folder.isBlank() ? Optional.empty() : Optional.of(official(Path.of(folder))));
  }

  /**
   * The repository's schemas only.
   *
   * @return the schemas
   */
  static OpenLineageSchemas inRepository() {
    return new OpenLineageSchemas(Optional.empty());
  }

  private static Official official(Path folder) throws IOException {
    if (!Files.isRegularFile(folder.resolve("OpenLineage.json"))) {
      throw new IllegalStateException("-Dopenlineage.spec=" + folder + " names no folder of OpenLineage's JSON "
          + "schemas (OpenLineage.json and facets/*.json of spec 2-0-2)");
    }
    Map<String, String> schemas = new HashMap<>();
    List<Path> files = new ArrayList<>();
    files.add(folder.resolve("OpenLineage.json"));
    try (Stream<Path> facets = Files.list(folder.resolve("facets"))) {
      facets.filter(f -> f.toString().endsWith(".json")).forEach(files::add);
    }
    for (Path file : files) {
      String text = Files.readString(file);
      Matcher id = ID.matcher(text);
      if (id.find()) {
        schemas.put(id.group(1), text);
      }
    }
    return new Official(SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
        builder -> builder.schemas(schemas)), schemas);
  }

  /**
   * What is wrong with an event: every error of the event against the event's schema, and of each facet
   * against the schema of its type.
   *
   * @param event the event's JSON
   * @param ownProducer the producer whose facets must all have a schema
   * @return the errors, one line each; empty when valid
   */
  List<String> errors(String event, String ownProducer) {
    List<String> errors = new ArrayList<>();
    JsonNode root = JSON.readTree(event);
    boolean formats = root.path("producer").asString("").startsWith(ownProducer);
    validate(registry.getSchema(SchemaLocation.of(EVENT)), root, formats, "event: ", errors);
    for (Map.Entry<String, JsonNode> facet : facets(root)) {
      String url = facet.getValue().path("_schemaURL").asString("");
      Optional<String> schema = repositorySchema(url);
      if (schema.isPresent()) {
        validate(registry.getSchema(SchemaLocation.of(schema.get())), facet.getValue(), formats,
            "facet " + facet.getKey() + ": ", errors);
      } else if (facet.getValue().path("_producer").asString("").startsWith(ownProducer)) {
        errors.add("facet " + facet.getKey() + ": no schema in the repository for " + url);
      }
    }
    official.ifPresent(published -> officialErrors(published, root, formats, ownProducer, errors));
    return errors;
  }

  private static void officialErrors(Official published, JsonNode root, boolean formats, String ownProducer,
      List<String> errors) {
    validate(published.registry().getSchema(SchemaLocation.of(OFFICIAL_EVENT)), root, formats,
        "event (published schema): ", errors);
    for (Map.Entry<String, JsonNode> facet : facets(root)) {
      String url = facet.getValue().path("_schemaURL").asString("");
      String document = url.contains("#") ? url.substring(0, url.indexOf('#')) : url;
      if (!published.schemas().containsKey(document)) {
        if (facet.getValue().path("_producer").asString("").startsWith(ownProducer)) {
          errors.add("facet " + facet.getKey() + ": no published schema at " + url);
        }
        continue;
      }
      validate(published.registry().getSchema(SchemaLocation.of(url)), facet.getValue(), formats,
          "facet " + facet.getKey() + " (published schema): ", errors);
    }
  }

  /** The repository's schema of the facet type a {@code _schemaURL} of OpenLineage's names, if there is one. */
  private static Optional<String> repositorySchema(String url) {
    if (!url.startsWith(SPEC_FACETS)) {
      return Optional.empty();
    }
    String document = url.contains("#") ? url.substring(0, url.indexOf('#')) : url;
    String type = document.substring(document.lastIndexOf('/') + 1).replaceFirst("\\.json$", "");
    String resource = FACET_RESOURCES + type + ".schema.json";
    if (!type.matches("[A-Za-z0-9]+") || OpenLineageSchemas.class.getClassLoader().getResource(resource) == null) {
      return Optional.empty();
    }
    return Optional.of("classpath:" + resource);
  }

  /** Every facet of an event, by its key: the run's, the job's, and each dataset's (input and output facets). */
  private static List<Map.Entry<String, JsonNode>> facets(JsonNode root) {
    List<JsonNode> facetMaps = new ArrayList<>();
    facetMaps.add(root.at("/run/facets"));
    facetMaps.add(root.at("/job/facets"));
    for (String side : List.of("inputs", "outputs")) {
      for (JsonNode dataset : root.path(side)) {
        facetMaps.add(dataset.path("facets"));
        facetMaps.add(dataset.path("inputFacets"));
        facetMaps.add(dataset.path("outputFacets"));
      }
    }
    List<Map.Entry<String, JsonNode>> facets = new ArrayList<>();
    for (JsonNode map : facetMaps) {
      if (map.isObject()) {
        facets.addAll(map.properties());
      }
    }
    return facets;
  }

  private static void validate(Schema schema, JsonNode node, boolean formats, String prefix, List<String> errors) {
    for (Error error : schema.validate(node,
        context -> context.executionConfig(config -> config.formatAssertionsEnabled(formats)))) {
      errors.add(prefix + error);
    }
  }
}
