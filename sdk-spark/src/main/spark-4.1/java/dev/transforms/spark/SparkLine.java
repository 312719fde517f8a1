package dev.transforms.spark;

/** The Spark line this engine is compiled for: Spark 4.1, Scala 2.13. */
final class SparkLine {

  /** The Spark line, major and minor version. */
  static final String SPARK = "4.1";

  /** The Scala binary version. */
  static final String SCALA = "2.13";

  /** This engine's artifact, its BOM and its pipeline parent. */
  static final String ARTIFACTS = "sdk-spark-4.1_2.13, transforms-bom-spark-4.1_2.13, transforms-pipeline-parent-spark-4.1_2.13";

  private SparkLine() {}
}
