package dev.transforms.history;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.Table;

/**
 * A failure a history injects into one build: the named transform throws after it has written its rows
 * (to the build's staging branch), so the build fails half way and must publish nothing of that
 * transform; the next build must be as right as if the failed one had never run. Histories run at once in
 * warehouses of their own, so a failure is armed for one warehouse, told by the location of the input.
 */
final class InjectedFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The transform that fails, by the location of the input of the warehouse it fails in. */
  private static final Map<String, String> ARMED = new ConcurrentHashMap<>();

  private InjectedFailure(String transform) {
    super("injected failure: transform " + transform + " throws after writing its rows");
  }

  /**
   * Makes one transform fail in the builds that follow on one input, until {@link #disarm}.
   *
   * @param input the input, which tells the warehouse
   * @param transform the transform's name
   */
  static void arm(Table input, String transform) {
    ARMED.put(input.location(), transform);
  }

  /**
   * Lets every transform on an input succeed again.
   *
   * @param input the input
   */
  static void disarm(Table input) {
    ARMED.remove(input.location());
  }

  /**
   * Called by a transform once its rows are written: throws if the transform is the one armed.
   *
   * @param transform the calling transform's name
   * @param input the table it read
   * @throws InjectedFailure if it is armed
   */
  static void afterWriting(String transform, Table input) {
    if (transform.equals(ARMED.get(input.location()))) {
      throw new InjectedFailure(transform);
    }
  }
}
