package dev.transforms.crash;

import dev.transforms.runtime.BuildReport;
import dev.transforms.Transforms;
import dev.transforms.runtime.TransformsConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The build a crash test kills: runs in its own JVM, started with {@code -Dtransforms.crash-point=...}
 * (and {@code -Dcrash.threads=N} to run N transforms at once, {@code -Dcrash.branch=NAME} to build on a
 * branch, {@code -Dcrash.promote=NAME} to promote a branch instead of building), builds the given transform
 * classes on a warehouse and prints the report. Arguments: the warehouse folder, then the transform classes.
 */
public final class CrashChild {

  /** The system property that sets how many transforms the build runs at once. */
  static final String THREADS = "crash.threads";

  /** The system property that makes the build a branch build of the branch it names. */
  static final String BRANCH = "crash.branch";

  /** The system property that makes the child promote the branch it names instead of building. */
  static final String PROMOTE = "crash.promote";

  private CrashChild() {}

  /**
   * Runs the build.
   *
   * @param args the warehouse folder, then transform class names
   * @throws ClassNotFoundException if a class is not on the classpath
   */
  public static void main(String[] args) throws ClassNotFoundException {
    TransformsConfig config = TransformsConfig.embedded(Path.of(args[0]));
    List<Class<?>> classes = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      classes.add(Class.forName(args[i]));
    }
    BuildReport report;
    try (Transforms transforms = Transforms.open(config)) {
      Transforms.Selection selection = Transforms.Selection.of(classes);
      if (System.getProperty(PROMOTE) != null) {
        System.out.println("promoted " + transforms.promote(selection, System.getProperty(PROMOTE)));
        System.out.flush();
        System.exit(0);
      }
      if (System.getProperty(BRANCH) != null) {
        selection = selection.branch(System.getProperty(BRANCH));
      }
      String threads = System.getProperty(THREADS);
      report = transforms.build(threads == null ? selection : selection.threads(Integer.parseInt(threads)));
    }
    System.out.println(report.format());
    System.out.flush();
    // Spark's non-daemon threads would keep the JVM up.
    System.exit(report.succeeded() ? 0 : 1);
  }
}
