package dev.transforms.runtime.internal.build;

import dev.transforms.api.IncrementalRequiredException;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.api.Transform;
import dev.transforms.api.TransformsException;
import dev.transforms.runtime.AdvisorySettings;
import dev.transforms.runtime.BuildCancellation;
import dev.transforms.runtime.BuildCancelledException;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.CheckResult;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.OutputWrites;
import dev.transforms.runtime.TableResolver;
import dev.transforms.runtime.TransformResult;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.catalog.Catalogs;
import dev.transforms.runtime.internal.engine.EngineRegistry;
import dev.transforms.runtime.internal.incremental.CodeFingerprint;
import dev.transforms.runtime.internal.incremental.FileFingerprint;
import dev.transforms.runtime.internal.incremental.Freshness;
import dev.transforms.runtime.internal.incremental.IncrementalDecider;
import dev.transforms.runtime.internal.incremental.IncrementalState;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.publish.BranchView;
import dev.transforms.runtime.internal.publish.BuildBranch;
import dev.transforms.runtime.internal.publish.BuildRecovery;
import dev.transforms.runtime.internal.publish.FolderPublisher;
import dev.transforms.runtime.internal.publish.OutputPublisher;
import dev.transforms.runtime.secrets.CauseChain;
import dev.transforms.runtime.spi.BoundInput;
import dev.transforms.runtime.spi.BoundOutput;
import dev.transforms.runtime.spi.BuildEnvironment;
import dev.transforms.runtime.spi.BuildLineage;
import dev.transforms.runtime.spi.CrashPoints;
import dev.transforms.runtime.spi.DatasetFacts;
import dev.transforms.runtime.spi.Engine;
import dev.transforms.runtime.spi.EngineProvider;
import dev.transforms.runtime.spi.FileSizes;
import dev.transforms.runtime.spi.IncrementalDecision;
import dev.transforms.runtime.spi.IncrementalSpec;
import dev.transforms.runtime.spi.RunAdvisories;
import dev.transforms.runtime.spi.TransformRun;
import dev.transforms.runtime.spi.TransformSpec;
import java.lang.reflect.Modifier;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.Table;

/**
 * Runs a planned build: for each transform, once its upstream has published, resolves its paths, loads
 * its tables, skips it if it is up to date, decides whether it runs incrementally, stages its outputs,
 * has its engine invoke it, and publishes its outputs, or discards everything it wrote if it fails.
 * {@link BuildScheduler} decides when each starts and how many run at once.
 *
 * <p>A failed transform does not stop the build: transforms downstream of it are skipped, the others
 * run. This is the one code path behind the command line and the testing kit. One runner may run
 * several builds at once, from several threads.
 */
public final class BuildRunner implements AutoCloseable {

  private static final SecureRandom RANDOM = new SecureRandom();

  private final TransformsConfig config;
  private final Catalogs catalogs;
  private final TableResolver resolver;
  private final TransformTables tables;
  private final ClassLoader loader;
  private final List<EngineProvider> providers;
  private final Map<List<Object>, String> fingerprints = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * Creates a runner whose engines are found on the context class loader.
   *
   * @param config the configuration
   */
  public BuildRunner(TransformsConfig config) {
    this(config, Thread.currentThread().getContextClassLoader(), null);
  }

  /**
   * Creates a runner with explicit engines, for tests and embedding.
   *
   * @param config the configuration
   * @param loader the class loader to find engines with, when {@code providers} is null
   * @param providers the engines to use, or {@code null} to find them with {@link java.util.ServiceLoader}
   */
  public BuildRunner(TransformsConfig config, ClassLoader loader, List<EngineProvider> providers) {
    this.config = config;
    this.catalogs = new Catalogs(config);
    this.resolver = new TableResolver(config);
    this.tables = new TransformTables(config, catalogs, resolver);
    this.loader = loader;
    this.providers = providers;
  }

  /**
   * The catalogs this runner writes through.
   *
   * @return the catalogs
   */
  public Catalogs catalogs() {
    return catalogs;
  }

  /**
   * The resolver of dataset paths.
   *
   * @return the resolver
   */
  public TableResolver resolver() {
    return resolver;
  }

  /**
   * Runs a build.
   *
   * @param plan the transforms, in dependency order
   * @param listener hears progress
   * @return the report
   */
  public BuildReport run(BuildPlan plan, BuildListener listener) {
    return run(plan, listener, BuildOptions.NONE);
  }

  /**
   * Runs a build: transforms that are up to date are skipped ({@link Freshness}), except those the
   * options force, and those the options name build in full whatever their state.
   *
   * @param plan the transforms, in dependency order
   * @param listener hears progress
   * @param options transforms to build in full, and transforms to run even when up to date
   * @return the report
   */
  public BuildReport run(BuildPlan plan, BuildListener listener, BuildOptions options) {
    return run(plan, listener, options, new BuildCancellation());
  }

