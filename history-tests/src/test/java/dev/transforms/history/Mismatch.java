package dev.transforms.history;

/**
 * A check of a history that failed: the SDK did not do what the model says. {@link #check()} names the
 * check alone (which transform, which comparison), so that shrinking can tell the same failure from
 * another one.
 */
final class Mismatch extends AssertionError {

  private static final long serialVersionUID = 1L;

  private final String check;

  /**
   * A failed check.
   *
   * @param check what was checked, such as {@code scd1 equals scd1-full}
   * @param detail what differed
   */
  Mismatch(String check, String detail) {
    super(check + ": " + detail);
    this.check = check;
  }

  /**
   * A failed check caused by an exception.
   *
   * @param check what was checked
   * @param detail what happened
   * @param cause the exception
   */
  Mismatch(String check, String detail, Throwable cause) {
    super(check + ": " + detail, cause);
    this.check = check;
  }

  /** What was checked, without the details. */
  String check() {
    return check;
  }
}
