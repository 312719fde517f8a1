package dev.transforms.api.checks;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Every row satisfies a predicate, written as a filter string ({@code "amount >= 0 AND status != 'void'"}).
 * A row violates it when the predicate is false; a predicate that is unknown for a row (a null
 * compared) does not count as a violation, as in a SQL {@code CHECK} constraint.
 *
 * <pre>{@code @Satisfies("shipped_at IS NULL OR shipped_at >= ordered_at")}</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@Repeatable(Satisfies.List.class)
public @interface Satisfies {

  /**
   * The predicate.
   *
   * @return a filter string
   */
  String value();

  /**
   * What a failure does: stop the publication ({@link Level#FAIL}, the default) or only report it.
   *
   * @return the level
   */
  Level level() default Level.FAIL;

  /**
   * The check's name in reports; empty for one derived from what it checks.
   *
   * @return the name
   */
  String name() default "";

  /** Holds several {@code @Satisfies} on one output. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  @interface List {
    /**
     * The checks.
     *
     * @return the checks
     */
    Satisfies[] value();
  }
}