  /**
   * Runs a build, at most {@link BuildOptions#threads()} transforms at once ({@link BuildScheduler}),
   * until it ends or is cancelled.
   *
   * @param plan the transforms, in dependency order
   * @param listener hears progress, one call at a time
   * @param options what to build in full, what to force, how many at once, whether to fail fast
   * @param cancellation stops the build cleanly: nothing more starts, running transforms are discarded
   * @return the report
   */
  public BuildReport run(BuildPlan plan, BuildListener listener, BuildOptions options, BuildCancellation cancellation) {
    long start = System.nanoTime();
    String buildId = HexFormat.of().formatHex(randomBytes());
    BuildLineage lineage = BuildLineages.start(config, resolver, plan.transforms(), buildId, options.branch().name(),
        loader);
    BuildEnvironment environment = new BuildEnvironment(buildId, config,
        Math.min(options.threads(), Math.max(1, plan.transforms().size())), cancellation, lineage::run,
        folder -> FolderPublisher.stage(folder, buildId));
    AdvisorySettings advice = AdvisorySettings.of(config.values());
    List<TransformResult> results = List.of();
    try (EngineRegistry engines = providers == null ? new EngineRegistry(environment, loader)
        : new EngineRegistry(environment, providers)) {
      results = BuildScheduler.run(plan, options, cancellation, lineage.listener(listener),
          (spec, lane) -> runOne(environment, lineage, engines, spec, advice, options.full().contains(spec.name()),
              options.forced().contains(spec.name()) || options.full().contains(spec.name()), lane,
              options.branch()));
    } finally {
      // The build's last event, then at most openlineage.timeout for what is still queued.
      lineage.finish(results);
    }
    return new BuildReport(buildId, results, Duration.ofNanos(System.nanoTime() - start));
  }

  private static byte[] randomBytes() {
    byte[] bytes = new byte[6];
    RANDOM.nextBytes(bytes);
    return bytes;
  }

