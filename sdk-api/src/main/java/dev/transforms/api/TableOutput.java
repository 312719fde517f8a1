package dev.transforms.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that a {@link Transform} parameter is an output table, named by its dataset path.
 *
 * <p>The runtime resolves the path (for example {@code /Examples/iceberg/row-updates}) to an Iceberg
 * catalog table through the mounts of the configuration before it invokes the method, and hands the
 * parameter a handle bound to that table. See {@code docs/configuration.md}.
 *
 * <p>The output's shape follows what the transform writes: a full build publishes its schema and
 * partitioning with its rows, in one commit; an incremental build changes the schema only as
 * {@link #onSchemaChange()} allows. See {@code docs/changing-a-pipeline.md}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface TableOutput {

  /**
   * The absolute dataset path the transform writes, such as {@code /Examples/iceberg/row-updates}.
   *
   * @return the dataset path
   */
  String value();

  /**
   * What an incremental build may do when the rows it writes have other columns than the output: fail
   * (the default), add the new columns, or keep the table's columns in step with the rows. Full builds
   * always give the output the shape of what they write. See {@link SchemaChangePolicy}.
   *
   * @return the policy; {@link SchemaChangePolicy#CONFIGURED} takes {@code build.on-schema-change}
   *     from the configuration
   */
  SchemaChangePolicy onSchemaChange() default SchemaChangePolicy.CONFIGURED;
}
