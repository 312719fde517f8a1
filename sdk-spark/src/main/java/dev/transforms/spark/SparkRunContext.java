package dev.transforms.spark;

import dev.transforms.runtime.spi.TransformRun;
import org.apache.spark.sql.SparkSession;

/** The context every Spark transform may declare. */
record SparkRunContext(SparkSession sparkSession, TransformRun run) implements SparkTransformContext {
  @Override
  public boolean isIncremental() {
    return run.isIncremental();
  }

  @Override
  public String transformName() {
    return run.spec().name();
  }

  @Override
  public String buildId() {
    return run.build().buildId();
  }

  @Override
  public String toString() {
    return "SparkTransformContext[" + transformName() + ", " + (isIncremental() ? "incremental" : "full") + "]";
  }
}
