package dev.transforms.runtime;

import dev.transforms.runtime.secrets.CauseChain;
import dev.transforms.runtime.secrets.SecretMasker;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What happened to one transform in a build.
 *
 * @param transform the transform's name
 * @param engine the engine that ran it
 * @param status whether it succeeded, failed or was skipped
 * @param incremental whether it ran incrementally
 * @param reason why the build was full (or incremental), or why it was skipped
 * @param outputs what was written to each output; empty unless it succeeded
 * @param duration how long it took, resolution and publication included
 * @param error the failure, when it failed
 * @param recovery what the build did first to put the outputs in order after builds that died (a
 *     publication finished, a dead build's branch or unpublished table removed), one line each
 * @param checks how the data expectations on its outputs came out, output by output; empty when none
 *     were declared or the transform failed before they were evaluated
 * @param advisories the patterns of the review guide it was seen doing while it ran (see
 *     {@link Advisory}); empty when there were none or its advisory level is {@code off}
 */
public record TransformResult(
    String transform,
    String engine,
    Status status,
    boolean incremental,
    String reason,
    List<OutputWrites> outputs,
    Duration duration,
    Optional<Throwable> error,
    List<String> recovery,
    List<CheckResult> checks,
    List<Advisory> advisories) {

  /**
   * Copies the lists so the result stays immutable.
   *
   * @param transform the transform's name
   * @param engine the engine that ran it
   * @param status the outcome
   * @param incremental whether it ran incrementally
   * @param reason why full, incremental or skipped
   * @param outputs what was written to each output
   * @param duration how long it took
   * @param error the failure, when it failed
   * @param recovery what was done after builds that died
   * @param checks how the checks came out
   * @param advisories the advisories it earned
   */
  public TransformResult {
    outputs = List.copyOf(outputs);
    recovery = List.copyOf(recovery);
    checks = List.copyOf(checks);
    advisories = List.copyOf(advisories);
  }

  /**
   * A result without advisories.
   *
   * @param transform the transform's name
   * @param engine the engine that ran it
   * @param status the outcome
   * @param incremental whether it ran incrementally
   * @param reason why full, incremental or skipped
   * @param outputs what was written to each output
   * @param duration how long it took
   * @param error the failure, when it failed
   * @param recovery what was done after builds that died
   * @param checks how the checks came out
   */
  public TransformResult(String transform, String engine, Status status, boolean incremental, String reason,
      List<OutputWrites> outputs, Duration duration, Optional<Throwable> error, List<String> recovery,
      List<CheckResult> checks) {
    this(transform, engine, status, incremental, reason, outputs, duration, error, recovery, checks, List.of());
  }

  /** The outcome of a transform. */
  public enum Status {
    /** It ran and its outputs were published. */
    SUCCEEDED,
    /** It failed; none of its writes were published. */
    FAILED,
    /** It did not run, because a transform upstream of it failed. */
    SKIPPED,
    /**
     * It did not run, because it was up to date: its inputs, code and settings are those of the build
     * that published its outputs, which hold what that build published. Nothing was committed.
     */
    UP_TO_DATE
  }

  /**
   * Whether the transform's outputs hold its result: it ran and published, or was up to date.
   *
   * @return true for {@link Status#SUCCEEDED} and {@link Status#UP_TO_DATE}
   */
  public boolean succeeded() {
    return status == Status.SUCCEEDED || status == Status.UP_TO_DATE;
  }

  /**
   * The error and each of its causes as the build report prints them, secrets masked.
   *
   * @param prefix what the first line starts with, such as {@code "error: "}
   * @param indent what each cause's line starts with
   * @return the lines, each ending in a line break; empty when the transform did not fail
   */
  public Optional<String> errorText(String prefix, String indent) {
    return error.map(e -> CauseChain.of(e, SecretMasker.allLoaded()).format(prefix, indent));
  }
}
