package dev.transforms.benchmarks;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;

/**
 * Times an action after a warm-up and reports the median and the 90th percentile. Every benchmark in
 * this module prints one row per case, so cases measured in one run can be compared side by side.
 */
final class Harness {

  private Harness() {}

  /** Milliseconds of each measured run, sorted. */
  static double[] measure(int warmup, int runs, Callable<?> action) throws Exception {
    for (int i = 0; i < warmup; i++) {
      action.call();
    }
    double[] millis = new double[runs];
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      action.call();
      millis[i] = (System.nanoTime() - start) / 1e6;
    }
    Arrays.sort(millis);
    return millis;
  }

  /** Milliseconds one run of an action takes. */
  static double time(Runnable action) {
    long start = System.nanoTime();
    action.run();
    return (System.nanoTime() - start) / 1e6;
  }

  static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  static double percentile(double[] sorted, double p) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
  }

  static void header() {
    System.out.printf("%-52s %8s %10s %10s%n", "case", "runs", "median ms", "p90 ms");
  }

  static void row(String name, double[] sorted) {
    System.out.printf("%-52s %8d %10.2f %10.2f%n", name, sorted.length, median(sorted), percentile(sorted, 0.9));
  }

  /** Removes a folder and everything in it; for the temporary warehouses of the harnesses. */
  static void deleteRecursively(java.nio.file.Path dir) {
    try (java.util.stream.Stream<java.nio.file.Path> paths = java.nio.file.Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Removes a temporary warehouse when the JVM ends, however the harness ends. */
  static void deleteOnExit(java.nio.file.Path dir) {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteRecursively(dir)));
  }

  /** Appends already written data files to a table in one fast append (not timed by callers). */
  static void appendFiles(Table table, List<DataFile> files) {
    AppendFiles append = table.newFastAppend();
    files.forEach(append::appendFile);
    append.commit();
  }

  /** Brings a table's {@code main} back to a base snapshot between runs; fails if it did not get there. */
  static void rollBack(Table table, long base) {
    table.refresh();
    if (table.currentSnapshot().snapshotId() != base) {
      table.manageSnapshots().rollbackTo(base).commit();
    }
    if (table.currentSnapshot().snapshotId() != base) {
      throw new IllegalStateException(table.name() + " did not roll back to snapshot " + base);
    }
  }
}
