package dev.transforms.spark;

import dev.transforms.api.Handle;
import dev.transforms.api.IncrementalTransformContext;
import org.apache.spark.sql.SparkSession;

/**
 * The context of a transform that runs on Spark: the session to run SQL and build DataFrames with, and
 * whether this build is incremental.
 *
 * <p>Declare it as a parameter, without annotation:
 * <pre>{@code
 * @Transform
 * public void compute(SparkTransformContext ctx,
 *                     @TableInput("/Examples/iceberg/row-updates") TableTransformInput updates,
 *                     @TableOutput("/Examples/iceberg/edited-spark") TableTransformOutput output) {
 *   ctx.sparkSession().sql("DELETE FROM " + output.identifier() + " WHERE as_of < '2026-04-01'");
 * }
 * }</pre>
 *
 * <p>The session belongs to the build: every Spark transform of one build shares it, and its settings
 * (catalogs, staging branch) are the build's. Do not stop it.
 */
@Handle(engine = "spark", role = Handle.Role.CONTEXT, artifact = "dev.transforms:sdk-spark")
public interface SparkTransformContext extends IncrementalTransformContext {

  /**
   * The Spark session of this build. Every catalog of the configuration is registered in it under
   * its name, with the Iceberg SQL extensions, so {@code MERGE}, {@code UPDATE}, {@code DELETE} and
   * {@code CALL} work on the identifiers of the handles.
   *
   * @return the session
   */
  SparkSession sparkSession();

  /**
   * Whether this build processes only the rows appended to the inputs since the last successful
   * build. Always {@code false} for a transform without {@code @Incremental}.
   *
   * @return {@code true} for an incremental build
   */
  @Override
  boolean isIncremental();
}
