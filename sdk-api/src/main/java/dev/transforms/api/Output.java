package dev.transforms.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that a {@link Transform} parameter writes a plain file dataset (not an Iceberg table).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface Output {

  /**
   * The absolute dataset path.
   *
   * @return the dataset path
   */
  String value();

  /**
   * The file format written: {@code parquet}, {@code csv} or {@code json}.
   *
   * @return the format name
   */
  String format() default "parquet";
}
