package dev.transforms.runtime.spi;

import dev.transforms.api.PublishConflictException;
import dev.transforms.api.SchemaChangePolicy;
import dev.transforms.api.TableOutput;
import dev.transforms.api.TransformFailedException;
import dev.transforms.runtime.DatasetPath;
import dev.transforms.runtime.internal.config.BranchNames;
import dev.transforms.runtime.internal.config.BuildSettings;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * One transform about to run in one build: what an {@link Engine} needs to build the handles and
 * invoke the method.
 *
 * <p>Engine SPI: it changes only as the {@linkplain dev.transforms.runtime.spi package} promises.
 */
public final class TransformRun {

  private final BuildEnvironment build;
  private final TransformSpec spec;
  private final Object target;
  private final List<BoundInput> inputs;
  private final List<BoundOutput> outputs;
  private final IncrementalDecision decision;
  private final OutputStaging staging;
  private final Map<String, String> commitProperties;
  private final RunAdvisories advisories;
  private final int lane;

  /**
   * Creates a run with its advisories, in one lane of the build; the runtime does this.
   *
   * @param build the build's shared environment
   * @param spec the validated transform
   * @param target the instance the method is invoked on, or {@code null} for a static method
   * @param inputs the bound inputs, in signature order
   * @param outputs the bound outputs, in signature order
   * @param decision whether this build is incremental, and why
   * @param staging where the run's writes to its outputs go until they are published
   * @param commitProperties the snapshot summary properties every commit to an output carries
   * @param advisories where engines record the advisories they find, with the run's level
   * @param lane which of the build's {@link BuildEnvironment#threads() threads} runs it, from 0: no two
   *     runs of one lane overlap, so an engine may keep one session per lane
   */
  public TransformRun(
      BuildEnvironment build,
      TransformSpec spec,
      Object target,
      List<BoundInput> inputs,
      List<BoundOutput> outputs,
      IncrementalDecision decision,
      OutputStaging staging,
      Map<String, String> commitProperties,
      RunAdvisories advisories,
      int lane) {
    this.lane = lane;
    this.advisories = advisories;
    this.build = build;
    this.spec = spec;
    this.target = target;
    this.inputs = List.copyOf(inputs);
    this.outputs = List.copyOf(outputs);
    this.decision = decision;
    this.staging = staging;
    this.commitProperties = Map.copyOf(commitProperties);
  }

  /**
   * The build's shared environment.
   *
   * @return the build environment
   */
  public BuildEnvironment build() {
    return build;
  }

  /**
   * Which of the build's threads runs this transform, from 0 to {@link BuildEnvironment#threads()} - 1.
   * Runs of one lane never overlap.
   *
   * @return the lane
   */
  public int lane() {
    return lane;
  }

  /**
   * The validated transform.
   *
   * @return the spec
   */
  public TransformSpec spec() {
    return spec;
  }

  /**
   * The inputs, in signature order.
   *
   * @return the bound inputs
   */
  public List<BoundInput> inputs() {
    return inputs;
  }

  /**
   * The outputs, in signature order.
   *
   * @return the bound outputs
   */
  public List<BoundOutput> outputs() {
    return outputs;
  }

  /**
   * The input bound to a parameter.
   *
   * @param parameter an input parameter of this transform
   * @return its binding
   */
  public BoundInput input(ParameterSpec parameter) {
    return inputs.stream().filter(i -> i.parameter().index() == parameter.index()).findFirst()
        .orElseThrow(() -> new NoSuchElementException("No input at parameter " + parameter.index()));
  }

  /**
   * The output bound to a parameter.
   *
   * @param parameter an output parameter of this transform
   * @return its binding
   */
  public BoundOutput output(ParameterSpec parameter) {
    return outputs.stream().filter(o -> o.parameter().index() == parameter.index()).findFirst()
        .orElseThrow(() -> new NoSuchElementException("No output at parameter " + parameter.index()));
  }

  /**
   * The input of a path.
   *
   * @param path a dataset path this transform reads
   * @return its binding
   */
  public BoundInput input(DatasetPath path) {
    return inputs.stream().filter(i -> i.parameter().requirePath().equals(path)).findFirst()
        .orElseThrow(() -> new NoSuchElementException("No input " + path));
  }

  /**
   * Whether this build is incremental, and why.
   *
   * @return the decision
   */
  public IncrementalDecision decision() {
    return decision;
  }

  /**
   * Shorthand for {@code decision().incremental()}.
   *
   * @return whether this build is incremental
   */
  public boolean isIncremental() {
    return decision.incremental();
  }

  /**
   * Where the run's writes to its outputs go: every output's staging branch, and the creation of new
   * outputs. The runtime publishes all of it when the method returns, or throws it away.
   *
   * @return the run's output staging
   */
  public OutputStaging staging() {
    return staging;
  }

  /**
   * The build's staging branch: the branch writes to outputs that existed before the run land on. It
   * also names the run (Spark job tags, the session's setting). For the branch an output's writes go
   * to, ask {@link #branch(BoundOutput)}: a new output has no staging branch.
   *
   * @return the staging branch name
   */
  public String stagingBranch() {
    return BranchNames.staging(build.buildId());
  }

  /**
   * The branch every write to an output table must land on; shorthand for
   * {@code staging().branch(output)}.
   *
   * @param output an output of this run
   * @return the branch name
   */
  public String branch(BoundOutput output) {
    return staging.branch(output);
  }

  /**
   * What an incremental build of this run may do to an output's schema: its
   * {@code @TableOutput(onSchemaChange = ...)}, else the configuration's {@code build.on-schema-change}.
   *
   * @param output a table output of this run
   * @return the policy, never {@code CONFIGURED}
   */
  public SchemaChangePolicy schemaChangePolicy(BoundOutput output) {
    java.lang.reflect.Parameter parameter = spec.method().getParameters()[output.parameter().index()];
    TableOutput declared = parameter.getAnnotation(TableOutput.class);
    SchemaChangePolicy policy = declared == null ? SchemaChangePolicy.CONFIGURED : declared.onSchemaChange();
    return policy == SchemaChangePolicy.CONFIGURED ? BuildSettings.of(build.config().values()).onSchemaChange() : policy;
  }

  /**
   * The snapshot summary properties each commit to an output carries: which transform and build
   * committed it. Provenance only: the incremental state is stored by the publishing commit.
   *
   * @return the properties to stamp
   */
  public Map<String, String> commitProperties() {
    return commitProperties;
  }

  /**
   * The run's advisories: its level (engines inspect nothing when it is off), the thresholds, and what
   * was found.
   *
   * @return the advisories
   */
  public RunAdvisories advisories() {
    return advisories;
  }

  /**
   * Invokes the transform method.
   *
   * @param arguments one argument per parameter, in signature order
   * @throws TransformFailedException wrapping whatever the method threw, naming the transform
   * @throws PublishConflictException if the method failed because another build created or moved one
   *     of its outputs meanwhile
   */
  public void invoke(Object[] arguments) {
    try {
      spec.method().invoke(target, arguments);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
        if (t instanceof PublishConflictException conflict) {
          // Another build got to an output first: that, not the method, is why this run fails.
          throw conflict;
        }
      }
      throw new TransformFailedException("Transform " + spec.name() + " failed: "
          + build.config().masker().mask(String.valueOf(cause)), cause);
    } catch (IllegalAccessException e) {
      throw new TransformFailedException("Transform " + spec.name() + " cannot be invoked: " + e.getMessage(), e);
    }
  }
}
