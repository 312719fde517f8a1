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

  /**
   * What advisories do for this transform: {@link AdvisoryLevel#DEFAULT} follows the configuration's
   * {@code advisories} key; {@code OFF}, {@code WARN} and {@code ERROR} override it either way. Use
   * {@code OFF} to silence a transform whose pattern is deliberate (a cross join of two small frames),
   * {@code ERROR} to make a transform fail rather than publish anything that earned one. The rules are
   * listed in the best-practices page of the documentation.
   *
   * @return the level for this transform
   */
  AdvisoryLevel advisories() default AdvisoryLevel.DEFAULT;
}
