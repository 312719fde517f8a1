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
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * OpenLineage's JSON schemas (the event, spec 2-0-2, and every facet of the versions the SDK's client
 * emits), read from a folder, never from the network: {@code shared/openlineage-spec} beside the
 * repository (where the project keeps public data files), or the folder the system property
 * {@code openlineage.spec} names. Validates an event against the event's schema and each facet against
 * the schema its {@code _schemaURL} names; a facet whose schema is not in the folder is a failure, unless
 * its producer is not this SDK (the Spark integration adds facets of its own schemas). Formats
 * ({@code uuid}, {@code date-time}, {@code uri}) are asserted for this SDK's events; for other producers'
 * only the structure is (openlineage-spark 1.53 writes {@code "uri": "file"} in its data source facet of
 * local files, which is not an absolute URI).
 */
final class OpenLineageSchemas {

  static final Path DEFAULT = DocSnippets.REPO.resolve("../shared/openlineage-spec").normalize();
  static final String EVENT = "https://openlineage.io/spec/2-0-2/OpenLineage.json";
  private static final Pattern ID = Pattern.compile("\"\\$id\"\\s*:\\s*\"([^\"]+)\"");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SchemaRegistry registry;
  private final Map<String, String> schemas;

  private OpenLineageSchemas(Map<String, String> schemas) {
    this.schemas = schemas;
    this.registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
        builder -> builder.schemas(schemas));
  }

  static OpenLineageSchemas load() throws IOException {
    Path folder = Path.of(System.getProperty("openlineage.spec", DEFAULT.toString()));
    if (!Files.isRegularFile(folder.resolve("OpenLineage.json"))) {
      throw new IllegalStateException("OpenLineage's JSON schemas are not in " + folder + " (OpenLineage.json and "
          + "facets/*.json of spec 2-0-2); put them there, or name their folder with -Dopenlineage.spec=DIR");
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
    return new OpenLineageSchemas(schemas);
  }

  /**
   * What is wrong with an event: every error of the event against the event's schema, and of each facet
   * against its own schema.
   *
   * @param event the event's JSON
   * @param ownProducer the producer whose facets must all have a schema here
   * @return the errors, one line each; empty when valid
   */
  List<String> errors(String event, String ownProducer) {
    List<String> errors = new ArrayList<>();
    JsonNode root = JSON.readTree(event);
    boolean formats = root.path("producer").asString("").startsWith(ownProducer);
    Schema eventSchema = registry.getSchema(SchemaLocation.of(EVENT));
    for (Error error : eventSchema.validate(root,
        context -> context.executionConfig(config -> config.formatAssertionsEnabled(formats)))) {
      errors.add("event: " + error);
    }
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
    for (JsonNode facets : facetMaps) {
      Iterator<Map.Entry<String, JsonNode>> fields = facets.properties().iterator();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> facet = fields.next();
        String url = facet.getValue().path("_schemaURL").asString("");
        String document = url.contains("#") ? url.substring(0, url.indexOf('#')) : url;
        if (!schemas.containsKey(document)) {
          if (facet.getValue().path("_producer").asString("").startsWith(ownProducer)) {
            errors.add("facet " + facet.getKey() + ": no schema at " + url);
          }
          continue;
        }
        Schema schema = registry.getSchema(SchemaLocation.of(url));
        for (Error error : schema.validate(facet.getValue(),
            context -> context.executionConfig(config -> config.formatAssertionsEnabled(formats)))) {
          errors.add("facet " + facet.getKey() + ": " + error);
        }
      }
    }
    return errors;
  }
}
