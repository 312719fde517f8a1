package dev.transforms.api.checks;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Every value of a column lies within bounds, both inclusive. Nulls are allowed (add {@link NotNull}
 * to forbid them). Bounds are written as in filter strings: {@code "0"}, {@code "2026-01-01"}.
 *
 * <pre>{@code @ValueRange(column = "amount", min = "0", max = "100000")}</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@Repeatable(ValueRange.List.class)
public @interface ValueRange {

  /**
   * The column.
   *
   * @return its name
   */
  String column();

  /**
   * The smallest allowed value; empty for no lower bound.
   *
   * @return the bound, as text
   */
  String min() default "";

  /**
   * The largest allowed value; empty for no upper bound.
   *
   * @return the bound, as text
   */
  String max() default "";

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

  /** Holds several {@code @ValueRange} on one output. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  @interface List {
    /**
     * The checks.
     *
     * @return the checks
     */
    ValueRange[] value();
  }
}
