package dev.transforms.lineage;

import dev.transforms.api.checks.Level;
import dev.transforms.runtime.BuildCancelledException;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.CheckResult;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.OutputWrites;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.LineageSettings;
import dev.transforms.runtime.spi.BuildLineage;
import dev.transforms.runtime.spi.DatasetFacts;
import dev.transforms.runtime.spi.DatasetKind;
import dev.transforms.runtime.spi.LineageStart;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.RunLineage;
import dev.transforms.runtime.spi.TransformSpec;
import io.openlineage.client.OpenLineage;
import io.openlineage.client.OpenLineageClientUtils;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OpenLineage events of one build, built with the OpenLineage client's model and sent by a
 * {@link LineageEmitter}. See {@link BuildLineage} for what is emitted when.
 */
final class OpenLineageBuild implements BuildLineage {

  private static final Logger LOG = LoggerFactory.getLogger(OpenLineageBuild.class);

  /** Who produced the events: the SDK's repository. */
  static final URI PRODUCER = URI.create("https://github.com/transforms-java/transforms-java");

  /** The value of {@code integration} in every job's type facet. */
  static final String INTEGRATION = "TRANSFORMS_JAVA";

  /** The source of every tag. */
  static final String TAG_SOURCE = "TRANSFORMS_JAVA";

  private final LineageSettings settings;
  private final TransformsConfig config;
  private final TableResolver resolver;
  private final Map<String, TransformSpec> specs = new LinkedHashMap<>();
  private final String buildId;
  private final String buildJob;
  private final String branch;
  private final UUID buildRunId = UUID.randomUUID();
  private final OpenLineage ol = new OpenLineage(PRODUCER);
  private final java.util.function.UnaryOperator<String> mask;
  private final java.util.function.Function<Throwable, String> describe;
  private final LineageEmitter emitter;
  private final Map<String, RunState> runs = new ConcurrentHashMap<>();

  /** What lineage knows of one transform's run. */
  private static final class RunState {
    final UUID runId = UUID.randomUUID();
    volatile boolean started;
    volatile List<DatasetFacts> inputs = List.of();
    volatile List<DatasetFacts> outputs = List.of();
    volatile List<DatasetFacts> published;
    volatile Map<DatasetPath, Long> bytes = Map.of();
  }

  private OpenLineageBuild(LineageStart start, LineageEmitter emitter) {
    this.settings = start.settings();
    this.config = start.config();
    this.resolver = start.resolver();
    start.transforms().forEach(spec -> specs.put(spec.name(), spec));
    this.buildId = start.buildId();
    this.buildJob = config.pipelineName();
    this.branch = start.branch();
    this.mask = start.mask();
    this.describe = start.describe();
    this.emitter = emitter;
  }

  /**
   * Starts a build's events: its run's {@code START} is queued.
   *
   * @param start the build
   * @return its lineage; {@link BuildLineage#OFF} when the transport cannot be set up (the build's warning)
   */
  static BuildLineage start(LineageStart start) {
    LineageSettings settings = start.settings();
    LineageEmitter emitter;
    try {
      emitter = new LineageEmitter(LineageTransports.shared(settings), start.buildId(), settings.describeTarget(),
          start.warnings());
    } catch (RuntimeException | LinkageError e) {
      start.warnings().accept("OpenLineage: build " + start.buildId() + " emits no events: its transport ("
          + settings.describeTarget() + ") could not be set up: " + start.mask().apply(String.valueOf(e.getMessage()))
          + ". The build is not affected.");
      return OFF;
    }
    OpenLineageBuild lineage = new OpenLineageBuild(start, emitter);
    lineage.emitter.emitBuild(lineage.buildEvent(OpenLineage.RunEvent.EventType.START, Optional.empty()));
    return lineage;
  }

  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public BuildListener listener(BuildListener progress) {
    return new BuildListener() {
      @Override
      public void planned(List<String> transforms) {
        progress.planned(transforms);
      }

      @Override
      public void started(String transform, int position, int total) {
        progress.started(transform, position, total);
      }

      @Override
      public void finished(TransformResult result, int position, int total) {
        try {
          finishedRun(result);
        } catch (RuntimeException | LinkageError e) {
          // Lineage is best effort: an event that cannot be built never fails the build.
          LOG.debug("Could not build the OpenLineage event of transform {}", result.transform(), e);
        }
        progress.finished(result, position, total);
      }
    };
  }

