package dev.transforms.runtime.spi;

import java.io.PrintStream;

/**
 * Named places in the build protocol (after each commit and each file move) where a crash test can
 * kill the build's process, to check that whatever a killed build leaves behind is never read as a
 * result and is cleaned up by the next build.
 *
 * <p>Inert unless the system property {@value #PROPERTY} names a point: then the first time the build
 * reaches it, the process prints {@code CRASH-POINT <name>} on standard output and stops in place, so
 * the test that started it kills it there ({@code Process.destroyForcibly()}, a SIGKILL). A point can
 * be named with an occurrence, {@code publish.output#2}, to stop at its second passage.
 */
public final class CrashPoints {

  /** The system property that names the point to stop at. */
  public static final String PROPERTY = "transforms.crash-point";

  /** The line printed when the point is reached, followed by the point's name. */
  public static final String MARKER = "CRASH-POINT ";

  private static final String TARGET = System.getProperty(PROPERTY);
  private static final java.util.Map<String, Integer> PASSAGES = new java.util.HashMap<>();

  private CrashPoints() {}

  /**
   * Marks a point of the protocol. Costs a field read when no crash test runs.
   *
   * @param point the point's name, such as {@code stage.branch} or {@code publish.output}
   */
  public static void reached(String point) {
    if (TARGET == null) {
      return;
    }
    int passage;
    synchronized (PASSAGES) {
      passage = PASSAGES.merge(point, 1, Integer::sum);
    }
    if (!TARGET.equals(point) && !TARGET.equals(point + "#" + passage)) {
      return;
    }
    PrintStream out = System.out;
    out.println(MARKER + TARGET);
    out.flush();
    // Wait to be killed; never go on past the point.
    while (true) {
      try {
        Thread.sleep(60_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        Runtime.getRuntime().halt(137);
      }
    }
  }
}
