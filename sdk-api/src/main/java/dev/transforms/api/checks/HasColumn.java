package dev.transforms.api.checks;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The output has a column, optionally of a type, written as Iceberg names types: {@code long},
 * {@code string}, {@code date}, {@code timestamptz}, {@code decimal(10,2)}.
 *
 * <pre>{@code @HasColumn(value = "amount", type = "decimal(10,2)")}</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@Repeatable(HasColumn.List.class)
public @interface HasColumn {

  /**
   * The column.
   *
   * @return its name
   */
  String value();

  /**
   * The column's type; empty for any.
   *
   * @return the type
   */
  String type() default "";

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

  /** Holds several {@code @HasColumn} on one output. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  @interface List {
    /**
     * The checks.
     *
     * @return the checks
     */
    HasColumn[] value();
  }
}