  @Override
  public void started(String transform, List<DatasetFacts> inputs, List<DatasetFacts> outputs) {
    RunState run = state(transform);
    run.inputs = List.copyOf(inputs);
    run.outputs = List.copyOf(outputs);
    run.started = true;
    try {
      emitter.emit(runEvent(transform, run, OpenLineage.RunEvent.EventType.START, null));
    } catch (RuntimeException | LinkageError e) {
      LOG.debug("Could not build the OpenLineage START event of transform {}", transform, e);
    }
  }

  @Override
  public void published(String transform, List<DatasetFacts> outputs, Map<DatasetPath, Long> bytesAdded) {
    RunState run = state(transform);
    run.published = List.copyOf(outputs);
    run.bytes = Map.copyOf(bytesAdded);
  }

  @Override
  public Optional<RunLineage> run(String transform) {
    RunState run = state(transform);
    return Optional.of(new RunLineage(settings.namespace(), transform, run.runId, buildJob, buildRunId,
        settings.timeout(), this::engineEvent));
  }

  /** An engine's own event (a Spark job's), as JSON. */
  private void engineEvent(String json) {
    try {
      emitter.emit(OpenLineageClientUtils.runEventFromJson(json));
    } catch (RuntimeException | LinkageError e) {
      LOG.debug("Could not read an engine's OpenLineage event", e);
    }
  }

  @Override
  public void finish(List<TransformResult> results) {
    try {
      List<String> unsuccessful = results.stream().filter(r -> !r.succeeded())
          .map(r -> r.transform() + " " + r.status().name()).toList();
      emitter.emitBuild(buildEvent(unsuccessful.isEmpty() ? OpenLineage.RunEvent.EventType.COMPLETE
          : OpenLineage.RunEvent.EventType.FAIL, unsuccessful.isEmpty() ? Optional.empty()
          : Optional.of(unsuccessful.size() + " of " + dev.transforms.runtime.Counts.of(results.size(),
              "transform") + " did not succeed: "
              + String.join(", ", unsuccessful))));
    } catch (RuntimeException | LinkageError e) {
      LOG.debug("Could not build the OpenLineage event of build {}", buildId, e);
    }
    emitter.close(settings.timeout().toNanos());
  }

  private RunState state(String transform) {
    return runs.computeIfAbsent(transform, t -> new RunState());
  }

  private void finishedRun(TransformResult result) {
    RunState run = state(result.transform());
    switch (result.status()) {
      case SKIPPED -> emitter.emit(runEvent(result.transform(), run, OpenLineage.RunEvent.EventType.ABORT, result));
      case SUCCEEDED, UP_TO_DATE -> {
        startIfNeeded(result.transform(), run);
        emitter.emit(runEvent(result.transform(), run, OpenLineage.RunEvent.EventType.COMPLETE, result));
      }
      case FAILED -> {
        startIfNeeded(result.transform(), run);
        boolean cancelled = result.error().map(e -> e instanceof BuildCancelledException).orElse(false);
        emitter.emit(runEvent(result.transform(), run, cancelled ? OpenLineage.RunEvent.EventType.ABORT
            : OpenLineage.RunEvent.EventType.FAIL, result));
      }
      default -> { }
    }
  }

  /** A run that failed before its inputs were loaded still gets its START, with its datasets by name. */
  private void startIfNeeded(String transform, RunState run) {
    if (run.started) {
      return;
    }
    TransformSpec spec = specs.get(transform);
    if (spec != null) {
      run.inputs = named(spec.inputs());
      run.outputs = named(spec.outputs()).stream().map(f -> f.onBranch(onBranch())).toList();
    }
    run.started = true;
    emitter.emit(runEvent(transform, run, OpenLineage.RunEvent.EventType.START, null));
  }

