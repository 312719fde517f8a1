package dev.transforms;

import dev.transforms.runtime.BuildCancellation;
import dev.transforms.runtime.BuildListener;
import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.ResolvedTable;
import dev.transforms.runtime.TransformsConfig;
import dev.transforms.runtime.internal.build.BranchOutputs;
import dev.transforms.runtime.internal.build.BuildOptions;
import dev.transforms.runtime.internal.build.BuildRunner;
import dev.transforms.runtime.internal.config.BranchNames;
import dev.transforms.runtime.internal.discovery.TransformIndex;
import dev.transforms.runtime.internal.plan.BuildPlan;
import dev.transforms.runtime.internal.validate.ReflectiveModels;
import dev.transforms.runtime.spi.DatasetKind;
import dev.transforms.runtime.spi.EngineProvider;
import dev.transforms.runtime.spi.ParameterSpec;
import dev.transforms.runtime.spi.TransformSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.catalog.Catalog;

/**
 * Builds transforms from Java: what the command line's {@code transforms build}, the testing kit and
 * the SDK's own tests call. An instance owns the catalogs of one configuration and the engines it
 * starts, and closes them.
 *
 * <pre>{@code
 * try (Transforms transforms = Transforms.open(TransformsConfig.embedded(Path.of("warehouse")))) {
 *   BuildReport report = transforms.build(RowUpdates.class, DailyTotals.class);
 *   report.results().forEach(r -> System.out.println(r.transform() + " " + r.status()));
 * }
 * }</pre>
 *
 * <p>A build validates the transforms' declarations, orders them by their datasets, starts the
 * catalogs they use (failing before anything is written when one cannot be reached or written), and
 * runs them: see {@link #build(Selection)}.
 */
public final class Transforms implements AutoCloseable {

  private final BuildRunner runner;

  private Transforms(BuildRunner runner) {
    this.runner = runner;
  }

  /**
   * Opens a configuration's catalogs for builds; engines are found on the class path.
   *
   * @param config the configuration
   * @return the builder of that configuration, to close when done
   */
  public static Transforms open(TransformsConfig config) {
    return new Transforms(new BuildRunner(Objects.requireNonNull(config, "config")));
  }

  /**
   * Opens a configuration with the given engines instead of those found on the class path, for tests
   * and benchmarks of the runtime itself.
   *
   * @param config the configuration
   * @param loader the class loader engines and transforms come from; null for the context class loader
   * @param engines the engines
   * @return the builder, to close when done
   */
  public static Transforms open(TransformsConfig config, ClassLoader loader, List<EngineProvider> engines) {
    return new Transforms(new BuildRunner(Objects.requireNonNull(config, "config"), loader, engines));
  }

  /**
   * Builds every transform of some classes, in dependency order.
   *
   * @param transformClasses classes holding {@code @Transform} methods
   * @return the report; a failed transform is in it, not thrown
   * @throws dev.transforms.api.InvalidTransformException if a declaration is invalid
   * @throws dev.transforms.api.PlanException if the transforms cannot be ordered
   */
  public BuildReport build(Class<?>... transformClasses) {
    return build(Selection.of(transformClasses));
  }

  /**
   * Builds a selection of transforms.
   *
   * @param selection which transforms, and who hears the progress
   * @return the report; a failed transform is in it, not thrown
   * @throws dev.transforms.api.InvalidTransformException if a declaration is invalid
   * @throws dev.transforms.api.PlanException if the transforms cannot be ordered, or a name given
   *     matches none or several
   */
  public BuildReport build(Selection selection) {
    BuildPlan plan = selection.plan();
    startCatalogs(plan);
    selection.listener.planned(plan.transforms().stream().map(TransformSpec::name).toList());
    return runner.run(plan, selection.listener, selection.options(plan, config()),
        selection.cancellation == null ? new BuildCancellation() : selection.cancellation);
  }

