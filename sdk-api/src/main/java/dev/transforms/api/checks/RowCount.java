package dev.transforms.api.checks;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The number of rows of the output: within an absolute range, and/or within a change relative to the
 * output as it was last published ("no more than 10% fewer rows"). The relative bounds do not apply
 * on the first build.
 *
 * <pre>{@code @TableOutput("/Shop/clean/orders") @RowCount(min = 1, maxDropPercent = 10) TableTransformOutput out}</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface RowCount {

  /**
   * The fewest rows allowed.
   *
   * @return the minimum, 0 by default
   */
  long min() default 0;

  /**
   * The most rows allowed.
   *
   * @return the maximum, unlimited by default
   */
  long max() default Long.MAX_VALUE;

  /**
   * How many percent fewer rows than the last published version are allowed; negative for no limit.
   *
   * @return the percentage, from 0 to 100
   */
  double maxDropPercent() default -1;

  /**
   * How many percent more rows than the last published version are allowed; negative for no limit.
   *
   * @return the percentage, 0 or more
   */
  double maxGrowthPercent() default -1;

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