  private List<DatasetFacts> named(List<ParameterSpec> parameters) {
    List<DatasetFacts> facts = new ArrayList<>();
    for (ParameterSpec parameter : parameters) {
      DatasetPath path = parameter.requirePath();
      ResolvedTable table = resolver.resolve(path);
      facts.add(parameter.kind().orElse(DatasetKind.TABLE) == DatasetKind.FILES
          ? DatasetFacts.files(path, table, config.filesRoot().resolve(String.join("/", path.segments())))
          : DatasetFacts.named(path, table));
    }
    return facts;
  }

  private OpenLineage.RunEvent buildEvent(OpenLineage.RunEvent.EventType type, Optional<String> failure) {
    OpenLineage.RunFacetsBuilder facets = ol.newRunFacetsBuilder()
        .processing_engine(processingEngine())
        .tags(ol.newTagsRunFacet(buildTags()));
    failure.ifPresent(message -> facets.errorMessage(ol.newErrorMessageRunFacet(message, "Java", null)));
    OpenLineage.JobFacets jobFacets = ol.newJobFacetsBuilder()
        .jobType(ol.newJobTypeJobFacet("BATCH", INTEGRATION, "PIPELINE", null)).build();
    return ol.newRunEventBuilder()
        .eventTime(now())
        .eventType(type)
        .run(ol.newRun(buildRunId, facets.build()))
        .job(ol.newJob(settings.namespace(), buildJob, jobFacets))
        .inputs(List.of())
        .outputs(List.of())
        .build();
  }

  private OpenLineage.RunEvent runEvent(String transform, RunState run, OpenLineage.RunEvent.EventType type,
      TransformResult result) {
    TransformSpec spec = specs.get(transform);
    List<OpenLineage.TagsRunFacetFields> tags = buildTags();
    if (spec != null) {
      tags.add(tag("transforms.engine", spec.engine()));
    }
    if (result != null) {
      tags.add(tag("transforms.status", result.status().name()));
      if (result.status() == TransformResult.Status.SUCCEEDED) {
        tags.add(tag("transforms.incremental", Boolean.toString(result.incremental())));
      }
      if (!result.reason().isBlank()) {
        tags.add(tag("transforms.reason", mask(result.reason())));
      }
    }
    OpenLineage.RunFacetsBuilder facets = ol.newRunFacetsBuilder()
        .parent(ol.newParentRunFacet(ol.newParentRunFacetRun(buildRunId, null),
            ol.newParentRunFacetJob(settings.namespace(), buildJob, null), null))
        .processing_engine(processingEngine())
        .tags(ol.newTagsRunFacet(tags));
    if (result != null && result.error().isPresent() && type == OpenLineage.RunEvent.EventType.FAIL) {
      Throwable error = result.error().get();
      String message = describe.apply(error);
      java.io.StringWriter trace = new java.io.StringWriter();
      error.printStackTrace(new java.io.PrintWriter(trace));
      facets.errorMessage(ol.newErrorMessageRunFacet(mask(message), "Java", mask(trace.toString())));
    }
    OpenLineage.JobFacetsBuilder jobFacets = ol.newJobFacetsBuilder()
        .jobType(ol.newJobTypeJobFacet("BATCH", INTEGRATION, "TRANSFORM", null));
    if (spec != null && !spec.description().isBlank()) {
      jobFacets.documentation(ol.newDocumentationJobFacet(spec.description(), null));
    }
    List<OpenLineage.InputDataset> inputs = new ArrayList<>();
    List<OpenLineage.OutputDataset> outputs = new ArrayList<>();
    boolean complete = type == OpenLineage.RunEvent.EventType.COMPLETE;
    List<DatasetFacts> inputFacts = run.inputs.isEmpty() && spec != null ? named(spec.inputs()) : run.inputs;
    for (DatasetFacts input : inputFacts) {
      DatasetName name = name(input);
      inputs.add(ol.newInputDataset(name.namespace(), name.name(), datasetFacets(input, List.of()).build(), null));
    }
    List<DatasetFacts> outputFacts = complete && run.published != null ? run.published
        : run.outputs.isEmpty() && spec != null ? named(spec.outputs()).stream().map(f -> f.onBranch(onBranch()))
            .toList() : run.outputs;
    for (DatasetFacts output : outputFacts) {
      DatasetName name = name(output);
      List<CheckResult> checks = result == null ? List.of()
          : result.checks().stream().filter(c -> c.output().equals(output.path())).toList();
      OpenLineage.DatasetFacetsBuilder datasetFacets = datasetFacets(output, complete ? checks : List.of());
      OpenLineage.OutputDatasetOutputFacets outputFacets = null;
      if (complete && result != null && result.status() == TransformResult.Status.SUCCEEDED) {
        Optional<OutputWrites> writes = result.outputs().stream().filter(w -> w.path().equals(output.path()))
            .findFirst();
        if (writes.isPresent()) {
          outputFacets = ol.newOutputDatasetOutputFacetsBuilder()
              .outputStatistics(ol.newOutputStatisticsOutputDatasetFacet(writes.get().rowsAdded(),
                  run.bytes.get(output.path()), writes.get().filesAdded()))
              .build();
        }
      }
      outputs.add(ol.newOutputDataset(name.namespace(), name.name(), datasetFacets.build(), outputFacets));
    }
    return ol.newRunEventBuilder()
        .eventTime(now())
        .eventType(type)
        .run(ol.newRun(run.runId, facets.build()))
        .job(ol.newJob(settings.namespace(), transform, jobFacets.build()))
        .inputs(inputs)
        .outputs(outputs)
        .build();
  }