  /**
   * The branches built on the outputs of a selection ({@code transforms branch list}): every branch but
   * {@code main} and the SDK's own staging branches.
   *
   * @param selection whose table outputs to look at
   * @return each branch with the paths of the outputs that have it, by name
   */
  public java.util.Map<String, List<String>> branches(Selection selection) {
    return outputsOf(selection).branches();
  }

  /**
   * Promotes a branch ({@code transforms promote NAME}): every output of the selection built on it gets
   * its {@code main} fast-forwarded to the branch, with the state the branch's builds stored, and the
   * branch removed. All the tables are checked first; see {@code docs/branches.md}.
   *
   * @param selection whose table outputs to promote
   * @param branch the branch
   * @return the paths promoted
   * @throws IllegalArgumentException naming the branch, if no build could have used that name
   * @throws dev.transforms.api.PublishConflictException naming the tables where {@code main} moved since
   *     the branch was cut; nothing is promoted
   */
  public List<String> promote(Selection selection, String branch) {
    return outputsOf(selection).promote(branch);
  }

  /**
   * Drops a branch ({@code transforms branch drop NAME}) from every output of the selection that has it,
   * with the snapshots and files only it holds and the state its builds stored. {@code main} is untouched.
   *
   * @param selection whose table outputs to drop it from
   * @param branch the branch
   * @return the paths it was dropped from
   * @throws IllegalArgumentException naming the branch, if no build could have used that name
   */
  public List<String> dropBranch(Selection selection, String branch) {
    return outputsOf(selection).drop(branch);
  }

  private BranchOutputs outputsOf(Selection selection) {
    return new BranchOutputs(runner.catalogs(), runner.resolver(), selection.tableOutputs());
  }

  /**
   * The catalog table a dataset path resolves to under this configuration.
   *
   * @param path a dataset path, such as {@code /Examples/iceberg/row-updates}
   * @return the resolved table
   * @throws dev.transforms.api.InvalidPathException if the path is malformed or no mount holds it
   */
  public ResolvedTable resolve(String path) {
    return runner.resolver().resolve(DatasetPath.of(path));
  }

  /**
   * A catalog of this configuration, started on first use.
   *
   * @param name the catalog's name in the configuration
   * @return the catalog
   * @throws dev.transforms.api.ConfigurationException if there is no such catalog or it cannot start
   */
  public Catalog catalog(String name) {
    return runner.catalogs().catalog(name);
  }

  /**
   * The configuration.
   *
   * @return the configuration
   */
  public TransformsConfig config() {
    return runner.catalogs().config();
  }

  /** Closes the catalogs and stops the engines this instance started. */
  @Override
  public void close() {
    runner.close();
  }

  /** Starts every catalog the plan reads or writes, and checks the ones it writes to accept writes. */
  private void startCatalogs(BuildPlan plan) {
    Set<String> names = new TreeSet<>();
    Set<String> written = new TreeSet<>();
    for (TransformSpec spec : plan.transforms()) {
      for (ParameterSpec p : spec.inputs()) {
        names.add(runner.resolver().resolve(p.requirePath()).catalog());
      }
      for (ParameterSpec p : spec.outputs()) {
        written.add(runner.resolver().resolve(p.requirePath()).catalog());
      }
    }
    names.addAll(written);
    for (String name : names) {
      runner.catalogs().checkWritable(name);
      if (written.contains(name)) {
        runner.catalogs().checkWarehouseWritable(name);
      }
      runner.catalogs().catalog(name);
    }
  }

  /**
   * Which transforms a build runs: those of some classes, or those the annotation processor indexed
   * on a class path; all of them, or some by name with everything upstream of them.
   */
  public static final class Selection {
    private final List<TransformSpec> transforms;
    private final List<String> names;
    private final BuildListener listener;
    private final boolean full;
    private final boolean force;
    private final int threads;
    private final boolean failFast;
    private final BuildCancellation cancellation;
    private final String branch;

