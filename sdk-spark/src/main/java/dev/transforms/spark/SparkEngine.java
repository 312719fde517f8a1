package dev.transforms.spark;

import dev.transforms.api.PublishConflictException;
import dev.transforms.api.TransformFailedException;
import dev.transforms.api.TransformsException;
import dev.transforms.runtime.BuildCancellation;
import dev.transforms.runtime.spi.BoundOutput;
import dev.transforms.runtime.spi.BuildEnvironment;
import dev.transforms.runtime.spi.Engine;
import dev.transforms.runtime.spi.FileSizes;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformRun;
import dev.transforms.spark.internal.StoppedContextWatch;
import dev.transforms.spark.internal.advice.SparkAdvice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.spark.CommitMetadata;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs Spark transforms for one build.
 *
 * <p>The build gets its own session, derived from the active or default session when there is one, or
 * from a session this engine starts (and stops when the build ends); transforms that run at once each
 * get the session of their lane, derived the same way, so that settings one changes never reach another
 * (see {@link BuildSessions}). Each runs its Spark jobs in a job group and a FAIR scheduler pool named
 * after it, and a cancelled build cancels its job group. For each transform it builds the
 * handles, names the staging branch in the session while the method runs (so that
 * {@link TransformsSparkCatalog} loads every output on its branch and creates new outputs there),
 * stamps every commit with the build's provenance, invokes the method, and checks that nothing
 * reached an output's {@code main} behind the staging branch's back.
 */
final class SparkEngine implements Engine {

  private static final Logger LOG = LoggerFactory.getLogger(SparkEngine.class);

  /** The local property naming the FAIR scheduler pool of a thread's jobs. */
  static final String POOL = "spark.scheduler.pool";

  private final BuildEnvironment build;
  private final SparkSession parent;
  private final boolean ownsParent;
  private final Map<Integer, SparkSession> lanes = new java.util.TreeMap<>();
  private final Set<String> usedCatalogs = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private SparkEngine(BuildEnvironment build, SparkSession parent, boolean ownsParent) {
    this.build = build;
    this.parent = parent;
    this.ownsParent = ownsParent;
    lanes.put(0, BuildSessions.sessionFor(parent, build.config(), 0));
  }

  /** The session of a lane: no two transforms use one at once. */
  private synchronized SparkSession session(int lane) {
    return lanes.computeIfAbsent(lane, l -> BuildSessions.sessionFor(parent, build.config(), l));
  }

  static SparkEngine start(BuildEnvironment build) {
    SparkLineCheck.require();
    Optional<SparkSession> existing = existingSession();
    if (existing.isPresent()) {
      if (!SparkSessions.hasIcebergExtensions(existing.get())) {
        LOG.warn("The Spark session in use lacks {} in spark.sql.extensions: CALL statements will not parse. "
            + "Add it where the session is created.", SparkSessions.ICEBERG_EXTENSIONS);
      }
      return new SparkEngine(build, existing.get(), false);
    }
    SparkSession created = SparkSessions.builder(build.config()).getOrCreate();
    return new SparkEngine(build, created, true);
  }

  private static Optional<SparkSession> existingSession() {
    scala.Option<SparkSession> active = SparkSession.getActiveSession();
    scala.Option<SparkSession> chosen = active.isDefined() ? active : SparkSession.getDefaultSession();
    if (chosen.isEmpty() || chosen.get().sparkContext().isStopped()) {
      return Optional.empty();
    }
    return Optional.of(chosen.get());
  }

  @Override
  public void run(TransformRun run) {
    run.inputs().forEach(i -> usedCatalogs.add(i.resolved().catalog()));
    run.outputs().forEach(o -> usedCatalogs.add(o.resolved().catalog()));
    Map<BoundOutput, Long> bases = new LinkedHashMap<>();
    for (BoundOutput output : run.outputs()) {
      // A new output has no main until it is published: only existing ones can be written past staging.
      output.existing().ifPresent(t -> bases.put(output, snapshotId(t.currentSnapshot())));
    }
    SparkSession session = session(run.lane());
    RunScope scope = new RunScope(session);
    boolean published = false;
    try {
      Object[] arguments = arguments(session, run, scope);
      invoke(session, run, arguments);
      checkMainUntouched(run, bases);
      // File outputs are published here, so advisories are judged (and fail an error-level run) first.
      FileSizes.inspect(run);
      run.advisories().judge();
      scope.publishFiles();
      published = true;
    } finally {
      scope.close(published);
    }
  }

  private void invoke(SparkSession session, TransformRun run, Object[] arguments) {
    scala.Option<SparkSession> previousActive = SparkSession.getActiveSession();
    TransformsSessionExtensions.forgetMerge();
    RunningOutputs running = RunningOutputs.register(run);
    session.conf().set(RunningOutputs.SESSION_KEY, RunningOutputs.key(run));
    SparkSession.setActiveSession(session);
    SparkContext context = session.sparkContext();
    String group = jobGroup(run);
    // Thread-local: the jobs of this transform's thread (and the threads it starts), not another's.
    context.setJobGroup(group, "transform " + run.spec().name() + " (build " + run.build().buildId() + ")", true);
    context.setLocalProperty(POOL, run.spec().name());
    StoppedContextWatch watch = new StoppedContextWatch(Thread.currentThread(), context::isStopped);
    BuildCancellation.Registration cancel = run.build().cancellation().onCancel(() -> {
      // Spark's own shutdown hook may stop the context under a job this thread waits for: see the watch.
      watch.start("transforms-stopped-context-" + group);
      context.cancelJobGroup(group);
    });
    SparkAdvice advice = SparkAdvice.start(session, run);
    AutoCloseable lineage = dev.transforms.spark.internal.lineage.SparkLineageSupport.start(session, run);
    try {
      CommitMetadata.withCommitProperties(run.commitProperties(), () -> {
        run.invoke(arguments);
        return null;
      }, RuntimeException.class);
    } catch (TransformFailedException e) {
      throw Errors.translate(run, e);
    } finally {
      if (watch.ended()) {
        Thread.interrupted(); // the watch's interrupt, if the run ended before it was seen, is not the next run's
      }
      if (advice != null) {
        advice.finish();
      }
      closeQuietly(lineage);
      session.conf().unset(RunningOutputs.SESSION_KEY);
      running.unregister();
      cancel.close();
      context.clearJobGroup();
      context.setLocalProperty(POOL, null);
      if (previousActive.isDefined()) {
        SparkSession.setActiveSession(previousActive.get());
      } else {
        SparkSession.clearActiveSession();
      }
      TransformsSessionExtensions.forgetMerge();
    }
  }