  private OpenLineage.DatasetFacetsBuilder datasetFacets(DatasetFacts facts, List<CheckResult> checks) {
    OpenLineage.DatasetFacetsBuilder facets = ol.newDatasetFacetsBuilder();
    facts.schema().ifPresent(schema -> facets.schema(ol.newSchemaDatasetFacet(fields(schema.asStruct()))));
    facts.branch().ifPresent(ref -> facets.tags(ol.newTagsDatasetFacet(List.of(
        ol.newTagsDatasetFacetFields("iceberg.branch", ref, TAG_SOURCE, null)))));
    if (facts.snapshot().isPresent()) {
      facets.version(ol.newDatasetVersionDatasetFacet(Long.toString(facts.snapshot().getAsLong())));
    }
    if (!checks.isEmpty()) {
      List<OpenLineage.DataQualityAssertionsDatasetFacetAssertions> assertions = new ArrayList<>();
      for (CheckResult check : checks) {
        assertions.add(ol.newDataQualityAssertionsDatasetFacetAssertionsBuilder()
            .assertion(check.check())
            .success(check.outcome() == CheckResult.Outcome.PASSED)
            .severity(check.level() == Level.FAIL ? "error" : "warn")
            .actual(check.outcome() == CheckResult.Outcome.PASSED ? null
                : check.violations() + " violating row" + (check.violations() == 1 ? "" : "s"))
            .build());
      }
      facets.put("dataQualityAssertions", new OutputAssertionsFacet(
          ol.newDataQualityAssertionsDatasetFacet(assertions)));
    }
    return facets;
  }

  private List<OpenLineage.SchemaDatasetFacetFields> fields(Types.StructType struct) {
    List<OpenLineage.SchemaDatasetFacetFields> fields = new ArrayList<>();
    for (Types.NestedField field : struct.fields()) {
      fields.add(field(field.name(), field.type(), field.doc()));
    }
    return fields;
  }

