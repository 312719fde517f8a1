package dev.transforms.api.checks;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Every value of a column is one of a list. Nulls are allowed (add {@link NotNull} to forbid them).
 * Values are written as in filter strings: {@code "2026-04-01"} for a date, {@code "12.50"} for a decimal.
 *
 * <pre>{@code @AllowedValues(column = "status", values = {"open", "paid", "shipped"})}</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@Repeatable(AllowedValues.List.class)
public @interface AllowedValues {

  /**
   * The column.
   *
   * @return its name
   */
  String column();

  /**
   * The allowed values, as text.
   *
   * @return at least one value
   */
  String[] values();

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

  /** Holds several {@code @AllowedValues} on one output. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  @interface List {
    /**
     * The checks.
     *
     * @return the checks
     */
    AllowedValues[] value();
  }
}
