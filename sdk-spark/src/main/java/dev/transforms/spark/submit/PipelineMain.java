package dev.transforms.spark.submit;

import dev.transforms.cli.TransformsCli;
import java.io.PrintStream;

/**
 * The main class of a pipeline's application jar: the {@code transforms} command line, run by
 * {@code spark-submit}.
 *
 * <pre>{@code
 * spark-submit --master spark://host:7077 target/my-pipeline-1.0-app.jar build [TRANSFORM...]
 * spark-submit --master yarn --deploy-mode cluster --files transforms.properties target/my-pipeline-1.0-app.jar build
 * }</pre>
 *
 * <p>Arguments and exit codes are the command line's ({@link TransformsCli}): {@code build}, {@code list},
 * {@code plan} and {@code show}, with {@code --config FILE} and {@code --warehouse DIR} before them. The
 * build starts its Spark session from the settings spark-submit passes, plus the {@code spark.*} keys of
 * the configuration, and stops it when the build ends.
 *
 * <p>It differs from {@link TransformsCli#main} in how it ends: after a successful command it returns
 * instead of calling {@link System#exit}, because on YARN in cluster mode an exit before {@code main}
 * returns makes the application master report the application as failed. A failed command exits with
 * the command line's code, so spark-submit (client mode), the YARN application and the Kubernetes
 * driver pod all fail.
 *
 * <p>The application jar leaves Spark and Hadoop to the cluster, so {@code java -jar} alone cannot run
 * it; this class says so and shows the commands that can.
 */
public final class PipelineMain {

  /** Exit code when Spark or Hadoop is missing from the classpath. */
  static final int MISSING_SPARK = TransformsCli.BAD_USAGE;

  private PipelineMain() {}

  /**
   * Runs the command line; exits only when it failed.
   *
   * @param args the command line's arguments, such as {@code build} or {@code --config prod.properties build}
   */
  public static void main(String[] args) {
    int code = run(args, System.err);
    if (code != TransformsCli.OK) {
      System.exit(code);
    }
  }

  /**
   * Runs the command line and returns its exit code.
   *
   * @param args the command line's arguments
   * @param err where to explain a classpath without Spark
   * @return the exit code: {@link TransformsCli#OK}, {@link TransformsCli#TRANSFORM_FAILED} or
   *     {@link TransformsCli#BAD_USAGE}
   */
  static int run(String[] args, PrintStream err) {
    String missing = missingClusterClass(PipelineMain.class.getClassLoader());
    if (missing != null) {
      err.println("error: " + missing + " is not on the classpath. This application jar leaves Spark and Hadoop"
          + " to the cluster; run it with spark-submit:");
      err.println("  spark-submit --master 'local[*]' APP.jar build        (on this machine)");
      err.println("  spark-submit --master spark://HOST:7077 APP.jar build (on a cluster; see docs/cluster.md)");
      err.println("or put Spark's jars beside it: java <the --add-opens flags> -cp \"APP.jar:$SPARK_HOME/jars/*\" "
          + PipelineMain.class.getName() + " build");
      return MISSING_SPARK;
    }
    return TransformsCli.execute(new TransformsCli(), args);
  }

  /** The first class a cluster provides that the loader cannot find, or null when all are there. */
  static String missingClusterClass(ClassLoader loader) {
    for (String name : new String[] {"org.apache.hadoop.conf.Configuration", "org.apache.spark.sql.SparkSession"}) {
      try {
        Class.forName(name, false, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        return name;
      }
    }
    return null;
  }
}