    private Selection(List<TransformSpec> transforms, List<String> names, BuildListener listener, boolean full,
        boolean force, int threads, boolean failFast, BuildCancellation cancellation, String branch) {
      this.transforms = List.copyOf(transforms);
      this.names = List.copyOf(names);
      this.listener = listener;
      this.full = full;
      this.force = force;
      this.threads = threads;
      this.failFast = failFast;
      this.cancellation = cancellation;
      this.branch = branch;
    }

    private static Selection of(List<TransformSpec> transforms) {
      return new Selection(transforms, List.of(), BuildListener.NONE, false, false, 0, false, null, null);
    }

    /**
     * Every transform of some classes, validated from their methods.
     *
     * @param transformClasses classes holding {@code @Transform} methods
     * @return the selection
     * @throws dev.transforms.api.InvalidTransformException if a declaration is invalid
     */
    public static Selection of(Class<?>... transformClasses) {
      return of(Arrays.asList(transformClasses));
    }

    /**
     * Every transform of some classes, validated from their methods.
     *
     * @param transformClasses classes holding {@code @Transform} methods
     * @return the selection
     * @throws dev.transforms.api.InvalidTransformException if a declaration is invalid
     */
    public static Selection of(Collection<Class<?>> transformClasses) {
      List<TransformSpec> specs = new ArrayList<>();
      for (Class<?> type : transformClasses) {
        specs.addAll(ReflectiveModels.transformsOf(Objects.requireNonNull(type, "transform class")));
      }
      return of(specs);
    }

    /**
     * Every transform the SDK's annotation processor indexed on a class path, and those of more
     * classes named.
     *
     * @param loader the class path
     * @param moreClasses names of more classes holding {@code @Transform} methods
     * @return the selection
     */
    public static Selection indexed(ClassLoader loader, Collection<String> moreClasses) {
      List<TransformSpec> specs = new ArrayList<>(TransformIndex.discover(loader));
      List<String> known = specs.stream().map(s -> s.method().getDeclaringClass().getName()).toList();
      specs.addAll(TransformIndex.ofClasses(loader, moreClasses.stream().filter(c -> !known.contains(c)).toList()));
      return of(specs);
    }

    /**
     * Only the named transforms and everything upstream of them.
     *
     * @param transformNames names (or {@code com.example.Class.method} for a name two transforms
     *     share); none for all
     * @return a new selection
     */
    public Selection only(Collection<String> transformNames) {
      return new Selection(transforms, List.copyOf(transformNames), listener, full, force, threads, failFast,
          cancellation, branch);
    }

    /**
     * Builds the named transforms (every selected one, when none is named) in full, whatever their
     * state: what {@code transforms build --full NAME} does after a change an incremental build cannot
     * make, such as a column type that is not a widening. Their upstream builds as usual.
     *
     * @return a new selection
     */
    public Selection full() {
      return new Selection(transforms, names, listener, true, force, threads, failFast, cancellation, branch);
    }

    /**
     * Runs the named transforms (every selected one, when none is named) even when they are up to date:
     * what {@code transforms build --force NAME} does, after a change the SDK cannot see (a library
     * upgrade, a file a transform reads that is not an input). Each still builds incrementally or in
     * full as its state says. Their upstream builds as usual.
     *
     * @return a new selection
     */
    public Selection force() {
      return new Selection(transforms, names, listener, full, true, threads, failFast, cancellation, branch);
    }

    /**
     * Who hears the build's progress.
     *
     * @param progress the listener
     * @return a new selection
     */
    public Selection listener(BuildListener progress) {
      return new Selection(transforms, names, Objects.requireNonNull(progress, "listener"), full, force, threads,
          failFast, cancellation, branch);
    }

