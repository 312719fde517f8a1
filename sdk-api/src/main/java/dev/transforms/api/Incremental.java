package dev.transforms.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Lets a {@link Transform} run incrementally: process only the rows appended to its inputs since its
 * last successful build.
 *
 * <p>A build is incremental only when the state stored by the last successful build exists in every
 * output, {@link #semanticVersion()} is unchanged, and every input (other than the
 * {@link #snapshotInputs()}) changed only by appends since the stored snapshot, which must still
 * exist. A transform that reads its inputs' {@link #changes()} stays incremental when they are
 * edited too (updated, deleted, merged, overwritten). Otherwise the build is a full build and the
 * report says why, or it fails when {@link #requireIncremental()} is set. See
 * {@code docs/incremental.md}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Incremental {

  /**
   * Whether inputs default to reading added rows on incremental builds (v2 semantics). Kept for
   * parity with Python's {@code v2_semantics=True}; only {@code true} is supported.
   *
   * @return {@code true}
   */
  boolean v2Semantics() default true;

  /**
   * The version of the transform's logic. Bump it to force the next build to be full.
   *
   * @return the semantic version, at least 1
   */
  int semanticVersion() default 1;

  /**
   * Paths of inputs that are always read whole and whose changes, of any kind, never force a full build.
   *
   * @return dataset paths of snapshot inputs; each must also be declared as an input
   */
  String[] snapshotInputs() default {};

  /**
   * Whether a build that cannot be incremental fails instead of falling back to a full build.
   *
   * @return {@code true} to fail rather than run a full build
   */
  boolean requireIncremental() default false;

  /**
   * Whether the transform reads what changed in its inputs (rows inserted, deleted and updated) rather
   * than only the rows appended: an input edited since the last build (an upsert, a delete, a
   * {@code MERGE}, an overwrite) then keeps the build incremental, and the transform reads the edits
   * through its input handle's {@code changes()}. The build is still full when the snapshot the last
   * build read has expired or is no longer in the input's history.
   *
   * @return {@code true} to read changes
   */
  boolean changes() default false;
}