  private TransformResult runOne(BuildEnvironment environment, BuildLineage lineage, EngineRegistry engines,
      TransformSpec spec, AdvisorySettings advice, boolean full, boolean forced, int lane, BuildBranch branch) {
    long start = System.nanoTime();
    RunAdvisories advisories = new RunAdvisories(spec.name(),
        advice.levelFor(spec.method().getAnnotation(Transform.class)), advice);
    OutputPublisher publisher = null;
    IncrementalDecision decision = IncrementalDecision.full("");
    List<String> notes = List.of();
    List<CheckResult> checks = List.of();
    try {
      List<TransformTables.LoadedInput> loaded = tables.inputs(spec, branch);
      List<BoundOutput> outputs = tables.outputs(spec);
      if (lineage.enabled()) {
        lineage.started(spec.name(), inputFacts(loaded, branch), outputFacts(outputs, branch));
      }

      // What dead builds left on the outputs goes first: their branches, or the rest of their publication.
      notes = BuildRecovery.recover(spec.name(), environment.buildId(), tables.staged(outputs)).notes();

      // Decide from what the outputs remember of the last build and how the inputs changed since.
      Map<DatasetPath, Table> inputTables = new LinkedHashMap<>();
      Map<DatasetPath, OptionalLong> current = new LinkedHashMap<>();
      for (TransformTables.LoadedInput input : loaded) {
        input.table().ifPresent(t -> {
          inputTables.put(input.parameter().requirePath(), t);
          current.put(input.parameter().requirePath(), input.snapshot());
        });
      }
      Map<DatasetPath, Table> existingOutputs = new LinkedHashMap<>();
      outputs.forEach(o -> o.existing().ifPresent(t -> existingOutputs.put(o.parameter().requirePath(),
          BranchView.output(t, branch))));
      int outputTables = (int) outputs.stream().filter(o -> o.fileLocation().isEmpty()).count();
      IncrementalDecider.StoredState stored = IncrementalDecider.storedState(spec.name(), existingOutputs, outputTables);
      Map<DatasetPath, String> files = new LinkedHashMap<>();
      loaded.forEach(input -> input.files().ifPresent(f -> files.put(input.parameter().requirePath(),
          FileFingerprint.of(f))));
      String code = codeFingerprint(spec);
      Freshness freshness = Freshness.of(spec, stored, existingOutputs, current, files, code);
      if (freshness.upToDate() && !forced) {
        if (lineage.enabled()) {
          lineage.published(spec.name(), outputFacts(outputs, branch), Map.of());
        }
        // Nothing to do: no engine is started, nothing is committed.
        return new TransformResult(spec.name(), spec.engine(), TransformResult.Status.UP_TO_DATE, false,
            freshness.reason(), List.of(), Duration.ofNanos(System.nanoTime() - start), Optional.empty(), notes,
            List.of(), List.of());
      }
      checkNotCancelled(environment, spec, "was not started");
      Engine engine = engines.engineFor(spec);
      decision = full ? IncrementalDecision.full("a full build was asked for (--full)")
          : IncrementalDecider.decide(spec, stored, inputTables, current);
      Optional<IncrementalSpec> options = spec.incremental();
      if (!full && options.isPresent() && options.get().requireIncremental() && !decision.incremental()
          && stored.state().isPresent()) {
        throw new IncrementalRequiredException("Transform " + spec.name()
            + " requires an incremental build, but this build must be full: " + decision.reason());
      }
      List<BoundInput> inputs = TransformTables.bind(spec, loaded, stored, decision);
      IncrementalState state = new IncrementalState(spec.name(),
          options.map(IncrementalSpec::semanticVersion).orElse(1), environment.buildId(), current, code, files);

      publisher = OutputPublisher.stage(spec.name(), environment.buildId(), tables.staged(outputs), branch);
      Object target = Modifier.isStatic(spec.method().getModifiers()) ? null : instantiate(spec);
      TransformRun run = new TransformRun(environment, spec, target, inputs, outputs, decision, publisher,
          IncrementalState.provenance(spec.name(), environment.buildId()), advisories, lane);
      engine.run(run);
      CrashPoints.reached("run.returned");
      // Under level error an advisory fails the run here, before the checks, so that nothing is published.
      FileSizes.inspect(run);
      advisories.judge();
      checks = OutputAudit.audit(engine, run, publisher.publishedSnapshots());
      OutputAudit.enforce(spec.name(), checks);
      OutputPublisher publishing = publisher;
      publisher = null;
      notes = withEngineNotes(notes, publishing);
      Map<DatasetPath, SchemaChangePolicy> policies = new LinkedHashMap<>();
      if (decision.incremental()) {
        outputs.stream().filter(o -> o.fileLocation().isEmpty())
            .forEach(o -> policies.put(o.parameter().requirePath(), run.schemaChangePolicy(o)));
      }
      // The last moment a cancelled build discards a run rather than publishing it: from here on the
      // publication completes, so that no output is half published.
      publisher = publishing;
      checkNotCancelled(environment, spec, "ran but was not published; its writes are discarded");
      publisher = null;
      List<OutputWrites> writes = publishing.publish(state, OutputAudit.properties(checks), policies);
      if (lineage.enabled()) {
        publishedFacts(lineage, spec, outputs, writes, publishing.published(), branch);
      }
      return new TransformResult(spec.name(), spec.engine(), TransformResult.Status.SUCCEEDED,
          decision.incremental(), why(decision, freshness, forced), writes, Duration.ofNanos(System.nanoTime() - start),
          Optional.empty(), notes, checks, advisories.list());
    } catch (RuntimeException | LinkageError e) {
      if (publisher != null) {
        notes = withEngineNotes(notes, publisher);
        publisher.discard();
      }
      advisories.log(); // what the failed run earned; its own error stays the one reported
      Throwable error = stoppedByCancellation(environment, spec, e);
      return new TransformResult(spec.name(), spec.engine(), TransformResult.Status.FAILED, decision.incremental(),
          decision.reason(), List.of(), Duration.ofNanos(System.nanoTime() - start), Optional.of(masked(error)), notes,
          checks, advisories.list());
    }
  }

  /**
   * Why a transform ran and how: the decision's reason (why incremental, or why in full), led by what made
   * it stale when that was not its inputs (its code or settings, its semantic version, its outputs), so
   * that the report says what {@code transforms plan} said. Alone, "inputs changed only by appends" or "not
   * an incremental transform" is not why such a transform ran, and the first need not even be true.
   */
  private static String why(IncrementalDecision decision, Freshness freshness, boolean forced) {
    if (freshness.upToDate() || freshness.inputsMoved() || decision.reason().contains(freshness.reason())) {
      return decision.reason();
    }
    return freshness.reason() + (decision.incremental() ? "; read incrementally: " : "; in full: ")
        + decision.reason();
  }

  /**
   * The inputs as lineage names them: tables at the snapshot pinned, or files; on a branch build, each
   * table with the branch it was read at.
   */
  private static List<DatasetFacts> inputFacts(List<TransformTables.LoadedInput> loaded, BuildBranch branch) {
    List<DatasetFacts> facts = new ArrayList<>();
    for (TransformTables.LoadedInput input : loaded) {
      DatasetPath path = input.parameter().requirePath();
      facts.add(input.table().map(t -> DatasetFacts.table(path, input.resolved(), DatasetFacts.schemaAt(t,
          input.snapshot()), input.snapshot()))
          .orElseGet(() -> DatasetFacts.files(path, input.resolved(), input.files().orElseThrow()))
          .onBranch(branch.isMain() ? null : input.branch()));
    }
    return facts;
  }

