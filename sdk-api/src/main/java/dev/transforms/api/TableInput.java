package dev.transforms.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that a {@link Transform} parameter is an input table, named by its dataset path.
 *
 * <p>The runtime resolves the path (for example {@code /Examples/iceberg/row-updates}) to an Iceberg
 * catalog table through the mounts of the configuration before it invokes the method, and hands the
 * parameter a handle bound to that table. See {@code docs/configuration.md}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface TableInput {

  /**
   * The absolute dataset path the transform reads, such as {@code /Examples/iceberg/row-updates}.
   *
   * @return the dataset path
   */
  String value();
}
