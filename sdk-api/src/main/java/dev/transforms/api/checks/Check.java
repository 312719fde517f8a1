package dev.transforms.api.checks;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A check written in Java: a class implementing {@link OutputCheck}, with a public no-argument
 * constructor, given the staged table before the output is published.
 *
 * <pre>{@code @Check(value = BalancesAddUp.class, name = "balances add up")}</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@Repeatable(Check.List.class)
public @interface Check {

  /**
   * The check's class.
   *
   * @return a public class with a public no-argument constructor
   */
  Class<? extends OutputCheck> value();

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

  /** Holds several {@code @Check} on one output. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  @interface List {
    /**
     * The checks.
     *
     * @return the checks
     */
    Check[] value();
  }
}
