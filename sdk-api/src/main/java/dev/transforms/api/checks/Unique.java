package dev.transforms.api.checks;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * No two rows of the output have the same values in the columns together. Rows with a null in any of
 * the columns are left out, as a SQL {@code UNIQUE} constraint does.
 *
 * <pre>{@code @TableOutput("/Shop/clean/customers") @Unique("email") TableTransformOutput out}</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@Repeatable(Unique.List.class)
public @interface Unique {

  /**
   * The columns that together must be unique.
   *
   * @return column names, at least one
   */
  String[] value();

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

  /** Holds several {@code @Unique} on one output. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  @interface List {
    /**
     * The checks.
     *
     * @return the checks
     */
    Unique[] value();
  }
}
