package dev.transforms.api.checks;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * No row of the output has a null in any of the columns.
 *
 * <pre>{@code @TableOutput("/Shop/clean/orders") @NotNull({"customer_id", "status"}) TableTransformOutput out}</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface NotNull {

  /**
   * The columns.
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
