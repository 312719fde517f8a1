package dev.transforms.crash;

import dev.transforms.runtime.BuildReport;
import dev.transforms.runtime.Transforms;
import dev.transforms.runtime.TransformsConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The build a crash test kills: runs in its own JVM, started with {@code -Dtransforms.crash-point=...}
 * (and {@code -Dcrash.threads=N} to run N transforms at once), builds the given transform classes on a
 * warehouse and prints the report. Arguments: the warehouse folder, then the transform classes.
 */
public final class CrashChild {

  /** The system property that sets how many transforms the build runs at once. */
  static final String THREADS = "crash.threads";

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
      String threads = System.getProperty(THREADS);
      report = transforms.build(threads == null ? selection : selection.threads(Integer.parseInt(threads)));
    }
    System.out.println(report.format());
    System.out.flush();
    // Spark's non-daemon threads would keep the JVM up.
    System.exit(report.succeeded() ? 0 : 1);
  }
}
