package dev.transforms.api.checks;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Every row of the output has a value in each key column, and no two rows have the same key: the
 * columns together are unique and not null. Nulls are violations; two rows are duplicates when every
 * key column is equal.
 *
 * <pre>{@code @TableOutput("/Shop/clean/orders") @PrimaryKey("order_id") TableTransformOutput out}</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface PrimaryKey {

  /**
   * The key columns.
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
}
