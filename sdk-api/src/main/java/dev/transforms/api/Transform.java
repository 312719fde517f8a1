package dev.transforms.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a public method as a transform: one pipeline step that reads the datasets named by its
 * {@link TableInput}/{@link Input} parameters and writes those named by its
 * {@link TableOutput}/{@link Output} parameters.
 *
 * <p>The engine follows from the handle types the method declares: Spark handles
 * ({@code dev.transforms.spark.*}) run on Spark, Iceberg/Arrow handles
 * ({@code dev.transforms.singlenode.*}) run on a single JVM. Mixing both in one method is an error.
 *
 * <pre>{@code
 * @Transform
 * public void editRows(SparkTransformContext ctx,
 *                      @TableInput("/Examples/iceberg/row-updates") TableTransformInput updates,
 *                      @TableOutput("/Examples/iceberg/edited-spark") TableTransformOutput output) {
 *   ...
 * }
 * }</pre>
 *
 * <p>The annotation only marks; every rule is checked by one validator, at compile time by the
 * annotation processor shipped in {@code sdk-api} and again at run time.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Transform {

  /**
   * The transform's name in plans, reports and the command line.
   *
   * @return the name, or an empty string for the default {@code SimpleClassName.methodName}
   */
  String name() default "";

  /**
   * A one-line description shown by {@code transforms list}.
   *
   * @return the description, possibly empty
   */
  String description() default "";
}
