package dev.transforms.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that a {@link Transform} parameter reads a plain file dataset (Parquet, CSV or JSON
 * files, not an Iceberg table), or an Iceberg table read through an engine-neutral incremental
 * handle.
 *
 * <p>The path resolves like a table path; when it names an existing Iceberg table, that table is read.
 * Otherwise the files under the mount's file root are read with the declared {@link #format()} and
 * {@link #schema()}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface Input {

  /**
   * The absolute dataset path, such as {@code /Examples/iceberg/date-input-dataset}.
   *
   * @return the dataset path
   */
  String value();

  /**
   * The file format when the dataset is plain files: {@code parquet}, {@code csv} or {@code json}.
   *
   * @return the format name
   */
  String format() default "parquet";

  /**
   * The declared schema of CSV or JSON files as a DDL string ({@code "id BIGINT, name STRING"}).
   * Declaring the schema avoids an inference pass and pins correctness to the contract, not a sample.
   *
   * @return the DDL schema, or an empty string for Parquet, whose files carry their schema
   */
  String schema() default "";
}