    /**
     * How many transforms the build runs at once, at most: what {@code transforms build --threads N} sets.
     * Without it, the configuration's {@code build.threads} decides (the machine's cores, at most 8).
     * A transform starts once everything upstream of it has published; {@code 1} runs them one by one,
     * in plan order.
     *
     * @param count at least 1
     * @return a new selection
     * @throws IllegalArgumentException if the count is below 1
     */
    public Selection threads(int count) {
      if (count < 1) {
        throw new IllegalArgumentException("threads must be at least 1, not " + count);
      }
      return new Selection(transforms, names, listener, full, force, count, failFast, cancellation, branch);
    }

    /**
     * Stops starting transforms after the first one fails ({@code transforms build --fail-fast}): those
     * running finish and publish or discard as usual; those not started are reported skipped. Without
     * it, a failure skips only what is downstream of it.
     *
     * @return a new selection
     */
    public Selection failFast() {
      return new Selection(transforms, names, listener, full, force, threads, true, cancellation, branch);
    }

    /**
     * What cancels the build from another thread (see {@link BuildCancellation}); the command line
     * cancels with it on Ctrl-C and SIGTERM.
     *
     * @param token the cancellation
     * @return a new selection
     */
    public Selection cancellation(BuildCancellation token) {
      return new Selection(transforms, names, listener, full, force, threads, failFast,
          Objects.requireNonNull(token, "cancellation"), branch);
    }

    /**
     * Builds on a branch ({@code transforms build --branch NAME}): each input is read at branch
     * {@code NAME} where its table has it, else at the first of the configuration's
     * {@code branch.fallbacks} it has ({@code main} unless set); each output is published to its branch
     * {@code NAME}, cut from its {@code main} on the branch's first build. Readers of {@code main} see
     * nothing of it: no rows, no schema change, no new table (an output that does not exist yet fails
     * the transform). Up-to-date skipping and incremental state are kept per branch. See
     * {@code docs/branches.md}.
     *
     * @param name the branch
     * @return a new selection
     * @throws IllegalArgumentException naming the branch, if it is {@code main}, starts with the SDK's
     *     staging prefix {@code transforms_}, or is not 1 to 64 letters, digits, {@code -} or {@code _}
     */
    public Selection branch(String name) {
      return new Selection(transforms, names, listener, full, force, threads, failFast, cancellation,
          BranchNames.check(name));
    }

    /**
     * The transforms selected, in the order a build runs them.
     *
     * @return their names
     * @throws dev.transforms.api.PlanException if they cannot be ordered
     */
    public List<String> transforms() {
      return plan().transforms().stream().map(TransformSpec::name).toList();
    }

    /**
     * The engines the selected transforms run on, such as {@code spark} and {@code single-node}.
     *
     * @return the engines' names, each once
     * @throws dev.transforms.api.PlanException if the transforms cannot be ordered
     */
    public Set<String> engines() {
      return new TreeSet<>(plan().transforms().stream().map(TransformSpec::engine).toList());
    }

    /**
     * The dataset paths of the tables the selected transforms write.
     *
     * @return the paths, in build order
     * @throws dev.transforms.api.PlanException if the transforms cannot be ordered
     */
    public List<String> tableOutputs() {
      return plan().transforms().stream().flatMap(t -> t.outputs().stream())
          .filter(p -> p.kind().orElse(null) == DatasetKind.TABLE).map(p -> p.requirePath().toString()).toList();
    }

    BuildPlan plan() {
      return names.isEmpty() ? BuildPlan.of(transforms) : BuildPlan.of(transforms, names);
    }

    /**
     * What a build of this selection is asked: the transforms it builds in full, those it forces, how
     * many run at once (the configuration's number unless set), whether it fails fast.
     */
    BuildOptions options(BuildPlan plan, TransformsConfig config) {
      Set<String> named = names.isEmpty()
          ? new java.util.LinkedHashSet<>(plan.transforms().stream().map(TransformSpec::name).toList())
          : BuildPlan.resolve(transforms, names);
      return new BuildOptions(full ? named : Set.of(), force ? named : Set.of(),
          threads > 0 ? threads : config.buildThreads(), failFast).withBranch(branch, config.values());
    }
  }
}