  private OpenLineage.SchemaDatasetFacetFields field(String name, Type type, String doc) {
    OpenLineage.SchemaDatasetFacetFieldsBuilder builder = ol.newSchemaDatasetFacetFieldsBuilder().name(name)
        .description(doc);
    if (type.isStructType()) {
      return builder.type("struct").fields(fields(type.asStructType())).build();
    }
    if (type.isListType()) {
      Types.ListType list = type.asListType();
      return builder.type("list").fields(List.of(field("element", list.elementType(), null))).build();
    }
    if (type.isMapType()) {
      Types.MapType map = type.asMapType();
      return builder.type("map").fields(List.of(field("key", map.keyType(), null),
          field("value", map.valueType(), null))).build();
    }
    return builder.type(type.toString()).build();
  }

  /** A dataset's OpenLineage name: an Iceberg table by its catalog and identifier, files by their location. */
  private DatasetName name(DatasetFacts facts) {
    if (!facts.isTable()) {
      Path location = facts.files().orElseThrow().toAbsolutePath().normalize();
      return new DatasetName("file", location.toString());
    }
    return tableName(facts.table());
  }

  DatasetName tableName(ResolvedTable table) {
    Map<String, String> catalog = config.catalogs().getOrDefault(table.catalog(), Map.of());
    String namespace = Optional.ofNullable(catalog.get("uri")).filter(u -> !u.isBlank())
        .or(() -> Optional.ofNullable(catalog.get("warehouse")).filter(w -> !w.isBlank()))
        .map(OpenLineageBuild::withoutSecrets)
        .orElse("iceberg://" + table.catalog());
    List<String> parts = new ArrayList<>(table.namespace());
    parts.add(table.table());
    return new DatasetName(mask(namespace), String.join(".", parts));
  }

  /** A catalog URI without user information and query, where credentials are written. */
  static String withoutSecrets(String uri) {
    String trimmed = uri.strip();
    int query = trimmed.indexOf('?');
    if (query >= 0) {
      trimmed = trimmed.substring(0, query);
    }
    return trimmed.replaceFirst("//[^/@\\s]*@", "//");
  }

  private String mask(String text) {
    return text == null ? null : mask.apply(text);
  }

  /** The tags of every run of the build: its id and, on a branch build, the branch. */
  private List<OpenLineage.TagsRunFacetFields> buildTags() {
    List<OpenLineage.TagsRunFacetFields> tags = new ArrayList<>();
    tags.add(tag("transforms.build-id", buildId));
    if (onBranch() != null) {
      tags.add(tag("transforms.branch", branch));
    }
    return tags;
  }

  /** The build's branch; null for a build of {@code main}. */
  private String onBranch() {
    return branch == null || branch.equals(org.apache.iceberg.SnapshotRef.MAIN_BRANCH) ? null : branch;
  }

  private OpenLineage.TagsRunFacetFields tag(String key, String value) {
    return ol.newTagsRunFacetFields(key, value, TAG_SOURCE);
  }

  private OpenLineage.ProcessingEngineRunFacet processingEngine() {
    return ol.newProcessingEngineRunFacet(SDK_VERSION, "transforms-java", CLIENT_VERSION);
  }

  private static ZonedDateTime now() {
    return ZonedDateTime.now(ZoneOffset.UTC);
  }

  /** The SDK's version, from the sdk-api jar's Maven descriptor. */
  static final String SDK_VERSION = mavenVersion("dev.transforms", "sdk-api", "unknown");

  /** The OpenLineage client's version the SDK was built with. */
  static final String CLIENT_VERSION = "1.54.0";

  private static String mavenVersion(String group, String artifact, String otherwise) {
    String resource = "META-INF/maven/" + group + "/" + artifact + "/pom.properties";
    try (InputStream in = OpenLineageBuild.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        return otherwise;
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", otherwise).strip();
    } catch (java.io.IOException | IllegalArgumentException e) {
      return otherwise;
    }
  }

  /** A dataset's namespace and name. */
  record DatasetName(String namespace, String name) {}
}
