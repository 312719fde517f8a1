package dev.transforms.spark;

/** The Spark line this engine is compiled for: Spark 3.5, Scala 2.12. */
final class SparkLine {

  /** The Spark line, major and minor version. */
  static final String SPARK = "3.5";

  /** The Scala binary version. */
  static final String SCALA = "2.12";

  /** This engine's artifact, its BOM and its pipeline parent. */
  static final String ARTIFACTS = "sdk-spark, transforms-bom, transforms-pipeline-parent";

  private SparkLine() {}
}
