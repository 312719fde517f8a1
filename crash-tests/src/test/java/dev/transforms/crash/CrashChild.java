package dev.transforms.crash;

import dev.transforms.runtime.build.BuildListener;
import dev.transforms.runtime.build.BuildReport;
import dev.transforms.runtime.build.BuildRunner;
import dev.transforms.runtime.catalog.TransformsConfig;
import dev.transforms.runtime.plan.BuildPlan;
import dev.transforms.runtime.spec.TransformSpec;
import dev.transforms.runtime.validate.ReflectiveModels;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The build a crash test kills: runs in its own JVM, started with {@code -Dtransforms.crash-point=...},
 * builds the given transform classes on a warehouse and prints the report. Arguments: the warehouse
 * folder, then the transform classes.
 */
public final class CrashChild {

  private CrashChild() {}

  /**
   * Runs the build.
   *
   * @param args the warehouse folder, then transform class names
   * @throws ClassNotFoundException if a class is not on the classpath
   */
  public static void main(String[] args) throws ClassNotFoundException {
    TransformsConfig config = TransformsConfig.embedded(Path.of(args[0]));
    List<TransformSpec> specs = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      specs.addAll(ReflectiveModels.transformsOf(Class.forName(args[i])));
    }
    BuildReport report;
    try (BuildRunner runner = new BuildRunner(config)) {
      report = runner.run(BuildPlan.of(specs), BuildListener.NONE);
    }
    System.out.println(report.format());
    System.out.flush();
    // Spark's non-daemon threads would keep the JVM up.
    System.exit(report.succeeded() ? 0 : 1);
  }
}
