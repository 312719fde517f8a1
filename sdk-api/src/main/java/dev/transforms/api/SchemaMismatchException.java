package dev.transforms.api;

import java.util.List;

/**
 * Data does not fit the table it is written to: a DataFrame written to a Spark output, or Arrow data
 * written to a single-node output or table. The message names the output or table and lists every
 * column that differs, one per line; {@link #differences()} returns the same lines so that callers
 * can show or test them one by one. Nothing was written.
 */
public class SchemaMismatchException extends TransformsException {
  private static final long serialVersionUID = 1L;

  private final List<String> differences;

  /**
   * Creates the exception.
   *
   * @param message what was being written and every difference
   * @param differences one line per differing column, naming it by its dotted path (such as
   *     {@code address.zip: table int, data string})
   */
  public SchemaMismatchException(String message, List<String> differences) {
    super(message);
    this.differences = List.copyOf(differences);
  }

  /**
   * Every difference found, one entry per column at fault.
   *
   * @return the differences
   */
  public List<String> differences() {
    return differences;
  }
}