  private static void closeQuietly(AutoCloseable lineage) {
    if (lineage == null) {
      return;
    }
    try {
      lineage.close();
    } catch (Exception e) {
      LOG.debug("Ending the lineage of a transform's Spark jobs failed", e);
    }
  }

  /**
   * The job group of a transform's Spark jobs: the Spark UI shows it, and a cancelled build cancels it.
   *
   * @param run the run
   * @return {@code transforms-BUILD-NAME}
   */
  static String jobGroup(TransformRun run) {
    return "transforms-" + run.build().buildId() + "-" + run.spec().name();
  }

  private Object[] arguments(SparkSession session, TransformRun run, RunScope scope) {
    List<ParameterSpec> parameters = run.spec().parameters();
    Object[] arguments = new Object[parameters.size()];
    for (ParameterSpec parameter : parameters) {
      arguments[parameter.index()] = handle(session, run, parameter, scope);
    }
    return arguments;
  }

  private Object handle(SparkSession session, TransformRun run, ParameterSpec parameter, RunScope scope) {
    // The method's own parameter types decide; the spec's type names serve the annotation processor.
    Class<?> type = run.spec().method().getParameterTypes()[parameter.index()];
    Object handle = switch (parameter.role()) {
      case CONTEXT -> new SparkRunContext(session, run);
      case INPUT -> type == TableTransformInput.class ? new TableInputHandle(session, run.input(parameter))
          : type == IncrementalTransformInput.class || type == TransformInput.class
              ? new IncrementalInputHandle(session, run.input(parameter), scope) : null;
      case OUTPUT -> type == TableTransformOutput.class ? new TableOutputHandle(session, run, run.output(parameter))
          : type == TransformOutput.class ? new FileOutputHandle(session, run, run.output(parameter), scope) : null;
    };
    if (handle == null || !type.isInstance(handle)) {
      throw new TransformsException("Parameter " + parameter.name() + " of transform " + run.spec().name()
          + " has type " + parameter.simpleTypeName() + ", which the Spark engine does not provide");
    }
    return handle;
  }

  /**
   * Fails the run if an existing output's {@code main} moved while the method ran: something wrote
   * past the staging branch (an explicit {@code branch_main} write, a session without the staging
   * setting, another writer), and publishing would mix it with this build's writes.
   */
  private static void checkMainUntouched(TransformRun run, Map<BoundOutput, Long> bases) {
    List<String> moved = new ArrayList<>();
    for (Map.Entry<BoundOutput, Long> entry : bases.entrySet()) {
      Optional<Table> staged = run.staging().table(entry.getKey());
      if (staged.isEmpty()) {
        continue;
      }
      Table table = staged.get();
      table.refresh();
      Snapshot now = table.currentSnapshot();
      if (!Objects.equals(snapshotId(now), entry.getValue())) {
        moved.add("output " + entry.getKey().parameter().requirePath() + " ("
            + entry.getKey().resolved().sparkIdentifier() + ") moved from snapshot " + entry.getValue() + " to "
            + snapshotId(now) + " ('" + (now == null ? "?" : now.operation()) + "')");
      }
    }
    if (!moved.isEmpty()) {
      throw new PublishConflictException("Cannot publish transform " + run.spec().name() + ": on main, "
          + String.join("; ", moved) + " while the transform ran. Another writer committed, or a write bypassed the "
          + "staging branch " + run.stagingBranch() + "; nothing was published. Build again to run on the new data.");
    }
  }

  private static Long snapshotId(Snapshot snapshot) {
    return snapshot == null ? null : snapshot.snapshotId();
  }

  @Override
  public List<dev.transforms.runtime.CheckResult> evaluate(TransformRun run,
      dev.transforms.runtime.spi.StagedOutput output, List<dev.transforms.runtime.spi.CheckSpec> checks) {
    // The staged outputs are the run's until it publishes: a new one exists for its session only.
    SparkSession session = session(run.lane());
    RunningOutputs running = RunningOutputs.register(run);
    session.conf().set(RunningOutputs.SESSION_KEY, RunningOutputs.key(run));
    try {
      return SparkChecks.evaluate(session, output, checks);
    } finally {
      session.conf().unset(RunningOutputs.SESSION_KEY);
      running.unregister();
    }
  }

  @Override
  public synchronized void close() {
    if (ownsParent) {
      lanes.values().forEach(session -> SparkSessions.closeCatalogs(session, usedCatalogs));
      BuildSessions.forget(build.config());
      parent.stop();
    } else {
      lanes.values().forEach(BuildSessions::endBuild);
    }
  }

}