  /** The outputs as they are before the run (or when up to date), on the build's branch. */
  private static List<DatasetFacts> outputFacts(List<BoundOutput> outputs, BuildBranch branch) {
    List<DatasetFacts> facts = new ArrayList<>();
    for (BoundOutput output : outputs) {
      DatasetPath path = output.parameter().requirePath();
      if (output.fileLocation().isPresent()) {
        facts.add(DatasetFacts.files(path, output.resolved(), output.fileLocation().get()));
      } else if (output.existing().isPresent()) {
        Table table = BranchView.output(output.existing().get(), branch);
        facts.add(DatasetFacts.table(path, output.resolved(), table.schema(), TransformTables.currentSnapshot(table)));
      } else {
        facts.add(DatasetFacts.named(path, output.resolved()));
      }
    }
    return onBranch(facts, branch);
  }

  private static List<DatasetFacts> onBranch(List<DatasetFacts> facts, BuildBranch branch) {
    return branch.isMain() ? facts : facts.stream().map(f -> f.onBranch(branch.name())).toList();
  }

  /** The outputs as published: the schema readers see and the snapshot published. */
  private static void publishedFacts(BuildLineage lineage, TransformSpec spec, List<BoundOutput> outputs,
      List<OutputWrites> writes, Map<DatasetPath, OutputPublisher.Published> published, BuildBranch branch) {
    List<DatasetFacts> facts = new ArrayList<>();
    Map<DatasetPath, Long> bytes = new LinkedHashMap<>();
    for (BoundOutput output : outputs) {
      DatasetPath path = output.parameter().requirePath();
      if (output.fileLocation().isPresent()) {
        facts.add(DatasetFacts.files(path, output.resolved(), output.fileLocation().get()));
        continue;
      }
      OptionalLong snapshot = writes.stream().filter(w -> w.path().equals(path)).findFirst()
          .map(OutputWrites::snapshotId).orElse(OptionalLong.empty());
      OutputPublisher.Published done = published.get(path);
      if (done != null) {
        facts.add(DatasetFacts.table(path, output.resolved(), done.schema(), snapshot));
        bytes.put(path, done.bytesAdded());
      } else if (output.existing().isPresent()) {
        facts.add(DatasetFacts.table(path, output.resolved(), output.existing().get().schema(), snapshot));
      } else {
        facts.add(DatasetFacts.named(path, output.resolved()));
      }
    }
    lineage.published(spec.name(), onBranch(facts, branch), bytes);
  }

  /**
   * The error a transform reports when it failed while its build was cancelled: that it was cancelled,
   * whatever the failure (on Ctrl-C the JVM's shutdown hooks stop Spark and Hadoop under a running
   * transform, which then fails with a rejected task or "Shutdown in progress"). The failure is kept as
   * a suppressed exception, for {@code --verbose}.
   */
  private static Throwable stoppedByCancellation(BuildEnvironment environment, TransformSpec spec, Throwable error) {
    if (!environment.cancellation().isCancelled() || error instanceof BuildCancelledException) {
      return error;
    }
    BuildCancelledException cancelled = new BuildCancelledException("Transform " + spec.name()
        + " was stopped and its writes discarded: the build was cancelled ("
        + environment.cancellation().reason().orElse("cancelled") + ")");
    cancelled.addSuppressed(error);
    return cancelled;
  }

  private static void checkNotCancelled(BuildEnvironment environment, TransformSpec spec, String what) {
    if (environment.cancellation().isCancelled()) {
      throw new BuildCancelledException("Transform " + spec.name() + " " + what + ": the build was cancelled ("
          + environment.cancellation().reason().orElse("cancelled") + ")");
    }
  }

  /**
   * The fingerprint of a transform's code and engine settings, computed once per loaded class (a class,
   * once loaded, never changes; another version of it is another class).
   */
  private String codeFingerprint(TransformSpec spec) {
    return fingerprints.computeIfAbsent(List.of(spec.method().getDeclaringClass(), spec.engine()),
        k -> CodeFingerprint.of(spec, config));
  }

  private static List<String> withEngineNotes(List<String> notes, OutputPublisher publisher) {
    List<String> all = new ArrayList<>(notes);
    all.addAll(publisher.recoveryNotes());
    return all;
  }

  private Throwable masked(Throwable e) {
    return CauseChain.masked(e, config.masker());
  }

  private static Object instantiate(TransformSpec spec) {
    try {
      return spec.method().getDeclaringClass().getConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new TransformsException("Cannot create " + spec.method().getDeclaringClass().getName()
          + " to run transform " + spec.name() + ": " + e, e);
    }
  }

  @Override
  public void close() {
    catalogs.close();
  }
}
